#pragma once

// How the conformance tests run a compiled program of ../shared/fixtures/cairo: its entry in
// the fixtures' expectations names the file, the program input and the layout Stone's tests used.

#include "cairo/Runner.h"
#include "cairo/vm/ExactJson.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QString>

namespace proofdesk::test {

inline const QString kCairoFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo");

// A fixture file's JSON, numbers kept exact; null when it cannot be read.
inline nlohmann::json readFixtureJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return nullptr;
    }
    return cairo::parseExactJson(file.readAll().toStdString());
}

struct FixtureRun {
    cairo::Program program;
    cairo::RunOptions options;
};

// The program of expectations entry `entry` (named `name`), to run in proof mode on its layout.
inline FixtureRun fixtureRun(const QString& name, const nlohmann::json& entry) {
    FixtureRun run{
        cairo::Program::fromFile(QString(kCairoFixtures + QLatin1Char('/') +
                                         QString::fromStdString(entry["file"].get<std::string>()))
                                     .toStdString()),
        {}};
    run.options.proofMode = true;
    run.options.layout = entry.value("layout_used_by_stone_cli_tests", std::string());
    if (run.options.layout.empty()) {
        run.options.layout =
            name == QStringLiteral("fibonacci_program_input") ? "small" : "starknet_with_keccak";
    }
    if (entry.contains("program_input")) {
        run.options.programInput =
            readFixtureJson(kCairoFixtures + QLatin1Char('/') +
                            QString::fromStdString(entry["program_input"].get<std::string>()));
    }
    return run;
}

} // namespace proofdesk::test
