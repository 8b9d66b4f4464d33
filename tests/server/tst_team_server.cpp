// Issue #45: a team's server — front ends and workers on one PostgreSQL store, each with a data
// dir of its own (as on different machines). Runs only on a throwaway cluster
// (tests/support/with-postgres.sh; registered as tst_team_server_postgres).

#include "ProofHttpSupport.h"
#include "ProofTestData.h"
#include "TestStore.h"

#include "cairo/pie/CairoPie.h"
#include "core/Store.h"
#include "stark/verifier/ProofVerifier.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <map>
#include <thread>
#include <vector>

using namespace proofdesk;
using namespace proofdesk::test;

namespace {

const QString kBinary = QStringLiteral(PROOFDESK_BINARY);

// Starts `proofdesk worker` and waits (bounded) until it says it runs.
bool startWorker(QProcess& process, const QStringList& arguments) {
    process.start(kBinary, QStringList{QStringLiteral("worker")} + arguments);
    if (!process.waitForStarted(10000)) {
        return false;
    }
    QByteArray printed;
    QDeadlineTimer deadline(scaledDeadline(20000));
    while (!deadline.hasExpired() && !printed.contains("Press Ctrl+C")) {
        if (!process.waitForReadyRead(int(deadline.remainingTime()))) {
            return false;
        }
        printed += process.readAllStandardOutput();
    }
    return printed.contains("Press Ctrl+C");
}

// The sample program with a hint that sleeps `seconds` before it lets the run go on.
std::string sleepingProgram(int seconds) {
    QFile sample(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/sum_of_squares.json"));
    if (!sample.open(QIODevice::ReadOnly)) {
        return {};
    }
    json program = json::parse(sample.readAll().toStdString());
    program["hints"]["8"][0]["code"] =
        "import time\ntime.sleep(" + std::to_string(seconds) + ")\nids.n = 1";
    return program.dump();
}

} // namespace

class TeamServerTest : public QObject {
    Q_OBJECT
private:
    // A front end that runs no jobs, and a worker-bearing server, on one store.
    struct Team {
        QString store;
        std::unique_ptr<TestServer> front;
        std::unique_ptr<TestServer> worker;
    };
    static Team team() {
        Team made;
        QTemporaryDir scratch;
        made.store = testStoreLocation(scratch.path() + QStringLiteral("/team"));
        server::ServerOptions frontOptions;
        frontOptions.store = made.store;
        frontOptions.localWorkers = false;
        made.front = std::make_unique<TestServer>(frontOptions);
        server::ServerOptions workerOptions;
        workerOptions.store = made.store;
        made.worker = std::make_unique<TestServer>(workerOptions);
        return made;
    }

private slots:
    void initTestCase() {
        if (!testStoreIsPostgres()) {
            QSKIP("needs the PostgreSQL store (tests/support/with-postgres.sh)");
        }
    }

    void aProofMadeByAWorkerIsServedByAnyFrontEnd() {
        Team servers = team();
        QVERIFY2(servers.front->ok(), qPrintable(servers.front->error()));
        QVERIFY2(servers.worker->ok(), qPrintable(servers.worker->error()));
        QVERIFY(servers.front->dataDir() != servers.worker->dataDir());
        // One set of projects and keys: minted through one, accepted by the other.
        const Project alpha = newProject(*servers.front, QStringLiteral("alpha"));
        TestHttp front(servers.front->url());
        TestHttp worker(servers.worker->url());
        const Reply submitted = front.postMultipart(
            "/core-query",
            {file("programFile", proofModeOutputProgram(11), "p.json"), text("layout", "small"),
             text("result", "PROOF_VERIFICATION_ON_L1")},
            keyHeader(alpha));
        QCOMPARE(submitted.status, 201);
        const std::string id = submitted.json()["coreQueryId"];
        // Read (and, on one machine, cached) while it waits: the front end must not keep
        // answering this once the worker has moved it on.
        const std::string early = front.get("/core-query/" + id).json()["coreQuery"]["status"];
        QVERIFY(early == "RECEIVED" || early == "IN_PROGRESS");
        const json done = waitForEnd(front, id, 120000);
        QVERIFY(!done.is_null());
        QVERIFY2(done["coreQuery"]["status"] == "DONE", done.dump().c_str());
        QCOMPARE(done["coreQuery"]["isProofMocked"].get<bool>(), false);
        // Both answer the same record.
        COMPARE_JSON(worker.get("/core-query/" + id).json()["coreQuery"], done["coreQuery"]);

        // The proof was written on the worker's disk; the front end fetches it from the store.
        const Reply fromFront = front.get("/artifacts/" + id + "/proof.json", keyHeader(alpha));
        QCOMPARE(fromFront.status, 200);
        const Reply fromWorker = worker.get("/artifacts/" + id + "/proof.json", keyHeader(alpha));
        QCOMPARE(fromWorker.status, 200);
        QCOMPARE(fromFront.body, fromWorker.body);
        const stark::Verdict verdict = stark::verifyStoneProof(json::parse(fromFront.body));
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        QCOMPARE(verdict.statement->sharpFactHash,
                 done["coreQuery"]["sharpFactHash"].get<std::string>());
        // The fact is registered for every front end.
        const std::string fact = done["coreQuery"]["sharpFactHash"];
        QCOMPARE(front.get("/fact-registry/L1/" + fact).json()["valid"].get<bool>(), true);
    }

