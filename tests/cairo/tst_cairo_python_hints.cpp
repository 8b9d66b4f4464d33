// Whole runs with Python hints (cairoVm=python): the shipped sample whose hint has no native
// implementation, errors as the user reads them (traceback, time limit, refused system access,
// memory conflicts), and the public fixture programs run with their hints as Python giving the
// same output and trace as the native hints (skipped without ../shared/fixtures).

#include "FixtureRuns.h"
#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "cairo/python/PythonHints.h"
#include "cairo/vm/ExactJson.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <sstream>
#include <thread>

using namespace proofdesk::cairo;
using proofdesk::test::Asm;

namespace {

const QString kFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo");

nlohmann::json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        throw std::runtime_error("cannot read " + path.toStdString());
    }
    return nlohmann::json::parse(file.readAll().toStdString());
}

Program sample(const char* name) {
    return Program::fromFile(PROOFDESK_SOURCE_DIR "/resources/samples/" + std::string(name));
}

// A program whose only hint (at pc 0) is `code`, then `[ap] = 7; ap++` and `ret`.
Program programWithHint(const std::string& code) {
    Asm a;
    a.pushImm(7).ret();
    nlohmann::json program = a.program();
    program["hints"] = {{"0",
                         {{{"code", code},
                           {"accessible_scopes", {"__main__", "__main__.main"}},
                           {"flow_tracking_data",
                            {{"ap_tracking", {{"group", 0}, {"offset", 0}}},
                             {"reference_ids", nlohmann::json::object()}}}}}}};
    return Program::fromJson(program);
}

RunOptions withHints(HintExecution execution) {
    RunOptions options;
    options.layout = "small"; // has the output builtin the sample uses
    options.hints.execution = execution;
    return options;
}

