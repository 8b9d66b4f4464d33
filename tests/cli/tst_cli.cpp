#include "Cairo1Programs.h"
#include "DevChain.h"
#include "ProofTestData.h"
#include "RpcProxy.h"
#include "TestHttp.h"
#include "TestPrograms.h"

#include "auth/ApiKeyRegistry.h"
#include "core/Clock.h"
#include "core/DataDir.h"
#include "core/Store.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <csignal>

using namespace proofdesk;

namespace {

const QString kBinary = QStringLiteral(PROOFDESK_BINARY);

// Starts `proofdesk serve` and waits (bounded) for its URL line; returns the sign-in URL.
QString startServe(QProcess& process, const QStringList& extraArgs) {
    process.start(kBinary, QStringList{QStringLiteral("serve")} + extraArgs);
    if (!process.waitForStarted(10000)) {
        return {};
    }
    QString printed;
    const QRegularExpression urlLine(QStringLiteral("sign-in service: (http://\\S+)"));
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        if (!process.waitForReadyRead(static_cast<int>(deadline.remainingTime()))) {
            break;
        }
        printed += QString::fromUtf8(process.readAllStandardOutput());
        const auto match = urlLine.match(printed);
        if (match.hasMatch()) {
            return match.captured(1);
        }
    }
    return {};
}

// `proofdesk keys create` for project "ci" in `dataDir`; the key, or empty on failure.
std::string mintKey(const QString& dataDir) {
    QProcess process;
    process.start(kBinary,
                  {QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--data-dir"),
                   dataDir, QStringLiteral("--project"), QStringLiteral("ci")});
    if (!process.waitForFinished(20000) || process.exitCode() != 0) {
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed().toStdString();
}

} // namespace

class CliTest : public QObject {
    Q_OBJECT
private slots:
    void serveAnswersAndStopsCleanlyOnSigterm() {
        QTemporaryDir dir;
        QProcess process;
        const QString url =
            startServe(process, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                 QStringLiteral("--data-dir"), dir.path()});
        QVERIFY2(!url.isEmpty(), process.readAllStandardError().constData());
        test::TestHttp http(url);
        QCOMPARE(http.get("/is-alive").status, 200);
        ::kill(static_cast<pid_t>(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(process.readAllStandardOutput().contains("Stopped."));
        // The request log went to stderr.
        QVERIFY(process.readAllStandardError().contains("GET /is-alive 200"));
    }

    void serveStopsOnSigtermWhileAHintIsBlockedInC() {
        // Issue #18: a hint sleeping inside C used to pin a worker so that SIGTERM never
        // completed. It sleeps in a sandboxed child now, which the stop kills.
        QTemporaryDir dir;
        const std::string key = mintKey(dir.path());
        QProcess serve;
        const QString url =
            startServe(serve, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                               QStringLiteral("--data-dir"), dir.path()});
        QVERIFY2(!url.isEmpty(), serve.readAllStandardError().constData());
        QFile sample(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/sum_of_squares.json"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        nlohmann::json program = nlohmann::json::parse(sample.readAll().toStdString());
        program["hints"]["8"][0]["code"] = "import time\ntime.sleep(10**6)\nids.n = 1";
        test::TestHttp http(url);
        const test::Reply reply = http.postMultipart("/core-query",
                                                     {{"programFile", program.dump(), "sleep.json"},
                                                      {"cairoVm", "python"},
                                                      {"result", "TRACE_GENERATION"}},
                                                     {{"api-key", key}});
        QCOMPARE(reply.status, 201);
        const std::string id = reply.json()["coreQueryId"];
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get("/core-query/" + id).json()["coreQuery"].value("status", "") == "IN_PROGRESS",
            10000);
        QElapsedTimer timer;
        timer.start();
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(10000));
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void teamStoreCommandsRefuseBadArguments() {
        // Issue #45: each says what it needs, with exit code 2 for usage and 1 for a bad store.
        QTemporaryDir dir;
        const auto run = [&](const QStringList& arguments, int code, const QByteArray& says) {
            QProcess process;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.remove(QStringLiteral("PROOFDESK_STORE"));
            process.setProcessEnvironment(environment);
            process.start(kBinary, arguments);
            if (!process.waitForFinished(20000)) {
                return false;
            }
            const QByteArray printed = process.readAllStandardError();
            if (process.exitCode() != code || !printed.contains(says)) {
                qWarning() << arguments << process.exitCode() << printed;
                return false;
            }
            return true;
        };
        QVERIFY(run({QStringLiteral("worker"), QStringLiteral("--data-dir"), dir.path()}, 2,
                    "needs --store postgresql://"));
        QVERIFY(run({QStringLiteral("serve"), QStringLiteral("--no-local-workers"),
                     QStringLiteral("--data-dir"), dir.path()},
                    2, "--no-local-workers needs --store"));
        QVERIFY(run({QStringLiteral("worker"), QStringLiteral("--store"),
                     QStringLiteral("postgresql://u@localhost/db"),
                     QStringLiteral("--lease-seconds"), QStringLiteral("1")},
                    2, "--lease-seconds expects"));
        QVERIFY(run({QStringLiteral("worker"), QStringLiteral("--store"),
                     QStringLiteral("postgresql://u@localhost/db"), QStringLiteral("--kinds"),
                     QStringLiteral("prove,mine")},
                    2, "\"mine\" is not a kind of work; the kinds are trace, prove, verify"));
        QVERIFY(run({QStringLiteral("store"), QStringLiteral("status"), QStringLiteral("--store"),
                     QStringLiteral("postgresql://u@localhost/")},
                    1, "postgresql://USER@HOST:PORT/DATABASE"));
        QVERIFY(run(
            {QStringLiteral("store"), QStringLiteral("copy"), QStringLiteral("--from"), dir.path()},
            2, "usage: proofdesk store copy"));
        QVERIFY(run({QStringLiteral("store"), QStringLiteral("copy"), QStringLiteral("--from"),
                     dir.path(), QStringLiteral("--to"), QStringLiteral("postgresql://u@h/db")},
                    1, "holds no Proofdesk store"));
    }

