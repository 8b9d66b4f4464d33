// Cairo 1 programs (issue #46): Scarb executables of ../shared/fixtures/cairo1 run with their
// arguments, outputs and panics; the fixtures' Cairo 1 PIEs replayed step by step; the executable
// format, arguments and run parameters checked. Each hint kind and the Blake opcode:
// tst_cairo1_hints.

#include "Cairo1Runs.h"

#include "cairo/ProgramFiles.h"
#include "cairo/Runner.h"
#include "cairo/cairo1/Executable.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/vm/ExactJson.h"
#include "cairo/vm/ProgramHash.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace proofdesk;
using namespace proofdesk::cairo;
using proofdesk::test::Cairo1Body;
using proofdesk::test::Cairo1Run;
using proofdesk::test::cellOf;
using proofdesk::test::felt;
using proofdesk::test::runExecutable;

namespace {

const QString kFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo1");

nlohmann::json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return nullptr;
    }
    return parseExactJson(file.readAll().toStdString());
}

std::vector<Felt> felts(const nlohmann::json& list) {
    std::vector<Felt> out;
    for (const auto& item : list) {
        out.push_back(felt(item.get<std::string>()));
    }
    return out;
}

// The output segment of a finished run: the output builtin's cells up to its stop pointer.
std::vector<Felt> outputOf(const CairoRunner& runner) {
    return runner.output();
}

