// Crash-and-restart soak (issue #7): starts `proofdesk serve`, sends submissions from several
// concurrent clients -- proof queries of a small program and, when anvil is installed, data
// requests against a dev chain -- kills the server with SIGKILL at random moments, restarts it
// each time, and then checks that every acknowledged (2xx) submission exists, that every query
// reaches a terminal state with a reason, that nothing is duplicated, and that every stored
// artifact still matches its SHA-256. Prints the counts; exits non-zero on any loss.
//
//   proofdesk_soak --binary build/app/proofdesk [--submissions 1000] [--kills 5] [--clients 4]
//
// The test suite runs it short (soak_short: 100 submissions, 2 kills).

#include "DevChain.h"
#include "TestHttp.h"
#include "core/Store.h"
#include "proof/ArtifactStore.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sys/prctl.h>
#include <thread>
#include <vector>

using namespace proofdesk;
using nlohmann::json;

namespace {

int freePort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

class Server {
public:
    Server(QString binary, QStringList arguments)
        : m_binary(std::move(binary)), m_arguments(std::move(arguments)) {}
    ~Server() { kill(); }

    // A server that exited although nobody killed it (a crash) counts here.
    int unexpectedExits() const { return m_unexpectedExits; }
    void checkAlive() {
        if (m_process && m_process->state() == QProcess::NotRunning) {
            ++m_unexpectedExits;
        }
    }

    bool start() {
        m_process = std::make_unique<QProcess>();
        // Its request log (a line per request on stderr) would fill an undrained pipe and stall
        // every request behind the log's lock.
        m_process->setStandardErrorFile(QProcess::nullDevice());
        // The server dies with the soak, even when the soak crashes.
        m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_process->start(m_binary, m_arguments);
        if (!m_process->waitForStarted(10000)) {
            return false;
        }
        QByteArray printed;
        QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired()) {
            if (!m_process->waitForReadyRead(int(deadline.remainingTime()))) {
                break;
            }
            printed += m_process->readAllStandardOutput();
            if (printed.contains("Press Ctrl+C")) {
                return true;
            }
        }
        std::fprintf(stderr, "the server did not start: %s\n",
                     m_process->readAllStandardError().constData());
        return false;
    }
    void kill() {
        checkAlive();
        if (m_process && m_process->state() != QProcess::NotRunning) {
            ::kill(pid_t(m_process->processId()), SIGKILL);
            m_process->waitForFinished(10000);
        }
    }
    void stop() {
        if (m_process && m_process->state() != QProcess::NotRunning) {
            ::kill(pid_t(m_process->processId()), SIGTERM);
            m_process->waitForFinished(20000);
        }
    }

private:
    QString m_binary;
    QStringList m_arguments;
    std::unique_ptr<QProcess> m_process;
    int m_unexpectedExits = 0;
};

std::string readResource(const char* path) {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/") + QString::fromUtf8(path));
    file.open(QIODevice::ReadOnly);
    return file.readAll().toStdString();
}