// The run's error, or "" when it finished.
std::string runError(const Program& program, RunOptions options) {
    try {
        CairoRunner runner(program, std::move(options));
        runner.run();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

std::vector<std::string> outputHex(const CairoRunner& runner) {
    std::vector<std::string> values;
    for (const Felt& value : runner.output()) {
        values.push_back(value.toHex());
    }
    return values;
}

// cairo-run's binary trace or memory file of a finished run.
std::string binary(const CairoRunner& runner, void (CairoRunner::*write)(std::ostream&) const) {
    std::ostringstream out;
    (runner.*write)(out);
    return out.str();
}

} // namespace

class CairoPythonHintsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        std::string why;
        if (!pythonHintsAvailable(&why)) {
            QFAIL(("the embedded Python does not start: " + why).c_str());
        }
    }

    void sampleNeedsPythonHints() {
        RunOptions options = withHints(HintExecution::NativeOnly);
        options.programInput = readJson(
            QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/sum_of_squares_input.json"));
        const std::string error = runError(sample("sum_of_squares.json"), options);
        QVERIFY2(error.find("no native implementation; run with cairoVm=python") !=
                     std::string::npos,
                 error.c_str());
    }

    void sampleRunsWithPythonHints_data() {
        QTest::addColumn<int>("execution");
        QTest::newRow("native then python") << int(HintExecution::NativeThenPython);
        QTest::newRow("python only") << int(HintExecution::PythonOnly);
    }

    void sampleRunsWithPythonHints() {
        QFETCH(int, execution);
        RunOptions options = withHints(static_cast<HintExecution>(execution));
        options.programInput = readJson(
            QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/sum_of_squares_input.json"));
        const Program program = sample("sum_of_squares.json");
        CairoRunner runner(program, options);
        runner.run();
        QCOMPARE(outputHex(runner), std::vector<std::string>{Felt::fromU64(169).toHex()});
    }

    void bigIntegersInTheInputStayIntegers() {
        // 2^130 does not fit 64 bits: the parsed input keeps it as a decimal string, and Python
        // hints read the input file's own text, where it is an integer.
        const std::string text = R"({"values": [1361129467683753853853498429727072845824, 1]})";
        RunOptions options = withHints(HintExecution::NativeThenPython);
        options.programInput = parseExactJson(text);
        options.hints.programInputText = text;
        const Program program = sample("sum_of_squares.json");
        CairoRunner runner(program, options);
        runner.run();
        // (2^130)^2 + 1 = 2^260 + 1, reduced mod p.
        const Felt twoTo130 = *Felt::parse("1361129467683753853853498429727072845824");
        QCOMPARE(outputHex(runner),
                 std::vector<std::string>{(twoTo130 * twoTo130 + Felt::one()).toHex()});
    }

    // The proof service runs jobs on several workers: runs with Python hints in parallel threads
    // each see their own input, scopes and memory.
    void parallelRunsKeepTheirOwnState() {
        const Program program = sample("sum_of_squares.json");
        constexpr int kThreads = 4;
        constexpr int kRunsPerThread = 25;
        std::vector<std::string> failures(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&program, &failures, t] {
                for (int run = 0; run < kRunsPerThread; ++run) {
                    RunOptions options = withHints(HintExecution::PythonOnly);
                    const int a = t + 1;
                    const int b = run;
                    options.programInput = nlohmann::json{{"values", {a, b}}};
                    try {
                        CairoRunner runner(program, options);
                        runner.run();
                        const std::string want =
                            Felt::fromU64(std::uint64_t(a * a + b * b)).toHex();
                        if (outputHex(runner) != std::vector<std::string>{want}) {
                            failures[std::size_t(t)] = "wrong output in run " + std::to_string(run);
                            return;
                        }
                    } catch (const std::exception& e) {
                        failures[std::size_t(t)] = e.what();
                        return;
                    }
                }
            });
        }
        for (std::thread& thread : threads) {
            thread.join();
        }
        for (const std::string& failure : failures) {
            QVERIFY2(failure.empty(), failure.c_str());
        }
    }

    void hintInputIsCheckedByTheHint() {
        RunOptions options = withHints(HintExecution::NativeThenPython);
        options.programInput = nlohmann::json{{"values", {3, "four"}}};
        const std::string error = runError(sample("sum_of_squares.json"), options);
        QVERIFY2(error.find("Python hint at pc 8 raised:") != std::string::npos, error.c_str());
        QVERIFY2(error.find("Traceback") != std::string::npos, error.c_str());
    }

    void exceptionsBecomeRunErrorsWithTheirTraceback() {
        const std::string error =
            runError(programWithHint("def check(x):\n    raise ValueError(f'bad value {x}')\n"
                                     "check(41 + 1)"),
                     withHints(HintExecution::NativeThenPython));
        QVERIFY2(error.find("Python hint at pc 0 raised:") != std::string::npos, error.c_str());
        QVERIFY2(error.find("ValueError: bad value 42") != std::string::npos, error.c_str());
        QVERIFY2(error.find("line 2, in check") != std::string::npos, error.c_str());
    }

    void syntaxErrorsNameTheHint() {
        const std::string error =
            runError(programWithHint("x = (1"), withHints(HintExecution::NativeThenPython));
        QVERIFY2(error.find("the hint at pc 0 is not valid Python") != std::string::npos,
                 error.c_str());
    }

    void endlessHintIsStoppedAtTheTimeLimit() {
        RunOptions options = withHints(HintExecution::NativeThenPython);
        options.hints.pythonTimeLimit = std::chrono::milliseconds(300);
        QElapsedTimer timer;
        timer.start();
        const std::string error = runError(programWithHint("while True:\n    pass"), options);
        QVERIFY2(
            error.find("was stopped: the run's Python hints passed their time limit (0.3 s)") !=
                std::string::npos,
            error.c_str());
        // Stopped near its deadline, not after the default five minutes.
        QVERIFY2(timer.elapsed() < 60'000, QByteArray::number(timer.elapsed()));
        // The interpreter is usable afterwards.
        QCOMPARE(runError(programWithHint("x = sum(range(10))"),
                          withHints(HintExecution::NativeThenPython)),
                 std::string());
    }

    void systemAccessIsRefused_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("event");
        QTest::newRow("socket") << "import socket\nsocket.socket()"
                                << "socket.__new__ is not allowed";
        QTest::newRow("connect") << "import socket\nsocket.create_connection(('127.0.0.1', 9))"
                                 << "is not allowed in Cairo hints";
        QTest::newRow("os.system") << "import os\nos.system('true')"
                                   << "os.system is not allowed";
        QTest::newRow("subprocess") << "import subprocess\nsubprocess.run(['true'])"
                                    << "is not allowed in Cairo hints";
        QTest::newRow("fork") << "import os\nos.fork()"
                              << "os.fork is not allowed";
        QTest::newRow("ctypes") << "import ctypes\nctypes.CDLL(None)"
                                << "is not allowed in Cairo hints";
    }

    void systemAccessIsRefused() {
        QFETCH(QString, code);
        QFETCH(QString, event);
        const std::string error =
            runError(programWithHint(code.toStdString()), withHints(HintExecution::PythonOnly));
        QVERIFY2(error.find("PermissionError") != std::string::npos, error.c_str());
        QVERIFY2(error.find(event.toStdString()) != std::string::npos, error.c_str());
    }

    void conflictingMemoryWriteFailsTheRun() {
        // The hint writes [ap] = 5; the instruction after it asserts [ap] = 7.
        const std::string error =
            runError(programWithHint("memory[ap] = 5"), withHints(HintExecution::NativeThenPython));
        QVERIFY2(error.find("an ASSERT_EQ instruction failed at pc 0:0: 0x5 != 0x7") !=
                     std::string::npos,
                 error.c_str());
        // Two writes in the hint itself: the second raises inside the hint.
        const std::string inHint = runError(programWithHint("memory[ap] = 7\nmemory[ap] = 8"),
                                            withHints(HintExecution::NativeThenPython));
        QVERIFY2(inHint.find("Python hint at pc 0 raised:") != std::string::npos, inHint.c_str());
        QVERIFY2(inHint.find("inconsistent memory") != std::string::npos, inHint.c_str());
    }

    void hintScopesDoNotLeakBetweenRuns() {
        QCOMPARE(runError(programWithHint("leaked_value = 1"),
                          withHints(HintExecution::NativeThenPython)),
                 std::string());
        const std::string error = runError(programWithHint("assert leaked_value == 1"),
                                           withHints(HintExecution::NativeThenPython));
        QVERIFY2(error.find("NameError") != std::string::npos, error.c_str());
    }

    void fixturePrograms_data() {
        if (!QDir(kFixtures).exists()) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("execution");
        const nlohmann::json expected = readJson(kFixtures + QStringLiteral("/EXPECTED.json"));
        for (const auto& item : expected["programs"].items()) {
            QTest::newRow((item.key() + " native then python").c_str())
                << QString::fromStdString(item.key()) << int(HintExecution::NativeThenPython);
            QTest::newRow((item.key() + " python only").c_str())
                << QString::fromStdString(item.key()) << int(HintExecution::PythonOnly);
        }
    }

    // The fixture programs' hints all have native implementations; run as Python (cairo-lang's
    // own hint text through our helper modules) they give the same output and the same trace.
    void fixturePrograms() {
        QFETCH(QString, name);
        QFETCH(int, execution);
        const nlohmann::json expected = readJson(kFixtures + QStringLiteral("/EXPECTED.json"));
        const nlohmann::json& entry = expected["programs"][name.toStdString()];
        auto [program, options] = proofdesk::test::fixtureRun(name, entry);
        CairoRunner native(program, options);
        native.run();
        options.hints.execution = static_cast<HintExecution>(execution);
        CairoRunner python(program, options);
        python.run();
        QCOMPARE(outputHex(python), outputHex(native));
        QCOMPARE(python.vm().steps(), native.vm().steps());
        QCOMPARE(python.executionResources().toJson().dump(),
                 native.executionResources().toJson().dump());
        QVERIFY(binary(python, &CairoRunner::writeTrace) ==
                binary(native, &CairoRunner::writeTrace));
        QVERIFY(binary(python, &CairoRunner::writeMemory) ==
                binary(native, &CairoRunner::writeMemory));
    }
};

QTEST_GUILESS_MAIN(CairoPythonHintsTest)
#include "tst_cairo_python_hints.moc"