    void serveRefusesBadArguments() {
        QTemporaryDir dir;
        QProcess badListen;
        badListen.start(kBinary,
                        {QStringLiteral("serve"), QStringLiteral("--listen"),
                         QStringLiteral("nonsense"), QStringLiteral("--data-dir"), dir.path()});
        QVERIFY(badListen.waitForFinished(10000));
        QCOMPARE(badListen.exitCode(), 2);
        QVERIFY(badListen.readAllStandardError().contains("HOST:PORT"));

        QProcess remote;
        remote.start(kBinary,
                     {QStringLiteral("serve"), QStringLiteral("--listen"),
                      QStringLiteral("0.0.0.0:0"), QStringLiteral("--data-dir"), dir.path()});
        QVERIFY(remote.waitForFinished(10000));
        QCOMPARE(remote.exitCode(), 1);
        QVERIFY(remote.readAllStandardError().contains("--allow-remote"));

        // An option no command knows is bad usage too: named, exit code 2, for every command.
        for (const char* command : {"serve", "keys", "credits", "verify", "prove", "cairo-run"}) {
            QProcess unknown;
            unknown.start(kBinary, {QLatin1String(command), QStringLiteral("--no-such-flag")});
            QVERIFY(unknown.waitForFinished(10000));
            QCOMPARE(unknown.exitStatus(), QProcess::NormalExit);
            QVERIFY2(unknown.exitCode() == 2, command);
            QVERIFY2(unknown.readAllStandardError().contains("no-such-flag"), command);
        }
    }

    void allowRemoteWarns() {
        QTemporaryDir dir;
        QProcess process;
        const QString url = startServe(
            process, {QStringLiteral("--listen"), QStringLiteral("0.0.0.0:0"),
                      QStringLiteral("--allow-remote"), QStringLiteral("--data-dir"), dir.path()});
        QVERIFY(!url.isEmpty());
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(process.readAllStandardError().contains("warning: listening on 0.0.0.0"));
    }

    void keysCreatePrintsAKeyTheStoreAccepts() {
        QTemporaryDir dir;
        QProcess process;
        process.start(kBinary, {QStringLiteral("keys"), QStringLiteral("create"),
                                QStringLiteral("--data-dir"), dir.path(),
                                QStringLiteral("--project"), QStringLiteral("ci")});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 0);
        const QString key = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
        QVERIFY2(key.startsWith(QStringLiteral("pdk_")), qPrintable(key));
        QVERIFY(!key.contains(QLatin1Char('\n')));