std::string failureOf(const nlohmann::json& json, std::vector<Felt> arguments) {
    try {
        runExecutable(json, std::move(arguments), false);
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

bool hasFixtures() {
    return QDir(kFixtures).exists();
}

} // namespace

class Cairo1Test : public QObject {
    Q_OBJECT
private slots:
    // --- the fixtures' executables -----------------------------------------------------------

    void fixtureExecutablesRunWithTheirArguments_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("return42") << "exe_return42_stwo_cairo/test.executable.json";
        QTest::newRow("add") << "exe_add_felt252_webdemo/main.executable.json";
        QTest::newRow("blake2s chain") << "exe_blake2s_chain_cairo_prove_example/"
                                          "example.executable.json";
    }
    void fixtureExecutablesRunWithTheirArguments() {
        if (!hasFixtures()) {
            QSKIP("../shared/fixtures/cairo1 is not here");
        }
        QFETCH(QString, file);
        const nlohmann::json executable = readJson(kFixtures + QStringLiteral("/") + file);
        const nlohmann::json expected =
            readJson(kFixtures + QStringLiteral("/") + file.section(QLatin1Char('/'), 0, 0) +
                     QStringLiteral("/derived_expected.json"));
        const std::vector<Felt> arguments = felts(expected["arguments"]);
        const std::vector<Felt> output = felts(expected["output"]);
        // The Bootloader entry (what a PIE records) and the Standalone one in proof mode.
        const Cairo1Run plain = runExecutable(executable, arguments, false);
        QVERIFY(outputOf(*plain.runner) == output);
        const Cairo1Run proof = runExecutable(executable, arguments, true);
        QVERIFY(outputOf(*proof.runner) == output);
        // Proof mode ends on the prologue's `jmp rel 0` at pc 4, padded to a power of two.
        QCOMPARE(proof.runner->vm().pc, (Relocatable{0, 4}));
        const std::uint64_t steps = proof.runner->vm().steps();
        QVERIFY(steps > 0 && (steps & (steps - 1)) == 0);
        // Both runs see the same program: its hash is the Bootloader entry's.
        const Program viaFiles = programFromJson(executable);
        QVERIFY(viaFiles.cairo1);
        QCOMPARE(viaFiles.main, std::uint64_t(6));
        QVERIFY(programHash(viaFiles) == programHash(plain.program));
        // A PIE of the run carries that hash and the output.
        const CairoPie pie = CairoPie::fromZip(plain.runner->pie().toZip());
        QVERIFY(pie.programHash() == programHash(plain.program));
        QVERIFY(pie.output() == output);
        QVERIFY(isCairo1ExecutableProgram(pie.programData, pie.main));
    }

    // The console's Cairo 1 sample (resources/samples, assembled by hand): fib(n) with n its
    // argument, in both entries.
    void theSampleExecutableRuns() {
        const nlohmann::json sample =
            readJson(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/"
                                                         "fibonacci.executable.json"));
        QVERIFY(sample.is_object());
        QVERIFY(outputOf(*runExecutable(sample, {Felt::fromU64(10)}, false).runner) ==
                std::vector<Felt>{Felt::fromU64(55)});
        QVERIFY(outputOf(*runExecutable(sample, {Felt::fromU64(90)}, true, "small").runner) ==
                std::vector<Felt>{Felt::fromU64(2880067194370816120ULL)});
        QVERIFY(outputOf(*runExecutable(sample, {Felt::zero()}, false).runner) ==
                std::vector<Felt>{Felt::zero()});
    }

    void panicsReadAsTheirMessages() {
        if (!hasFixtures()) {
            QSKIP("../shared/fixtures/cairo1 is not here");
        }
        const nlohmann::json add =
            readJson(kFixtures + QStringLiteral("/exe_add_felt252_webdemo/main.executable.json"));
        QCOMPARE(failureOf(add, {felt("2"), felt("3"), felt("4")}),
                 std::string("Panicked with 0x496e70757420746f6f206c6f6e6720666f7220706172616d"
                             "732e ('Input too long for params.')."));
        QCOMPARE(failureOf(add, {felt("2")}),
                 std::string("Panicked with 0x4661696c656420746f20646573657269616c697a65207061"
                             "72616d202331 ('Failed to deserialize param #1')."));
        QCOMPARE(failureOf(add, {felt("2"), felt("3")}), std::string());
    }

    void panicDataDecodes() {
        // A ByteArray: magic, one full word ("0123456789012345678901234567890", 31 bytes), then
        // the pending word "ab" of length 2.
        const Felt magic =
            felt("0x46a6158a16a947e5916b2a2ca68501a45e93d7110e81aa2d6438b1c57c879a3");
        const Felt full = Felt::fromBytesBE(
            reinterpret_cast<const std::uint8_t*>("0123456789012345678901234567890"), 31);
        const Felt pending = Felt::fromBytesBE(reinterpret_cast<const std::uint8_t*>("ab"), 2);
        QCOMPARE(cairo1::panicMessage({magic, Felt::one(), full, pending, Felt::fromU64(2)}),
                 std::string("Panicked with \"0123456789012345678901234567890ab\"."));
        QCOMPARE(cairo1::panicMessage({Felt::fromU64(0x6f6f7073), Felt::fromU64(7)}),
                 std::string("Panicked with (0x6f6f7073 ('oops'), 0x7)."));
    }

    void fixturePiesReplayStepByStep_data() {
        QTest::addColumn<QString>("folder");
        for (const char* folder :
             {"pie_noop_mkus", "pie_bitwise_mkus", "pie_fibonacci_cairo1_okm165",
              "pie_example_ecop_cairo1run_mkus", "pie_fibonacci_cairo1run_mkus"}) {
            QTest::newRow(folder) << folder;
        }
    }
    // Every step of the recorded run checked against the PIE's memory: the VM's own writes and
    // deductions must agree with what the run wrote, and it must end where the run ended.
    void fixturePiesReplayStepByStep() {
        if (!hasFixtures()) {
            QSKIP("../shared/fixtures/cairo1 is not here");
        }
        QFETCH(QString, folder);
        const CairoPie pie = CairoPie::fromFile(
            QString(kFixtures + QStringLiteral("/") + folder + QStringLiteral("/cairo_pie.zip"))
                .toStdString());
        Memory memory;
        std::int64_t segments = std::max(pie.retPcSegment.index, pie.retFpSegment.index) + 1;
        for (const auto& segment : pie.extraSegments) {
            segments = std::max(segments, segment.index + 1);
        }
        for (const auto& [name, segment] : pie.builtinSegments) {
            segments = std::max(segments, segment.index + 1);
        }
        for (std::int64_t i = 0; i < segments; ++i) {
            memory.addSegment();
        }
        for (const auto& [address, value] : pie.memory) {
            memory.set(address, value);
        }
        Vm vm(memory, pie.programData.size());
        const auto n = static_cast<std::uint64_t>(pie.builtins.size());
        vm.pc = {0, pie.main};
        vm.ap = vm.fp = {1, n + 2};
        const Relocatable end{pie.retPcSegment.index, 0};
        const std::size_t cellsBefore = memory.cellCount();
        while (!(vm.pc == end) && vm.steps() <= pie.resources.nSteps) {
            vm.step();
        }
        QCOMPARE(vm.pc, end);
        QCOMPARE(vm.steps(), pie.resources.nSteps);
        QCOMPARE(memory.cellCount(), cellsBefore); // nothing the run did not write
        const nlohmann::json expected =
            readJson(kFixtures + QStringLiteral("/") + folder + QStringLiteral("/expected.json"));
        if (expected.contains("output")) {
            QVERIFY(pie.output() == felts(expected["output"]));
        }
        // The Bootloader-entry PIEs are a Scarb executable's run; cairo1-run's are not marked.
        QCOMPARE(isCairo1ExecutableProgram(pie.programData, pie.main), pie.main == 6);
    }

    // --- the format ---------------------------------------------------------------------------

    void executableFormatIsChecked() {
        Cairo1Body body;
        body.returnBuiltins(1);
        nlohmann::json good = body.executable({"output"});
        QVERIFY(Executable::fromJson(good).program().cairo1);
        QCOMPARE(programFormatOf(good), ProgramFormat::Cairo1Executable);

        const auto refusal = [](const nlohmann::json& json) -> std::string {
            try {
                programFromJson(json);
            } catch (const ProgramError& error) {
                return error.what();
            }
            return {};
        };
        nlohmann::json noEntry = good;
        noEntry["entrypoints"] = nlohmann::json::array({good["entrypoints"][0]});
        QVERIFY(refusal(noEntry).find("no Bootloader entry point") != std::string::npos);
        nlohmann::json badWord = good;
        badWord["program"]["bytecode"][3] = "seven";
        QCOMPARE(refusal(badWord), std::string("program.bytecode[3] is not a field element"));
        nlohmann::json outside = good;
        outside["program"]["hints"] = {{999, {{{"AllocSegment", {{"dst", Cairo1Body::ap(0)}}}}}}};
        QVERIFY(refusal(outside).find("within the bytecode") != std::string::npos);
        // Sierra, as JSON or as text, says what to build instead.
        const nlohmann::json sierra = {{"sierra_program", nlohmann::json::array()},
                                       {"entry_points_by_type", nlohmann::json::object()}};
        QVERIFY(refusal(sierra).find("build the executable target with Scarb") !=
                std::string::npos);
        try {
            programFromText("type felt252 = felt252 [storable: true];\nlibfunc felt252_add = "
                            "felt252_add;\n");
            QFAIL("Sierra text ran");
        } catch (const ProgramError& error) {
            QVERIFY(std::string(error.what()).find("Scarb") != std::string::npos);
        }
        // A Cairo 0 program is told apart by its shape.
        const nlohmann::json cairo0 = {
            {"prime", "0x800000000000011000000000000000000000000000000000000000000000001"},
            {"data", {"0x208b7fff7fff7ffe"}},
            {"builtins", nlohmann::json::array()},
            {"hints", nlohmann::json::object()},
            {"identifiers", {{"__main__.main", {{"type", "function"}, {"pc", 0}}}}},
            {"main_scope", "__main__"},
            {"reference_manager", {{"references", nlohmann::json::array()}}},
            {"attributes", nlohmann::json::array()},
            {"debug_info", nullptr},
            {"compiler_version", "0.13.1"}};
        QCOMPARE(programFormatOf(cairo0), ProgramFormat::Cairo0);
    }

    void argumentsAreReadAsScarbTakesThem() {
        QVERIFY(argumentsFromList("1, 0x2,-1") ==
                (std::vector<Felt>{Felt::one(), Felt::fromU64(2), -Felt::one()}));
        QVERIFY(argumentsFromList("").empty());
        QVERIFY(
            argumentsFromJsonText(R"([3, "0x10", "340282366920938463463374607431768211456"])") ==
            (std::vector<Felt>{Felt::fromU64(3), Felt::fromU64(16), Felt::powerOfTwo(128)}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, argumentsFromList("1,,2"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, argumentsFromList("0xZZ"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, argumentsFromJsonText(R"({"a": 1})"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, argumentsFromJsonText(R"([1.5])"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, argumentsFromJsonText("[1,"));
    }

    // WriteRunParam lays the arguments in a segment of their own and writes the span; AddMarker
    // records it.
    void runParamsAndMarkers() {
        Cairo1Body body;
        body.hint("WriteRunParam", {{"index", Cairo1Body::imm("0x0")}, {"dst", Cairo1Body::ap(0)}})
            .reserve(2)
            .hint("AddMarker", {{"start", Cairo1Body::deref(Cairo1Body::fp(0))},
                                {"end", Cairo1Body::deref(Cairo1Body::fp(1))}})
            .returnBuiltins(1);
        const Cairo1Run run =
            runExecutable(body.executable({"output"}), {Felt::fromU64(7), Felt::fromU64(9)}, false);
        const Value start = cellOf(run, 1, 0);
        const Value end = cellOf(run, 1, 1);
        QVERIFY(start.isAddress() && end.isAddress());
        QCOMPARE(end.address(), start.address() + 2);
        QVERIFY(run.runner->memory().get(start.address()) == Value(Felt::fromU64(7)));
        QCOMPARE(run.runner->cairo1Io().markers.size(), std::size_t(1));
        QVERIFY(run.runner->cairo1Io().markers[0] ==
                (std::vector<Felt>{Felt::fromU64(7), Felt::fromU64(9)}));
    }
};

QTEST_GUILESS_MAIN(Cairo1Test)
#include "tst_cairo1.moc"