    void aFrontEndAloneQueuesWorkUntilAWorkerComes() {
        QTemporaryDir scratch;
        const QString store = testStoreLocation(scratch.path() + QStringLiteral("/queue"));
        server::ServerOptions frontOptions;
        frontOptions.store = store;
        frontOptions.localWorkers = false;
        TestServer front(frontOptions);
        QVERIFY2(front.ok(), qPrintable(front.error()));
        const Project alpha = newProject(front, QStringLiteral("alpha"));
        TestHttp http(front.url());
        const Reply submitted = http.postMultipart(
            "/core-query",
            {file("programFile", outputProgram(42), "p.json"), text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        QCOMPARE(submitted.status, 201);
        const std::string id = submitted.json()["coreQueryId"];
        QCOMPARE(http.get("/core-query/" + id).json()["coreQuery"]["status"].get<std::string>(),
                 std::string("RECEIVED"));
        // Its operator sees why: no worker, one trace waiting in alpha's lane.
        const Headers admin{
            {"api-key",
             front.mintKey(QStringLiteral("operators"), auth::KeyRole::Admin).toStdString()}};
        const json waiting = http.get("/admin/status", admin).json();
        QCOMPARE(waiting["shared"].get<bool>(), true);
        QCOMPARE(waiting["workers"].dump(), std::string("[]"));
        QCOMPARE(waiting["queue"].size(), std::size_t(1));
        QCOMPARE(waiting["queue"][0]["kind"].get<std::string>(), std::string("trace"));
        QCOMPARE(waiting["queue"][0]["project"].get<std::string>(), alpha.id.toStdString());
        QCOMPARE(waiting["queue"][0]["queued"].get<int>(), 1);
        QCOMPARE(waiting["queue"][0]["running"].get<int>(), 0);
        QVERIFY(!waiting["queue"][0]["oldestQueuedAt"].get<std::string>().empty());
        // A worker joins later (another machine): the uploaded program reaches it via the store.
        server::ServerOptions workerOptions;
        workerOptions.store = store;
        TestServer worker(workerOptions);
        QVERIFY2(worker.ok(), qPrintable(worker.error()));
        const json done = waitForEnd(http, id);
        QVERIFY(!done.is_null());
        QCOMPARE(done["coreQuery"]["status"].get<std::string>(), std::string("DONE"));
        const Reply pie = http.get("/artifacts/" + id + "/pie.zip", keyHeader(alpha));
        QCOMPARE(pie.status, 200);
        QCOMPARE(cairo::CairoPie::fromZip(pie.body).output()[0].toHex(), std::string("0x2a"));
        const json after = http.get("/admin/status", admin).json();
        QCOMPARE(after["queue"].dump(), std::string("[]"));
        QCOMPARE(after["workers"].size(), std::size_t(1));
        QCOMPARE(after["workers"][0]["threads"].get<int>(), 3);
    }

    // Writers of two processes meet: one submission of a dedupId wins, the others are rolled
    // back by PostgreSQL's serialization, run again and find it there (409), never a 503.
    void concurrentSubmissionsOfOneDedupIdFromTwoFrontEndsMakeOneQuery() {
        Team servers = team();
        QVERIFY2(servers.front->ok() && servers.worker->ok(),
                 qPrintable(servers.front->error() + servers.worker->error()));
        const Project alpha = newProject(*servers.front, QStringLiteral("alpha"));
        const std::vector<Part> parts{file("programFile", outputProgram(7), "p.json"),
                                      text("dedupId", "once"), text("result", "TRACE_GENERATION")};
        constexpr int kRounds = 3;
        constexpr int kPerFrontEnd = 4;
        std::map<int, int> statuses;
        for (int round = 0; round < kRounds; ++round) {
            std::vector<Part> roundParts = parts;
            roundParts[1] = text("dedupId", "once-" + std::to_string(round));
            std::vector<int> answers(2 * kPerFrontEnd, 0);
            std::vector<std::thread> clients;
            for (int i = 0; i < 2 * kPerFrontEnd; ++i) {
                const QString url = (i % 2 ? *servers.front : *servers.worker).url();
                clients.emplace_back([&answers, &roundParts, &alpha, url, i] {
                    TestHttp http(url);
                    answers[std::size_t(i)] =
                        http.postMultipart("/core-query", roundParts, keyHeader(alpha)).status;
                });
            }
            for (std::thread& client : clients) {
                client.join();
            }
            for (const int status : answers) {
                ++statuses[status];
            }
        }
        QCOMPARE(statuses[201], kRounds);
        QCOMPARE(statuses[409], kRounds * (2 * kPerFrontEnd - 1));
        QCOMPARE(int(statuses.size()), 2);
        TestHttp http(servers.front->url());
        QCOMPARE(http.get("/core-queries", keyHeader(alpha)).json()["total"].get<int>(), kRounds);
    }

    void nothingIsLostWhenTheStoreRestarts() {
        const QString restart = qEnvironmentVariable("PROOFDESK_TEST_PG_RESTART");
        if (restart.isEmpty()) {
            QSKIP("needs tests/support/with-postgres.sh's restart script");
        }
        Team servers = team();
        QVERIFY2(servers.worker->ok(), qPrintable(servers.worker->error()));
        const Project alpha = newProject(*servers.front, QStringLiteral("alpha"));
        TestHttp front(servers.front->url());
        TestHttp worker(servers.worker->url());
        std::vector<std::string> ids;
        const auto submit = [&](TestHttp& http, int value) {
            const Reply reply = http.postMultipart(
                "/core-query",
                {file("programFile", outputProgram(std::uint64_t(value)), "p.json"),
                 text("result", "TRACE_GENERATION")},
                keyHeader(alpha));
            QCOMPARE(reply.status, 201);
            ids.push_back(reply.json()["coreQueryId"]);
        };
        for (int i = 0; i < 6; ++i) {
            submit(front, i);
        }
        // A fast restart cuts every connection of both servers while jobs run.
        QProcess restarting;
        restarting.start(restart, {});
        QVERIFY(restarting.waitForFinished(90000));
        QVERIFY2(restarting.exitCode() == 0, restarting.readAllStandardError().constData());
        for (int i = 6; i < 12; ++i) {
            submit(i % 2 ? front : worker, i);
        }
        for (const std::string& id : ids) {
            const json done = waitForEnd(front, id, 120000);
            QVERIFY2(!done.is_null(), id.c_str());
            QVERIFY2(done["coreQuery"]["status"] == "DONE", done.dump().c_str());
        }
        // Each query's one job ran to its end once; none failed or is left over.
        core::Store view(servers.store);
        const auto unfinished = [&view] {
            QSqlQuery left =
                view.exec(QStringLiteral("SELECT COUNT(*) FROM jobs WHERE state <> 'done'"));
            return left.next() ? left.value(0).toInt() : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(unfinished(), 0, scaledDeadline(10000));
        QSqlQuery jobs = view.exec(
            QStringLiteral("SELECT state, COUNT(*) FROM jobs GROUP BY state ORDER BY state"));
        std::map<std::string, int> byState;
        while (jobs.next()) {
            byState[jobs.value(0).toString().toStdString()] = jobs.value(1).toInt();
        }
        QCOMPARE(byState, (std::map<std::string, int>{{"done", 12}}));
    }

    void aKilledWorkersJobIsFinishedByAnother() {
        QTemporaryDir scratch;
        const QString store = testStoreLocation(scratch.path() + QStringLiteral("/kill"));
        server::ServerOptions frontOptions;
        frontOptions.store = store;
        frontOptions.localWorkers = false;
        frontOptions.provers.pythonHints = true;
        TestServer front(frontOptions);
        QVERIFY2(front.ok(), qPrintable(front.error()));
        const Project alpha = newProject(front, QStringLiteral("alpha"));
        TestHttp http(front.url());

        // A worker process on "another machine" (its own data dir), with 3 s leases.
        QProcess doomed;
        QVERIFY2(
            startWorker(doomed, {QStringLiteral("--store"), store, QStringLiteral("--data-dir"),
                                 scratch.path() + QStringLiteral("/doomed"),
                                 QStringLiteral("--name"), QStringLiteral("doomed"),
                                 QStringLiteral("--lease-seconds"), QStringLiteral("3"),
                                 QStringLiteral("--python-hints"), QStringLiteral("on")}),
            doomed.readAllStandardError().constData());
        const Reply submitted =
            http.postMultipart("/core-query",
                               {file("programFile", sleepingProgram(6), "s.json"),
                                text("cairoVm", "python"), text("result", "TRACE_GENERATION")},
                               keyHeader(alpha));
        QCOMPARE(submitted.status, 201);
        const std::string id = submitted.json()["coreQueryId"];
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get("/core-query/" + id).json()["coreQuery"].value("status", "") == "IN_PROGRESS",
            scaledDeadline(20000));
        core::Store view(store);
        QSqlQuery holder = view.exec(QStringLiteral("SELECT worker FROM jobs WHERE state = "
                                                    "'running'"));
        QVERIFY(holder.next());
        QCOMPARE(holder.value(0).toString(), QStringLiteral("doomed"));
        holder.finish();
        // The machine dies mid-run: no stop, no heartbeat, its lease left to run out.
        ::kill(static_cast<pid_t>(doomed.processId()), SIGKILL);
        QVERIFY(doomed.waitForFinished(10000));

        server::ServerOptions survivorOptions;
        survivorOptions.store = store;
        survivorOptions.provers.pythonHints = true;
        survivorOptions.jobLeases = core::JobLeases::ofSeconds(3);
        TestServer survivor(survivorOptions);
        QVERIFY2(survivor.ok(), qPrintable(survivor.error()));
        // The survivor's (test) clock passes the dead worker's last lease; its next heartbeat
        // finds the lease run out.
        survivor.clock().advanceSeconds(10);
        const json done = waitForEnd(http, id, 90000);
        QVERIFY(!done.is_null());
        QVERIFY2(done["coreQuery"]["status"] == "DONE", done.dump().c_str());
        QCOMPARE(done["coreQuery"]["retryCount"].get<int>(), 1); // the killed attempt counted
        // The job itself ends just after the stage has recorded the query's end.
        const QString doneJob =
            QStringLiteral("SELECT attempts, worker FROM jobs WHERE state = 'done'");
        QTRY_VERIFY_WITH_TIMEOUT(view.exec(doneJob).next(), scaledDeadline(10000));
        QSqlQuery finished = view.exec(doneJob);
        QVERIFY(finished.next());
        QCOMPARE(finished.value(0).toInt(), 2);
        QVERIFY(finished.value(1).toString() != QStringLiteral("doomed"));
    }

    void twoFrontEndsAndThreeWorkersLoseNothingThroughAKillAndARestart() {
        const QString restart = qEnvironmentVariable("PROOFDESK_TEST_PG_RESTART");
        if (restart.isEmpty()) {
            QSKIP("needs tests/support/with-postgres.sh's restart script");
        }
        QTemporaryDir scratch;
        const QString store = testStoreLocation(scratch.path() + QStringLiteral("/chaos"));
        server::ServerOptions frontOptions;
        frontOptions.store = store;
        frontOptions.localWorkers = false;
        TestServer frontA(frontOptions);
        TestServer frontB(frontOptions);
        QVERIFY2(frontA.ok() && frontB.ok(), qPrintable(frontA.error() + frontB.error()));
        const Project alpha = newProject(frontA, QStringLiteral("alpha"));
        // The proven queries are another project's: its lane keeps the first worker's second
        // thread busy while the first runs alpha's slow job (a project never holds every thread).
        const Project beta = newProject(frontA, QStringLiteral("beta"));
        // Three worker processes, as on three machines, with 3 s leases and 32-bit proofs; the
        // third one never proves (--kinds).
        std::vector<std::unique_ptr<QProcess>> workers;
        const auto startWorkerNumbered = [&](int i) {
            workers.push_back(std::make_unique<QProcess>());
            QStringList arguments{QStringLiteral("--store"),
                                  store,
                                  QStringLiteral("--data-dir"),
                                  scratch.path() + QStringLiteral("/worker-%1").arg(i),
                                  QStringLiteral("--name"),
                                  QStringLiteral("worker-%1").arg(i),
                                  QStringLiteral("--threads"),
                                  QStringLiteral("2"),
                                  QStringLiteral("--lease-seconds"),
                                  QStringLiteral("3"),
                                  QStringLiteral("--security-bits"),
                                  QStringLiteral("32"),
                                  QStringLiteral("--python-hints"),
                                  QStringLiteral("on")};
            if (i == 2) {
                arguments << QStringLiteral("--kinds") << QStringLiteral("trace,verify");
            }
            QVERIFY(startWorker(*workers.back(), arguments));
        };
        startWorkerNumbered(0); // the others join once it holds a job
        // First a run that takes seconds, so that the worker killed below certainly dies in the
        // middle of one job at least (its other thread proves meanwhile).
        const Reply slow =
            TestHttp(frontA.url())
                .postMultipart("/core-query",
                               {file("programFile", sleepingProgram(8), "s.json"),
                                text("cairoVm", "python"), text("result", "TRACE_GENERATION")},
                               keyHeader(alpha));
        QCOMPARE(slow.status, 201);
        const std::string slowId = slow.json()["coreQueryId"];
        std::vector<std::string> ids{slowId};
        int proofs = 0;
        // 12 in CI; PROOFDESK_TEAM_CHAOS_QUERIES=40 is the full run (docs/team.md).
        const int queries = qEnvironmentVariableIsSet("PROOFDESK_TEAM_CHAOS_QUERIES")
                                ? qEnvironmentVariableIntValue("PROOFDESK_TEAM_CHAOS_QUERIES")
                                : 12;
        for (int i = 0; i < queries; ++i) {
            TestHttp http((i % 2 ? frontA : frontB).url());
            const bool prove = i % 3 == 0;
            proofs += prove ? 1 : 0;
            const Reply reply = http.postMultipart(
                "/core-query",
                {file("programFile",
                      prove ? proofModeOutputProgram(std::uint64_t(i))
                            : outputProgram(std::uint64_t(i)),
                      "p.json"),
                 text("layout", "small"),
                 text("result", prove ? "PROOF_VERIFICATION_ON_L1" : "TRACE_GENERATION")},
                keyHeader(prove ? beta : alpha));
            QCOMPARE(reply.status, 201);
            ids.push_back(reply.json()["coreQueryId"]);
        }
        TestHttp http(frontA.url());
        // One worker dies while it runs the slow job; the store restarts meanwhile.
        core::Store view(store);
        const auto holdsSlowJob = [&view, &slowId] {
            return view
                .exec(QStringLiteral("SELECT 1 FROM jobs WHERE state = 'running' AND worker = "
                                     "'worker-0' AND payload LIKE ?"),
                      {QString::fromStdString("%" + slowId + "%")})
                .next();
        };
        QTRY_VERIFY_WITH_TIMEOUT(holdsSlowJob(), scaledDeadline(60000));
        // Best also in the middle of a proof: the killed worker's other thread proves by now.
        const auto holdsProof = [&view] {
            return view
                .exec(QStringLiteral("SELECT 1 FROM jobs WHERE state = 'running' AND worker = "
                                     "'worker-0' AND work_kind = 'prove'"))
                .next();
        };
        const QDeadlineTimer proving(6000);
        while (!holdsProof() && holdsSlowJob() && !proving.hasExpired()) {
            QTest::qWait(20);
        }
        startWorkerNumbered(1);
        startWorkerNumbered(2);
        ::kill(static_cast<pid_t>(workers[0]->processId()), SIGKILL);
        QVERIFY(workers[0]->waitForFinished(10000));
        // What the dead worker still holds now was cut off mid-run (it can finish nothing).
        std::vector<QString> interrupted;
        int interruptedProofs = 0;
        {
            QSqlQuery cut = view.exec(QStringLiteral("SELECT id, work_kind FROM jobs WHERE state "
                                                     "= 'running' AND worker = 'worker-0'"));
            while (cut.next()) {
                interrupted.push_back(cut.value(0).toString());
                interruptedProofs += cut.value(1).toString() == QStringLiteral("prove") ? 1 : 0;
            }
        }
        QVERIFY(!interrupted.empty());
        QProcess restarting;
        restarting.start(restart, {});
        QVERIFY(restarting.waitForFinished(90000));
        QCOMPARE(restarting.exitCode(), 0);

        for (const std::string& id : ids) {
            const json done = waitForEnd(http, id, 180000);
            QVERIFY2(!done.is_null(), id.c_str());
            QVERIFY2(done["coreQuery"]["status"] == "DONE", done.dump().c_str());
        }
        // Every job ended once; the killed worker's job was run again by another.
        const auto count = [&view](const QString& sql) {
            QSqlQuery q = view.exec(sql);
            return q.next() ? q.value(0).toInt() : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(count(QStringLiteral("SELECT COUNT(*) FROM jobs WHERE state "
                                                       "<> 'done'")),
                                  0, scaledDeadline(10000));
        for (const QString& job : interrupted) {
            QSqlQuery rerun =
                view.exec(QStringLiteral("SELECT attempts, worker FROM jobs WHERE id = ?"), {job});
            QVERIFY(rerun.next());
            QCOMPARE(rerun.value(0).toInt(), 2);
            QVERIFY(rerun.value(1).toString() != QStringLiteral("worker-0"));
        }
        // One proof and one registered fact per proven query.
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM proof_artifacts WHERE name = "
                                      "'proof.json'")),
                 proofs);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM fact_registry")), proofs);
        qInfo("%d queries DONE once each (%d proven), %d interrupted jobs (%d proofs) run again",
              int(ids.size()), proofs, int(interrupted.size()), interruptedProofs);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM jobs WHERE worker = 'worker-2' AND "
                                      "work_kind = 'prove'")),
                 0);
        QVERIFY(count(QStringLiteral("SELECT COUNT(*) FROM jobs WHERE work_kind = 'prove'")) > 0);
        for (auto& worker : workers) {
            if (worker->state() == QProcess::Running) {
                ::kill(static_cast<pid_t>(worker->processId()), SIGTERM);
                QVERIFY(worker->waitForFinished(30000));
                QCOMPARE(worker->exitCode(), 0);
            }
        }
    }

    void aDesktopsDataMovesIntoATeamStore() {
        QTemporaryDir desktopDir;
        std::string id;
        std::string key;
        std::string pieBytes;
        {
            server::ServerOptions desktop;
            desktop.dataDir = desktopDir.path();
            // The data dir's own SQLite file, named (an empty store would take the cluster's).
            desktop.store = desktopDir.filePath(QStringLiteral("proofdesk.sqlite"));
            TestServer server(desktop);
            QVERIFY2(server.ok(), qPrintable(server.error()));
            const Project alpha = newProject(server, QStringLiteral("alpha"));
            key = alpha.key;
            TestHttp http(server.url());
            id = http.postMultipart("/core-query",
                                    {file("programFile", outputProgram(42), "p.json"),
                                     text("result", "TRACE_GENERATION")},
                                    keyHeader(alpha))
                     .json()["coreQueryId"];
            QVERIFY(!waitForEnd(http, id).is_null());
            pieBytes = http.get("/artifacts/" + id + "/pie.zip", keyHeader(alpha)).body;
            QVERIFY(!pieBytes.empty());
        }
        QTemporaryDir scratch;
        const QString team = testStoreLocation(scratch.path() + QStringLiteral("/moved"));
        QProcess copy;
        copy.start(kBinary,
                   {QStringLiteral("store"), QStringLiteral("copy"), QStringLiteral("--from"),
                    desktopDir.path(), QStringLiteral("--to"), team});
        QVERIFY(copy.waitForFinished(60000));
        const QByteArray said = copy.readAllStandardOutput() + copy.readAllStandardError();
        QVERIFY2(copy.exitCode() == 0, said.constData());
        QVERIFY2(said.contains("counts and samples match"), said.constData());

        // A team front end with a data dir of its own serves the moved records and files.
        server::ServerOptions teamOptions;
        teamOptions.store = team;
        TestServer server(teamOptions);
        QVERIFY2(server.ok(), qPrintable(server.error()));
        TestHttp http(server.url());
        const json moved = http.get("/core-query/" + id).json();
        QCOMPARE(moved["coreQuery"]["status"].get<std::string>(), std::string("DONE"));
        const Reply pie = http.get("/artifacts/" + id + "/pie.zip", {{"api-key", key}});
        QCOMPARE(pie.status, 200);
        QVERIFY(pie.body == pieBytes);
        // The moved key works; a copy into a store that holds data is refused.
        QCOMPARE(http.get("/core-queries", {{"api-key", key}}).json()["total"].get<int>(), 1);
        QProcess again;
        again.start(kBinary,
                    {QStringLiteral("store"), QStringLiteral("copy"), QStringLiteral("--from"),
                     desktopDir.path(), QStringLiteral("--to"), team});
        QVERIFY(again.waitForFinished(60000));
        QCOMPARE(again.exitCode(), 1);
        QVERIFY(again.readAllStandardError().contains("already holds"));
    }
};

QTEST_GUILESS_MAIN(TeamServerTest)
#include "tst_team_server.moc"
