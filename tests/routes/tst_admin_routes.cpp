// GET /admin/status (ours, docs/api.md "Administration"): the server's store, job workers and
// queue, for admin keys only. Runs on both stores (tst_admin_routes_postgres).

#include "TestHttp.h"
#include "TestServer.h"
#include "TestStore.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <set>

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

namespace {

std::set<std::string> keysOf(const json& object) {
    std::set<std::string> keys;
    for (auto it = object.begin(); it != object.end(); ++it) {
        keys.insert(it.key());
    }
    return keys;
}

} // namespace

class AdminRoutesTest : public QObject {
    Q_OBJECT
private slots:
    void statusIsForAdminKeysOnly() {
        TestServer server;
        QVERIFY2(server.ok(), qPrintable(server.error()));
        const std::string projectKey = server.mintKey(QStringLiteral("alpha")).toStdString();
        const std::string adminKey =
            server.mintKey(QStringLiteral("operators"), auth::KeyRole::Admin).toStdString();
        TestHttp http(server.url());

        const Reply anonymous = http.get("/admin/status");
        QCOMPARE(anonymous.status, 401);
        QCOMPARE(anonymous.json().dump(), json({{"message", "MISSING_API_KEY"}}).dump());
        const Reply forged = http.get("/admin/status", {{"api-key", "pdk_forged"}});
        QCOMPARE(forged.status, 401);
        QCOMPARE(forged.json().dump(), json({{"message", "INVALID_API_KEY"}}).dump());
        // A project key does its project's work and no more: the status names every project.
        const Reply project = http.get("/admin/status", {{"api-key", projectKey}});
        QCOMPARE(project.status, 403);
        QCOMPARE(project.json()["message"].get<std::string>(), std::string("ADMIN_KEY_REQUIRED"));
        QVERIFY(project.json()["detail"].get<std::string>().find("keys create --admin") !=
                std::string::npos);
        QCOMPARE(http.get("/credits", {{"api-key", projectKey}}).status, 200);

        const Reply status = http.get("/admin/status", {{"x-api-key", adminKey}});
        QCOMPARE(status.status, 200);
        const json body = status.json();
        QCOMPARE(keysOf(body), (std::set<std::string>{"queue", "shared", "store", "workers"}));
        QCOMPARE(body["shared"].get<bool>(), testStoreIsPostgres());
        QCOMPARE(body["queue"].dump(), std::string("[]"));
        // This server runs its jobs: it is the one worker alive, with its three threads.
        QCOMPARE(body["workers"].size(), std::size_t(1));
        const json& worker = body["workers"][0];
        QCOMPARE(keysOf(worker), (std::set<std::string>{"host", "lastHeartbeatMsAgo", "name", "pid",
                                                        "runningJob", "threads"}));
        QCOMPARE(worker["threads"].get<int>(), 3);
        QCOMPARE(worker["pid"].get<qint64>(), qint64(QCoreApplication::applicationPid()));
        QCOMPARE(worker["runningJob"].get<std::string>(), std::string());
        // An admin key is a key of its project too.
        QCOMPARE(http.get("/credits", {{"api-key", adminKey}}).status, 200);
    }
};

QTEST_GUILESS_MAIN(AdminRoutesTest)
#include "tst_admin_routes.moc"
