// Every hint text cairo-lang's standard library emits (its v0.14.0.1 hint whitelists, in
// ../shared/reference) has a native implementation, so cairoVm=rust runs any standard-library
// Cairo 0 program. The StarkNet syscall hints are out of scope: they belong to contracts.

#include "cairo/hints/HintProcessor.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

using namespace proofdesk::cairo;

namespace {

// Each whitelist's hint texts, as a compiled program carries them (lines joined by '\n').
std::set<std::string> standardLibraryHints(const QString& dir) {
    std::set<std::string> hints;
    const QStringList files =
        QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        QFile file(dir + QLatin1Char('/') + name);
        if (!file.open(QIODevice::ReadOnly)) {
            qFatal("cannot read %s", qPrintable(file.fileName()));
        }
        const auto json = nlohmann::json::parse(file.readAll().toStdString());
        for (const auto& entry : json.at("allowed_reference_expressions_for_hint")) {
            std::string code;
            for (const auto& line : entry.at("hint_lines")) {
                if (!code.empty()) {
                    code.push_back('\n');
                }
                code.append(line.get<std::string>());
            }
            if (code.find("syscall_handler") == std::string::npos) {
                hints.insert(code);
            }
        }
    }
    return hints;
}

} // namespace

class CairoHintCoverageTest : public QObject {
    Q_OBJECT

private slots:
    void everyStandardLibraryHintIsNative() {
        const QString dir = QStringLiteral(PROOFDESK_SHARED_DIR "/reference/cairo-hint-whitelists");
        if (!QDir(dir).exists()) {
            QSKIP("../shared/reference is not here");
        }
        const std::set<std::string> hints = standardLibraryHints(dir);
        QVERIFY2(hints.size() > 150, "the whitelists hold fewer hints than cairo-lang v0.14 emits");
        std::size_t missing = 0;
        for (const std::string& code : hints) {
            if (!HintProcessor::hasNativeImplementation(code)) {
                ++missing;
                qInfo("no native implementation:\n%s\n", code.c_str());
            }
        }
        qInfo("standard-library hint texts: %zu, native: %zu, missing: %zu; native hint texts "
              "registered in all: %zu",
              hints.size(), hints.size() - missing, missing,
              HintRegistry::instance().codes().size());
        QCOMPARE(missing, std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(CairoHintCoverageTest)
#include "tst_cairo_hint_coverage.moc"