// Issue #18: hostile requests mixed into the load (one in ten submissions); each must be answered
// (any 2xx-4xx) and none may take the server down.
test::Reply sendPoison(test::TestHttp& http, const std::string& key, int which) {
    const std::string nested = std::string(100'000, '[') + "1" + std::string(100'000, ']');
    switch (which % 4) {
    case 0:
        return http.postMultipart("/core-query",
                                  {{"programFile", "{\"data\":" + nested + "}", "deep.json"}},
                                  {{"api-key", key}});
    case 1: {
        json program = json::parse(readResource("resources/samples/sum_of_squares.json"));
        program["hints"]["8"][0]["code"] = "import os\nos._exit(3)";
        return http.postMultipart("/core-query",
                                  {{"programFile", program.dump(), "exit.json"},
                                   {"cairoVm", "python"},
                                   {"result", "TRACE_GENERATION"}},
                                  {{"api-key", key}});
    }
    case 2:
        return http.post("/buckets", R"({"aggregatorParams":)" + nested + "}", {{"api-key", key}});
    default: {
        std::string ranges = "block_ranges:0";
        for (int i = 1; i < 7000; ++i) {
            ranges += ',';
            ranges += std::to_string(2 * i);
        }
        return http.postJson(
            "/submit-request",
            {{"destination_chain_id", "1"}, {"data", {{"11155111", {{ranges, nullptr}}}}}},
            {{"api-key", key}});
    }
    }
}

struct Acknowledged {
    std::mutex mutex;
    std::vector<std::string> proofIds;
    std::vector<std::string> requestIds;
    std::set<std::string> dedupIds;
};

bool terminalProof(const std::string& status) {
    return status == "DONE" || status == "FAILED";
}

// What the clients sent and what the server acknowledged.
struct Submitted {
    Acknowledged acknowledged;
    std::atomic<int> sent{0};
    std::atomic<int> retries{0};
    std::atomic<int> poisonsAnswered{0};
};

// What the acknowledged submissions became.
struct Outcomes {
    int lost = 0, unfinished = 0, failedWithoutReason = 0, done = 0, failed = 0, completed = 0;
};

// The soak's setting: the server's URL and key, the program submitted, how many submissions.
struct Load {
    QString url;
    std::string key;
    std::string program;
    int total = 0;
    int clients = 1;
    bool withChain = false;
};

// `clients` threads submit `total` proof queries and data requests (every tenth preceded by a
// poison request), retrying while the server is down; the server is killed `kills` times at
// random moments meanwhile. Returns false when the server does not come back.
bool submitWhileKilling(const Load& load, Server& server, int kills, Submitted& out) {
    std::atomic<int> next{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < load.clients; ++c) {
        threads.emplace_back([&, c] {
            test::TestHttp http(load.url);
            std::mt19937 random(std::uint32_t(c) + 1);
            for (int i = next++; i < load.total; i = next++) {
                if (i % 10 == 9) {
                    for (int attempt = 0; attempt < 600; ++attempt) {
                        const int status = sendPoison(http, load.key, i / 10).status;
                        if (status >= 200 && status < 500) {
                            ++out.poisonsAnswered;
                            break;
                        }
                        QThread::msleep(50); // the server is down or restarting
                    }
                }
                const bool dataRequest = load.withChain && i % 4 == 3;
                const std::string dedupId = "soak-" + std::to_string(i);
                for (int attempt = 0; attempt < 600; ++attempt) {
                    test::Reply reply;
                    if (dataRequest) {
                        const json body{{"destination_chain_id", "1"},
                                        {"data",
                                         {{"11155111",
                                           {{"block:" + std::to_string(1 + random() % 20),
                                             {{"header", {"StateRoot"}}}}}}}}};
                        reply = http.postJson("/submit-request", body, {{"api-key", load.key}});
                    } else {
                        reply = http.postMultipart("/core-query",
                                                   {{"programFile", load.program, "fibonacci.json"},
                                                    {"dedupId", dedupId},
                                                    {"externalId", "soak " + std::to_string(i)}},
                                                   {{"api-key", load.key}});
                    }
                    ++out.sent;
                    const json answer = reply.json();
                    std::lock_guard lock(out.acknowledged.mutex);
                    if (dataRequest && reply.status == 200) {
                        out.acknowledged.requestIds.push_back(answer.value("request_id", ""));
                        break;
                    }
                    if (!dataRequest && (reply.status == 201 || reply.status == 409)) {
                        // 409: an earlier attempt was stored although its answer was lost.
                        const std::string id = answer.contains("coreQueryId")
                                                   ? answer["coreQueryId"].get<std::string>()
                                                   : answer.value("id", std::string());
                        out.acknowledged.proofIds.push_back(id);
                        out.acknowledged.dedupIds.insert(dedupId);
                        break;
                    }
                    ++out.retries;
                    QThread::msleep(50); // the server is down or restarting
                }
            }
        });
    }
    // Kill at random moments while submissions flow.
    std::mt19937 random(42);
    for (int k = 0; k < kills; ++k) {
        const int target = load.total * (k + 1) / (kills + 1);
        while (next.load() < target) {
            QThread::msleep(5);
        }
        QThread::msleep(random() % 100);
        server.kill();
        std::printf("SIGKILL %d after %d submissions started\n", k + 1, next.load());
        if (!server.start()) {
            for (std::thread& thread : threads) {
                thread.join();
            }
            return false;
        }
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    return true;
}

// Every acknowledged proof query exists and ends DONE, or FAILED with a reason.
void checkProofQueries(test::TestHttp& http, const std::set<std::string>& uniqueProofIds,
                       Outcomes& out) {
    for (const std::string& id : uniqueProofIds) {
        QDeadlineTimer deadline(120000);
        json query;
        int status = 0;
        while (!deadline.hasExpired()) {
            const test::Reply reply = http.get("/core-query/" + id);
            status = reply.status;
            query = reply.json()["coreQuery"];
            if (status != 200 || terminalProof(query.value("status", ""))) {
                break;
            }
            QThread::msleep(20);
        }
        if (status != 200) {
            ++out.lost;
        } else if (!terminalProof(query.value("status", ""))) {
            ++out.unfinished;
        } else if (query["status"] == "DONE") {
            ++out.done;
        } else {
            ++out.failed;
            if (!query["errorReason"].is_string() ||
                query["errorReason"].get<std::string>().empty()) {
                ++out.failedWithoutReason;
            }
        }
    }
}

// Every acknowledged data request's queries exist and end COMPLETED, or FAILED with an action
// saying why.
void checkDataRequests(test::TestHttp& http, const std::vector<std::string>& requestIds,
                       Outcomes& out) {
    for (const std::string& id : requestIds) {
        QDeadlineTimer deadline(120000);
        json queries;
        bool finished = false;
        while (!deadline.hasExpired()) {
            queries = http.get("/get_queries/" + id).json()["queries"];
            finished = !queries.empty();
            for (const json& query : queries) {
                const std::string status = query.value("status", "");
                finished = finished && (status == "COMPLETED" || status == "FAILED");
            }
            if (finished || queries.empty()) {
                break;
            }
            QThread::msleep(20);
        }
        if (queries.empty()) {
            ++out.lost;
            continue;
        }
        if (!finished) {
            ++out.unfinished;
            continue;
        }
        for (const json& query : queries) {
            if (query.value("status", "") == "COMPLETED") {
                ++out.completed;
                continue;
            }
            ++out.failed;
            bool reason = false;
            const json actions =
                http.get("/get_actions/" + query.value("internal_id", "")).json()["actions"];
            for (const json& action : actions) {
                reason = reason ||
                         action.value("method", json::object()).value("error", json()).is_string();
            }
            out.failedWithoutReason += reason ? 0 : 1;
        }
    }
}

// The stored proof queries, and how many dedupIds are stored twice (none may be).
std::pair<int, int> storedAndDuplicates(test::TestHttp& http, const std::string& key) {
    int stored = 0, duplicates = 0;
    std::map<std::string, int> perDedup;
    for (int offset = 0;; offset += 500) {
        const json page =
            http.get("/core-queries?limit=500&offset=" + std::to_string(offset), {{"api-key", key}})
                .json();
        const json data = page.value("coreQueries", json::array());
        for (const json& query : data) {
            ++stored;
            const json dedupId = query.value("dedupId", json());
            if (dedupId.is_string() && ++perDedup[dedupId.get<std::string>()] == 2) {
                ++duplicates;
            }
        }
        if (data.size() < 500) {
            break;
        }
    }
    return {stored, duplicates};
}

// Every artifact on disk still has the digest it is stored under: (artifacts, bad ones).
std::pair<int, int> verifyArtifacts(const QTemporaryDir& dataDir) {
    int artifacts = 0, badArtifacts = 0;
    {
        core::Store store(dataDir.filePath(QStringLiteral("proofdesk.sqlite")));
        proof::ArtifactStore files(dataDir.filePath(QStringLiteral("artifacts")));
        QSqlQuery rows = store.exec(QStringLiteral("SELECT DISTINCT sha256 FROM proof_artifacts"));
        while (rows.next()) {
            const std::string digest = rows.value(0).toString().toStdString();
            const auto bytes = files.get(digest);
            ++artifacts;
            if (!bytes || proof::ArtifactStore::sha256Of(*bytes) != digest) {
                ++badArtifacts;
            }
        }
    }

    return {artifacts, badArtifacts};
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption binaryOption(QStringLiteral("binary"), QStringLiteral("proofdesk"),
                                          QStringLiteral("path"));
    const QCommandLineOption submissionsOption(QStringLiteral("submissions"),
                                               QStringLiteral("How many."), QStringLiteral("n"),
                                               QStringLiteral("1000"));
    const QCommandLineOption killsOption(QStringLiteral("kills"), QStringLiteral("SIGKILLs."),
                                         QStringLiteral("n"), QStringLiteral("5"));
    const QCommandLineOption clientsOption(QStringLiteral("clients"),
                                           QStringLiteral("Concurrent clients."),
                                           QStringLiteral("n"), QStringLiteral("4"));
    parser.addOptions({binaryOption, submissionsOption, killsOption, clientsOption});
    parser.process(app);
    const int total = parser.value(submissionsOption).toInt();
    const int kills = parser.value(killsOption).toInt();
    const int clients = std::max(1, parser.value(clientsOption).toInt());

    QFile sample(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/fibonacci.json"));
    if (!sample.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "resources/samples/fibonacci.json is missing\n");
        return 2;
    }
    const std::string program = sample.readAll().toStdString();

    QTemporaryDir dataDir;
    test::DevChain chain;
    QString chainError;
    const bool withChain = chain.start(&chainError);
    if (withChain) {
        chain.mine(20);
    } else {
        std::printf("no dev chain (%s): proof queries only\n", qPrintable(chainError));
    }
    const int port = freePort();
    QStringList arguments{QStringLiteral("serve"),
                          QStringLiteral("--listen"),
                          QStringLiteral("127.0.0.1:%1").arg(port),
                          QStringLiteral("--data-dir"),
                          dataDir.path(),
                          QStringLiteral("--prover"),
                          QStringLiteral("mock")};
    if (withChain) {
        arguments << QStringLiteral("--chain-rpc") << QStringLiteral("11155111=") + chain.url();
    }
    QProcess keys;
    keys.start(parser.value(binaryOption),
               {QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--data-dir"),
                dataDir.path(), QStringLiteral("--project"), QStringLiteral("soak")});
    keys.waitForFinished(30000);
    const std::string key = QString::fromUtf8(keys.readAllStandardOutput()).trimmed().toStdString();
    if (key.empty()) {
        std::fprintf(stderr, "could not mint a key\n");
        return 2;
    }
    Server server(parser.value(binaryOption), arguments);
    if (!server.start()) {
        return 2;
    }
    const Load load{
        QStringLiteral("http://127.0.0.1:%1").arg(port), key, program, total, clients, withChain};
    Submitted submitted;
    if (!submitWhileKilling(load, server, kills, submitted)) {
        return 2;
    }
    const Acknowledged& acknowledged = submitted.acknowledged;

    test::TestHttp http(load.url);
    Outcomes outcomes;
    const std::set<std::string> uniqueProofIds(acknowledged.proofIds.begin(),
                                               acknowledged.proofIds.end());
    checkProofQueries(http, uniqueProofIds, outcomes);
    checkDataRequests(http, acknowledged.requestIds, outcomes);
    const auto [stored, duplicates] = storedAndDuplicates(http, key);
    server.checkAlive();
    server.stop();
    const auto [artifacts, badArtifacts] = verifyArtifacts(dataDir);

    std::printf("submissions %d (HTTP attempts %d, retried while down %d), SIGKILLs %d\n", total,
                submitted.sent.load(), submitted.retries.load(), kills);
    std::printf("acknowledged: %zu proof queries, %zu data requests\n", uniqueProofIds.size(),
                acknowledged.requestIds.size());
    std::printf("stored proof queries %d (acknowledged %zu; a few more when an answer was lost)\n",
                stored, uniqueProofIds.size());
    std::printf("terminal: proof DONE %d, request queries COMPLETED %d, FAILED %d (without a "
                "reason: %d)\n",
                outcomes.done, outcomes.completed, outcomes.failed, outcomes.failedWithoutReason);
    std::printf("lost acknowledged %d, unfinished %d, duplicates %d, artifacts verified %d (bad "
                "%d)\n",
                outcomes.lost, outcomes.unfinished, duplicates, artifacts, badArtifacts);
    std::printf("poison requests answered %d of %d; unexpected server exits %d\n",
                submitted.poisonsAnswered.load(), total / 10, server.unexpectedExits());
    const bool ok = outcomes.lost == 0 && outcomes.unfinished == 0 && duplicates == 0 &&
                    badArtifacts == 0 && server.unexpectedExits() == 0 &&
                    submitted.poisonsAnswered.load() == total / 10 &&
                    stored >= int(uniqueProofIds.size()) && outcomes.failedWithoutReason == 0 &&
                    int(uniqueProofIds.size() + acknowledged.requestIds.size()) == total;
    std::printf("%s\n", ok ? "SOAK OK" : "SOAK FAILED");
    return ok ? 0 : 1;
}
