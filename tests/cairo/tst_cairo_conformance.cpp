// Conformance with cairo-lang over ../shared/fixtures/cairo (skipped when it is absent): every
// program runs in proof mode on its layout with the recorded program hash and output, and every
// reference run is reproduced exactly (trace byte for byte, memory as an address -> value map,
// AIR public and private input field by field), the bootloader's run included.

#include "FixtureRuns.h"

#include "cairo/Runner.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/vm/ExactJson.h"
#include "cairo/vm/ProgramHash.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <map>
#include <sstream>

using namespace proofdesk::cairo;

namespace {

const QString kFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo");

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

nlohmann::json readJson(const QString& path) {
    return parseExactJson(readAll(path).toStdString());
}

std::map<std::uint64_t, std::string> memoryMap(const std::string& bytes) {
    std::map<std::uint64_t, std::string> out;
    for (std::size_t i = 0; i + 40 <= bytes.size(); i += 40) {
        std::uint64_t address = 0;
        for (int b = 0; b < 8; ++b) {
            address |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i + b]))
                       << (8 * b);
        }
        out[address] = bytes.substr(i + 8, 32);
    }
    return out;
}

// Public memory as a set of (address, value, page), since its order is not significant.
std::map<std::uint64_t, std::pair<std::string, int>> publicMemory(const nlohmann::json& input) {
    std::map<std::uint64_t, std::pair<std::string, int>> out;
    for (const auto& entry : input["public_memory"]) {
        out[entry["address"].get<std::uint64_t>()] = {
            Felt::parse(entry["value"].get<std::string>())->toHex(), entry["page"].get<int>()};
    }
    return out;
}

// The bootloader's program_input for one RunProgramTask (the fixtures do not include the one the
// reference run used; this is what its output, [0, pedersen(0, 0), 1, 2, program hash], says it
// was: simple bootloader hash 0, no supported verifiers, one plain packed output).
nlohmann::json bootloaderInputFor(const nlohmann::json& taskProgram) {
    return {{"tasks", nlohmann::json::array({{{"type", "RunProgramTask"},
                                              {"program", taskProgram},
                                              {"program_input", nlohmann::json::object()}}})},
            {"fact_topologies_path", nullptr},
            {"single_page", true},
            {"bootloader_config",
             {{"simple_bootloader_program_hash", 0},
              {"supported_cairo_verifier_program_hashes", nlohmann::json::array()}}},
            {"packed_outputs", nlohmann::json::array({{{"type", "PlainPackedOutput"}}})}};
}

} // namespace

class CairoConformanceTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QDir(kFixtures).exists()) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
    }

    void programs_data() {
        QTest::addColumn<QString>("name");
        const nlohmann::json expected = readJson(kFixtures + QStringLiteral("/EXPECTED.json"));
        for (const auto& [name, entry] : expected["programs"].items()) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        }
    }

    void programs() {
        QFETCH(QString, name);
        const nlohmann::json expected = readJson(kFixtures + QStringLiteral("/EXPECTED.json"));
        const nlohmann::json& entry = expected["programs"][name.toStdString()];
        auto [program, options] = proofdesk::test::fixtureRun(name, entry);
        QCOMPARE(programHash(program).toHex(), entry["program_hash"].get<std::string>());
        CairoRunner runner(program, options);
        runner.run();
        if (entry.contains("expected_output")) {
            std::vector<std::string> output;
            for (const Felt& value : runner.output()) {
                output.push_back(value.toHex());
            }
            std::vector<std::string> want;
            for (const auto& value : entry["expected_output"]) {
                want.push_back(value.is_string() ? Felt::parse(value.get<std::string>())->toHex()
                                                 : Felt::parse(value.dump())->toHex());
            }
            QCOMPARE(output, want);
        }
        // Proof mode pads to a power of two.
        const std::uint64_t steps = runner.vm().steps();
        QVERIFY(steps != 0 && (steps & (steps - 1)) == 0);
    }

    void airPrivateInputListsBuiltinInputs() {
        // pedersen_test hashes (0, 0) once: one pedersen entry, and a key per layout builtin.
        const Program program = Program::fromFile(
            QString(kFixtures + QStringLiteral("/programs/proof_mode/pedersen_test.json"))
                .toStdString());
        RunOptions options;
        options.proofMode = true;
        options.layout = "recursive";
        CairoRunner runner(program, options);
        runner.run();
        const nlohmann::json input =
            nlohmann::json::parse(runner.airPrivateInput("/t", "/m").dump());
        QCOMPARE(input["trace_path"].get<std::string>(), std::string("/t"));
        QCOMPARE(input["pedersen"].size(), std::size_t(1));
        QCOMPARE(input["pedersen"][0]["index"].get<int>(), 0);
        QCOMPARE(input["pedersen"][0]["x"].get<std::string>(), std::string("0x0"));
        QCOMPARE(input["pedersen"][0]["y"].get<std::string>(), std::string("0x0"));
        QVERIFY(input.contains("range_check") && input.contains("bitwise"));
        QVERIFY(!input.contains("output"));
    }

    void pies_data() {
        QTest::addColumn<QString>("name");
        const nlohmann::json expected = readJson(kFixtures + QStringLiteral("/EXPECTED.json"));
        for (const auto& [name, entry] : expected["pies"].items()) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        }
    }

    void pies() {
        QFETCH(QString, name);
        const nlohmann::json expected = readJson(kFixtures + QStringLiteral("/EXPECTED.json"));
        const nlohmann::json& entry = expected["pies"][name.toStdString()];
        const CairoPie pie =
            CairoPie::fromFile(QString(kFixtures + QLatin1Char('/') +
                                       QString::fromStdString(entry["file"].get<std::string>()))
                                   .toStdString());
        QCOMPARE(pie.programHash().toHex(), entry["program_hash"].get<std::string>());
        std::vector<std::string> output;
        for (const Felt& value : pie.output()) {
            output.push_back(value.toHex());
        }
        QCOMPARE(output, entry["output"].get<std::vector<std::string>>());
        QCOMPARE(pie.resources.nSteps,
                 entry["execution_resources"]["n_steps"].get<std::uint64_t>());
        QCOMPARE(pie.resources.nMemoryHoles,
                 entry["execution_resources"]["n_memory_holes"].get<std::uint64_t>());
        for (const auto& item : entry["execution_resources"]["builtin_instance_counter"].items()) {
            const std::string builtin = item.key();
            const auto found = std::find_if(pie.resources.builtinInstanceCounter.begin(),
                                            pie.resources.builtinInstanceCounter.end(),
                                            [&](const auto& c) { return c.first == builtin; });
            QVERIFY(found != pie.resources.builtinInstanceCounter.end());
            QCOMPARE(found->second, item.value().get<std::uint64_t>());
        }
        if (entry.contains("sharp_fact")) {
            QCOMPARE(sharpFactHash(pie.programHash(), pie.output()),
                     entry["sharp_fact"].get<std::string>());
        }
    }

    void stoneCpuAirTestRun() {
        // StarkWare's CPU-AIR test input comes without a program file: its program is the public
        // memory before the execution segment (which starts two cells before the first ap), and
        // it ran the public input's n_steps in proof mode.
        const QString base = kFixtures + QStringLiteral("/runs/stone_cpu_air_test_instructions/");
        const nlohmann::json pub = readJson(base + QStringLiteral("public_input.json"));
        const auto& segments = pub["memory_segments"];
        const std::uint64_t begin = segments["program"]["begin_addr"];
        const std::uint64_t size =
            segments["execution"]["begin_addr"].get<std::uint64_t>() - 2 - begin;
        std::map<std::uint64_t, std::string> publicValues;
        for (const auto& entry : pub["public_memory"]) {
            publicValues[entry["address"]] = entry["value"];
        }
        nlohmann::json data = nlohmann::json::array();
        for (std::uint64_t i = 0; i < size; ++i) {
            data.push_back(publicValues.at(begin + i));
        }
        const std::uint64_t end = segments["program"]["stop_ptr"].get<std::uint64_t>() - begin;
        const Program program = Program::fromJson(
            {{"prime", "0x800000000000011000000000000000000000000000000000000000000000001"},
             {"data", data},
             {"builtins", nlohmann::json::array()},
             {"hints", nlohmann::json::object()},
             {"identifiers",
              {{"__main__.main", {{"type", "function"}, {"pc", 0}}},
               {"__main__.__start__", {{"type", "label"}, {"pc", 0}}},
               {"__main__.__end__", {{"type", "label"}, {"pc", end}}}}},
             {"reference_manager", {{"references", nlohmann::json::array()}}},
             {"main_scope", "__main__"}});
        RunOptions options;
        options.layout = pub["layout"];
        options.proofMode = true;
        options.steps = pub["n_steps"].get<std::uint64_t>();
        CairoRunner runner(program, options);
        runner.run();
        std::ostringstream trace;
        runner.writeTrace(trace);
        QVERIFY(trace.str() == readAll(base + QStringLiteral("trace.bin")).toStdString());
        std::ostringstream memory;
        runner.writeMemory(memory);
        QVERIFY(memoryMap(memory.str()) ==
                memoryMap(readAll(base + QStringLiteral("memory.bin")).toStdString()));
        QVERIFY(nlohmann::json::parse(runner.airPublicInput().dump()) == pub);
    }

    void referenceRuns_data() {
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<bool>("proof");
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("memory");
        QTest::addColumn<QString>("publicInput");
        QTest::addColumn<QString>("privateInput");
        QTest::addColumn<QString>("bootloaderTask"); // the run is the bootloader's, on this task
        QTest::newRow("lambdaworks_fibonacci_10") << "lambdaworks_fibonacci_10_nonproof"
                                                  << "fibonacci_10.json"
                                                  << "plain" << false << "fibonacci_10.trace"
                                                  << "fibonacci_10.memory"
                                                  << ""
                                                  << ""
                                                  << "";
        QTest::newRow("lambdaworks_call_func") << "lambdaworks_call_func_nonproof"
                                               << "call_func.json"
                                               << "plain" << false << "call_func.trace"
                                               << "call_func.memory"
                                               << ""
                                               << ""
                                               << "";
        QTest::newRow("lambdaclass_struct_legacy") << "lambdaclass_struct_nonproof_legacy"
                                                   << "struct.json"
                                                   << "plain" << false << "struct.trace"
                                                   << "struct.memory"
                                                   << ""
                                                   << ""
                                                   << "";
        QTest::newRow("moonsong_fibonacci") << "moonsong_fibonacci_starknet_with_keccak"
                                            << "fibonacci.json"
                                            << "starknet_with_keccak" << true << "trace.bin"
                                            << "memory.bin"
                                            << "air_public_input.json"
                                            << "air_private_input.json"
                                            << "";
        QTest::newRow("sandstorm_array_sum") << "sandstorm_array_sum_recursive"
                                             << "array-sum.json"
                                             << "recursive" << true << "trace.bin"
                                             << "memory.bin"
                                             << "air-public-input.json"
                                             << "air-private-input.json"
                                             << "";
        QTest::newRow("moonsong_bootloader_fibonacci")
            << "moonsong_bootloader_fibonacci_starknet_with_keccak"
            << "bootloader-v0.13.0.json"
            << "starknet_with_keccak" << true << "trace.bin"
            << "memory.bin"
            << "air_public_input.json"
            << "air_private_input.json"
            << "task_fibonacci_program.json";
    }

    void referenceRuns() {
        QFETCH(QString, dir);
        QFETCH(QString, program);
        QFETCH(QString, layout);
        QFETCH(bool, proof);
        QFETCH(QString, trace);
        QFETCH(QString, memory);
        QFETCH(QString, publicInput);
        QFETCH(QString, privateInput);
        QFETCH(QString, bootloaderTask);
        const QString base = kFixtures + QStringLiteral("/runs/") + dir + QLatin1Char('/');
        const Program compiled = Program::fromFile(QString(base + program).toStdString());
        RunOptions options;
        options.layout = layout.toStdString();
        options.proofMode = proof;
        if (!bootloaderTask.isEmpty()) {
            options.programInput = bootloaderInputFor(readJson(base + bootloaderTask));
        }
        CairoRunner runner(compiled, options);
        runner.run();

        std::ostringstream ourTrace;
        runner.writeTrace(ourTrace);
        QVERIFY(ourTrace.str() == readAll(base + trace).toStdString());
        std::ostringstream ourMemory;
        runner.writeMemory(ourMemory);
        QVERIFY(memoryMap(ourMemory.str()) == memoryMap(readAll(base + memory).toStdString()));
        if (!publicInput.isEmpty()) {
            const nlohmann::json want = readJson(base + publicInput);
            const nlohmann::json ours = nlohmann::json::parse(runner.airPublicInput().dump());
            for (const char* field : {"layout", "rc_min", "rc_max", "n_steps", "memory_segments"}) {
                QVERIFY2(ours[field] == want[field], field);
            }
            QVERIFY(publicMemory(ours) == publicMemory(want));
        }
        if (!privateInput.isEmpty()) {
            const nlohmann::json want = readJson(base + privateInput);
            const nlohmann::json ours =
                nlohmann::json::parse(runner.airPrivateInput("t", "m").dump());
            for (const auto& [field, value] : want.items()) {
                if (field != "trace_path" && field != "memory_path") {
                    QVERIFY2(ours[field] == value, field.c_str());
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(CairoConformanceTest)
#include "tst_cairo_conformance.moc"