        core::Store store(core::storePathIn(dir.path()));
        core::SystemClock clock;
        auth::ApiKeyRegistry keys(store, clock);
        const auth::KeyIdentity identity = keys.authenticate(key);
        QCOMPARE(identity.projectId, keys.adminProjectNamed(QStringLiteral("ci")));
    }

    void cairoRunPrintsAndWritesLikeCairoRun() {
        QTemporaryDir dir;
        const QString program = dir.filePath(QStringLiteral("p.json"));
        QFile file(program);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(
            test::Asm().pushImm(5).pushSquareOfTop().assertTopEquals(25).ret().program().dump()));
        file.close();
        const QString trace = dir.filePath(QStringLiteral("t.bin"));
        const QString memory = dir.filePath(QStringLiteral("m.bin"));
        QProcess run;
        run.start(kBinary, {QStringLiteral("cairo-run"), QStringLiteral("--program"), program,
                            QStringLiteral("--print_output"), QStringLiteral("--print_info"),
                            QStringLiteral("--trace_file=") + trace,
                            QStringLiteral("--memory_file"), memory});
        QVERIFY(run.waitForFinished(20000));
        QCOMPARE(run.exitCode(), 0);
        const QByteArray printed = run.readAllStandardOutput();
        QVERIFY(printed.contains("Program output:\n"));
        QVERIFY(printed.contains("Number of steps: 4 "));
        QVERIFY(printed.contains("Register values after execution:"));
        QCOMPARE(QFileInfo(trace).size(), qint64(4 * 24));
        QCOMPARE(QFileInfo(memory).size() % 40, qint64(0));

        QProcess hash;
        hash.start(kBinary, {QStringLiteral("program-hash"), program});
        QVERIFY(hash.waitForFinished(20000));
        QCOMPARE(hash.exitCode(), 0);
        QVERIFY(hash.readAllStandardOutput().startsWith("0x"));
    }

    // Issue #46: `proofdesk execute` runs a Cairo 1 executable with Scarb's arguments; a panic
    // says its message; `proofdesk prove --executable` proves it in one go.
    void executeRunsCairo1Executables() {
        QTemporaryDir dir;
        const QString executable = dir.filePath(QStringLiteral("sum.executable.json"));
        const QString panicking = dir.filePath(QStringLiteral("panics.executable.json"));
        const QString arguments = dir.filePath(QStringLiteral("args.json"));
        for (const auto& [path, text] :
             {std::pair{executable, test::Cairo1Body::sumOfTwoArguments().dump()},
              std::pair{panicking, test::Cairo1Body::panicsWithItsArguments().dump()},
              std::pair{arguments, std::string(R"(["0x10", 2])")}}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(text));
        }
        const auto run = [](const QStringList& args, QByteArray* out, QByteArray* err) {
            QProcess process;
            process.start(kBinary, args);
            process.waitForFinished(60000);
            *out = process.readAllStandardOutput();
            *err = process.readAllStandardError();
            return process.exitCode();
        };
        QByteArray out, err;
        QCOMPARE(run({QStringLiteral("execute"), QStringLiteral("--executable"), executable,
                      QStringLiteral("--arguments"), QStringLiteral("40,2"),
                      QStringLiteral("--print_output")},
                     &out, &err),
                 0);
        QCOMPARE(out, QByteArray("Program output:\n  42\n\n"));
        const QString pie = dir.filePath(QStringLiteral("sum.zip"));
        QCOMPARE(run({QStringLiteral("execute"), QStringLiteral("--executable"), executable,
                      QStringLiteral("--arguments-file"), arguments,
                      QStringLiteral("--print_output"), QStringLiteral("--cairo_pie_output"), pie},
                     &out, &err),
                 0);
        QCOMPARE(out, QByteArray("Program output:\n  18\n\n"));
        QVERIFY(QFileInfo(pie).size() > 0);
        QCOMPARE(run({QStringLiteral("execute"), QStringLiteral("--executable"), panicking,
                      QStringLiteral("--arguments"), QStringLiteral("0x6f6f7073")},
                     &out, &err),
                 1);
        QCOMPARE(err, QByteArray("Error: Panicked with 0x6f6f7073 ('oops').\n"));
        QCOMPARE(run({QStringLiteral("execute"), QStringLiteral("--executable"), executable,
                      QStringLiteral("--arguments"), QStringLiteral("1,x")},
                     &out, &err),
                 2);
        QVERIFY(err.contains("argument 2 (\"x\") is not a felt"));
        const QString proof = dir.filePath(QStringLiteral("proof.json"));
        QCOMPARE(run({QStringLiteral("prove"), QStringLiteral("--executable"), executable,
                      QStringLiteral("--arguments"), QStringLiteral("40,2"),
                      QStringLiteral("--out_file"), proof, QStringLiteral("--security-bits"),
                      QStringLiteral("32")},
                     &out, &err),
                 0);
        QVERIFY2(out.contains("verified by Proofdesk's verifier"), out.constData());
    }

    void cairoRunStepsAndPrintFlags() {
        QTemporaryDir dir;
        const QString program = dir.filePath(QStringLiteral("loop.json"));
        QFile file(program);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(test::Asm::countdown(50).program().dump()));
        file.close();
        QProcess exact;
        exact.start(kBinary,
                    {QStringLiteral("cairo-run"), QStringLiteral("--program"), program,
                     QStringLiteral("--steps"), QStringLiteral("10"),
                     QStringLiteral("--print_info"), QStringLiteral("--print_memory"),
                     QStringLiteral("--print_segments"), QStringLiteral("--relocate_prints")});
        QVERIFY(exact.waitForFinished(20000));
        QCOMPARE(exact.exitCode(), 0);
        const QByteArray out = exact.readAllStandardOutput();
        QVERIFY(out.contains("Number of steps: 10 "));
        QVERIFY(out.contains("Addr  Value\n-----------\n1     "));
        QVERIFY(out.contains("Segment relocation table:\n0     1\n"));

        QProcess both;
        both.start(kBinary, {QStringLiteral("cairo-run"), QStringLiteral("--program"), program,
                             QStringLiteral("--steps"), QStringLiteral("10"),
                             QStringLiteral("--min_steps"), QStringLiteral("5")});
        QVERIFY(both.waitForFinished(20000));
        QCOMPARE(both.exitCode(), 2);
    }

    void cairoRunWithPythonHints() {
        const QString samples = QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/");
        const QStringList sample{QStringLiteral("cairo-run"),
                                 QStringLiteral("--program"),
                                 samples + QStringLiteral("sum_of_squares.json"),
                                 QStringLiteral("--program_input"),
                                 samples + QStringLiteral("sum_of_squares_input.json"),
                                 QStringLiteral("--layout"),
                                 QStringLiteral("small"),
                                 QStringLiteral("--print_output")};
        QProcess python;
        python.start(kBinary,
                     sample + QStringList{QStringLiteral("--cairo_vm"), QStringLiteral("python"),
                                          QStringLiteral("--python_hint_time_limit"),
                                          QStringLiteral("30")});
        QVERIFY(python.waitForFinished(20000));
        QCOMPARE(python.exitCode(), 0);
        QVERIFY(python.readAllStandardOutput().contains("Program output:\n  169\n"));

        // Without Python hints, the hint is refused, naming the option that runs it.
        QProcess native;
        native.start(kBinary, sample);
        QVERIFY(native.waitForFinished(20000));
        QCOMPARE(native.exitCode(), 1);
        QVERIFY(native.readAllStandardError().contains("run with cairoVm=python"));

        QProcess badVm;
        badVm.start(kBinary,
                    sample + QStringList{QStringLiteral("--cairo_vm"), QStringLiteral("pypy")});
        QVERIFY(badVm.waitForFinished(20000));
        QCOMPARE(badVm.exitCode(), 2);
        QVERIFY(badVm.readAllStandardError().contains("--cairo_vm is rust or python, not pypy"));

        QProcess badLimit;
        badLimit.start(kBinary,
                       sample + QStringList{QStringLiteral("--cairo_vm"), QStringLiteral("python"),
                                            QStringLiteral("--python_hint_time_limit"),
                                            QStringLiteral("-3")});
        QVERIFY(badLimit.waitForFinished(20000));
        QCOMPARE(badLimit.exitCode(), 2);
    }

    void cairoRunRefusesBadInput() {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"prime\": 1");
        file.close();
        QProcess run;
        run.start(kBinary, {QStringLiteral("cairo-run"), QStringLiteral("--program"), broken});
        QVERIFY(run.waitForFinished(20000));
        QCOMPARE(run.exitCode(), 1);
        QVERIFY(run.readAllStandardError().contains("not valid JSON"));

        QProcess noProgram;
        noProgram.start(kBinary, {QStringLiteral("cairo-run"), QStringLiteral("--print_output")});
        QVERIFY(noProgram.waitForFinished(20000));
        QCOMPARE(noProgram.exitCode(), 2);

        QProcess publicWithoutProof;
        publicWithoutProof.start(kBinary, {QStringLiteral("cairo-run"), QStringLiteral("--program"),
                                           broken, QStringLiteral("--air_public_input"),
                                           dir.filePath(QStringLiteral("x.json"))});
        QVERIFY(publicWithoutProof.waitForFinished(20000));
        QCOMPARE(publicWithoutProof.exitCode(), 2);
        QVERIFY(publicWithoutProof.readAllStandardError().contains("--proof_mode"));
    }

    void serveResumesAcknowledgedQueriesAfterSigkill() {
        QTemporaryDir dir;
        QTemporaryDir tools;
        // A prover that runs until its parent (the server) is gone, so the kill lands mid-proof.
        const QString prover = tools.filePath(QStringLiteral("prover"));
        QFile script(prover);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nwhile kill -0 $PPID 2>/dev/null; do sleep 0.1; done\nexit 1\n");
        script.close();
        script.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const std::string key = mintKey(dir.path());
        QVERIFY(!key.empty());

        std::vector<std::string> ids;
        {
            QProcess serve;
            const QString url =
                startServe(serve, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                                   QStringLiteral("--data-dir"), dir.path(),
                                   QStringLiteral("--stone-prover"), prover});
            QVERIFY2(!url.isEmpty(), serve.readAllStandardError().constData());
            test::TestHttp http(url);
            for (int i = 0; i < 5; ++i) {
                const test::Reply reply = http.postMultipart(
                    "/core-query",
                    {{"programFile", test::proofModeOutputProgram(std::uint64_t(i)), "p.json"},
                     {"dedupId", "kill-" + std::to_string(i)}},
                    {{"api-key", key}});
                QCOMPARE(reply.status, 201);
                ids.push_back(reply.json()["coreQueryId"]);
            }
            QDeadlineTimer deadline(20000);
            bool proving = false;
            while (!proving && !deadline.hasExpired()) {
                proving = http.get("/core-query/" + ids[0]).json()["coreQuery"]["step"] ==
                          "PROOF_GENERATION";
                QTest::qWait(5);
            }
            QVERIFY(proving);
            ::kill(static_cast<pid_t>(serve.processId()), SIGKILL);
            QVERIFY(serve.waitForFinished(10000));
            QCOMPARE(serve.exitStatus(), QProcess::CrashExit);
        }
        QProcess serve;
        const QString url =
            startServe(serve, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                               QStringLiteral("--data-dir"), dir.path(), QStringLiteral("--prover"),
                               QStringLiteral("mock")});
        QVERIFY2(!url.isEmpty(), serve.readAllStandardError().constData());
        test::TestHttp http(url);
        for (const std::string& id : ids) {
            QDeadlineTimer deadline(30000);
            std::string status;
            while (!deadline.hasExpired()) {
                status = http.get("/core-query/" + id).json()["coreQuery"].value("status", "");
                if (status == "DONE" || status == "FAILED") {
                    break;
                }
                QTest::qWait(5);
            }
            QCOMPARE(status, std::string("DONE"));
        }
        const nlohmann::json list = http.get("/core-queries", {{"api-key", key}}).json();
        QCOMPARE(list["total"].get<int>(), 5);
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(10000));
    }

    void serveResumesARequestKilledMidAction() {
        test::DevChain chain;
        QString chainError;
        if (!chain.start(&chainError)) {
            QSKIP(qPrintable(QStringLiteral("dev chain unavailable: ") + chainError));
        }
        chain.mine(6);
        test::RpcProxy proxy(chain.url());
        // prove_headers waits in the proxy, so the kill lands while the action runs.
        proxy.setFault(test::RpcProxy::Fault::Hold, "eth_getBlockByNumber");
        QTemporaryDir dir;
        const std::string key = mintKey(dir.path());
        QVERIFY(!key.empty());
        const QStringList args{
            QStringLiteral("--listen"),    QStringLiteral("127.0.0.1:0"),
            QStringLiteral("--data-dir"),  dir.path(),
            QStringLiteral("--chain-rpc"), QStringLiteral("11155111=") + proxy.url()};
        std::string requestId;
        {
            QProcess serve;
            const QString url = startServe(serve, args);
            QVERIFY2(!url.isEmpty(), serve.readAllStandardError().constData());
            test::TestHttp http(url);
            const test::Reply reply = http.postJson(
                "/submit-request",
                {{"destination_chain_id", "1"},
                 {"data", {{"11155111", {{"block_ranges:1-5", {{"header", {"Number"}}}}}}}}},
                {{"api-key", key}});
            QCOMPARE(reply.status, 200);
            requestId = reply.json()["request_id"];
            QTRY_VERIFY_WITH_TIMEOUT(proxy.heldRequests() > 0, 20000);
            ::kill(static_cast<pid_t>(serve.processId()), SIGKILL);
            QVERIFY(serve.waitForFinished(10000));
            QCOMPARE(serve.exitStatus(), QProcess::CrashExit);
        }
        proxy.setFault(test::RpcProxy::Fault::None, {});
        proxy.release();
        QProcess serve;
        const QString url = startServe(serve, args);
        QVERIFY2(!url.isEmpty(), serve.readAllStandardError().constData());
        test::TestHttp http(url);
        std::string status;
        nlohmann::json query;
        QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired() && status != "COMPLETED" && status != "FAILED") {
            query = http.get("/get_queries/" + requestId).json()["queries"][0];
            status = query.value("status", "");
            QTest::qWait(10);
        }
        QCOMPARE(status, std::string("COMPLETED"));
        const nlohmann::json actions =
            http.get("/get_actions/" + query["internal_id"].get<std::string>()).json()["actions"];
        for (const nlohmann::json& action : actions) {
            QCOMPARE(action["status"].get<std::string>(), std::string("COMPLETED"));
        }
        // Each block accumulated once (genesis + 5 leaves), each value delivered once.
        const nlohmann::json mmrs = http.get("/mmrs?chain_id=11155111").json()["mmrs"];
        QCOMPARE(mmrs[0]["leaves"].get<int>(), 6);
        QCOMPARE(http.get("/proven-values/1").json()["total"].get<int>(), 6);
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(10000));
    }

    void creditsCommandSetsWhatTheServerCharges() {
        QTemporaryDir dir;
        const std::string key = mintKey(dir.path());
        const auto credits = [&](const QStringList& args) {
            QProcess process;
            process.start(kBinary, QStringList{QStringLiteral("credits")} + args +
                                       QStringList{QStringLiteral("--data-dir"), dir.path()});
            process.waitForFinished(20000);
            return std::make_pair(process.exitCode(),
                                  QString::fromUtf8(process.readAllStandardOutput()).trimmed());
        };
        const auto [setCode, setOut] =
            credits({QStringLiteral("set"), QStringLiteral("ci"), QStringLiteral("1")});
        QCOMPARE(setCode, 0);
        QVERIFY2(setOut.endsWith(QStringLiteral(" 1")), qPrintable(setOut));
        QCOMPARE(
            credits({QStringLiteral("set"), QStringLiteral("ci"), QStringLiteral("lots")}).first,
            2);
        QCOMPARE(credits({QStringLiteral("show"), QStringLiteral("nobody")}).first, 1);
        QCOMPARE(credits({QStringLiteral("show")}).first, 2);

        QProcess serve;
        const QString url =
            startServe(serve, {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                               QStringLiteral("--data-dir"), dir.path()});
        QVERIFY(!url.isEmpty());
        test::TestHttp http(url);
        const std::vector<test::Part> parts = {{"programFile", test::outputProgram(1), "p.json"},
                                               {"result", "TRACE_GENERATION"}};
        QCOMPARE(http.postMultipart("/core-query", parts, {{"api-key", key}}).status, 201);
        QCOMPARE(http.postMultipart("/core-query", parts, {{"api-key", key}}).status, 402);
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(10000));
        const auto [showCode, showOut] = credits({QStringLiteral("show"), QStringLiteral("ci")});
        QCOMPARE(showCode, 0);
        QVERIFY2(showOut.endsWith(QStringLiteral(" 0")), qPrintable(showOut));
        QVERIFY(credits({QStringLiteral("set"), QStringLiteral("ci"), QStringLiteral("unlimited")})
                    .second.endsWith(QStringLiteral(" unlimited")));
    }

    void keysNeedsAnAction() {
        QProcess process;
        process.start(kBinary, {QStringLiteral("keys")});
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 2);
    }

    // `proofdesk verify` on a `dynamic` proof: its parameters come from the public input, or from
    // --dynamic_params when the public input lacks them; exit 0 valid, 1 invalid, 2 unreadable.
    void verifyTakesDynamicParametersFromTheProofOrAFile() {
        const QString fixture =
            QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo/proofs/stone/"
                                                  "swiftness_dynamic_cairo0_stone6_nvf10.json");
        if (!QFile::exists(fixture)) {
            QSKIP("../shared/fixtures is not here");
        }
        QFile in(fixture);
        QVERIFY(in.open(QIODevice::ReadOnly));
        nlohmann::json proof = nlohmann::json::parse(in.readAll().toStdString());
        const nlohmann::json params = proof["public_input"]["dynamic_params"];
        proof["public_input"].erase("dynamic_params");
        nlohmann::json moved = params;
        moved["cpu__registers__ap_offset"] = 11;
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const nlohmann::json& json) {
            QFile out(dir.filePath(name));
            const bool opened = out.open(QIODevice::WriteOnly);
            out.write(QByteArray::fromStdString(json.dump()));
            return opened ? out.fileName() : QString();
        };
        const QString bare = write(QStringLiteral("bare.json"), proof);
        const QString paramsFile = write(QStringLiteral("params.json"), params);
        const QString movedFile = write(QStringLiteral("moved.json"), moved);
        const auto verify = [&](const QStringList& args, QString* out = nullptr) {
            QProcess process;
            process.start(kBinary, QStringList{QStringLiteral("verify")} + args);
            if (!process.waitForFinished(60000)) {
                return -1;
            }
            if (out) {
                *out = QString::fromUtf8(process.readAllStandardOutput() +
                                         process.readAllStandardError());
            }
            return process.exitCode();
        };
        QString output;
        QCOMPARE(verify({fixture}, &output), 0);
        QVERIFY2(output.contains(QStringLiteral("dynamic, 2048 steps")), qPrintable(output));
        QCOMPARE(verify({bare}, &output), 1);
        QVERIFY2(output.contains(QStringLiteral("dynamic_params lacks")), qPrintable(output));
        QCOMPARE(verify({QStringLiteral("--in_file"), bare, QStringLiteral("--dynamic_params"),
                         paramsFile}),
                 0);
        // Other parameters than the proof states are refused before verifying.
        QCOMPARE(verify({fixture, QStringLiteral("--dynamic_params"), movedFile}, &output), 2);
        QVERIFY2(output.contains(QStringLiteral("other dynamic_params")), qPrintable(output));
        QCOMPARE(verify({bare, QStringLiteral("--dynamic_params"), movedFile}), 1);
        QCOMPARE(verify({bare, QStringLiteral("--dynamic_params"),
                         dir.filePath(QStringLiteral("none.json"))}),
                 2);
    }

    // A mistyped command says so and lists the commands; it never opens the console.
    void anUnknownCommandIsNamedNotOpened() {
        QProcess process;
        process.start(kBinary, {QStringLiteral("verfy"), QStringLiteral("proof.json")});
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 2);
        const QString errors = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(errors.contains(QStringLiteral("unknown command 'verfy'")), qPrintable(errors));
        QVERIFY(QString::fromUtf8(process.readAllStandardOutput())
                    .contains(QStringLiteral("proofdesk verify PROOF.json")));
    }
};

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
