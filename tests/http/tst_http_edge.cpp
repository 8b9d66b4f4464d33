#include "TestHttp.h"
#include "TestServer.h"

#include "auth/ApiKeyRegistry.h"
#include "core/ServiceError.h"
#include "http/ApiKeyLocation.h"
#include "http/ErrorMapping.h"
#include "http/ListenAddress.h"
#include "http/RequestLog.h"
#include "http/Router.h"
#include "routes/ApiKeyGate.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>

#include <QTest>
#include <QUrl>
#include <mutex>

#include <atomic>
#include <thread>

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

namespace {

std::string sampleProgram() {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/fibonacci.json"));
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

} // namespace

class HttpEdgeTest : public QObject {
    Q_OBJECT
private slots:
    // `curl -X POST URL` sends neither Content-Length nor Transfer-Encoding: no body. The answer
    // must come at once, not after the 10 s read timeout the server library would wait.
    void bodilessPostWithoutContentLengthIsAnsweredAtOnce() {
        TestServer server;
        const QUrl url(server.url());
        QTcpSocket socket;
        socket.connectToHost(url.host(), quint16(url.port()));
        QVERIFY(socket.waitForConnected(5000));
        socket.write("POST /buckets/close HTTP/1.1\r\nHost: localhost\r\n\r\n");
        QByteArray answer;
        QDeadlineTimer deadline(3000); // well under the 10 s read timeout
        while (!answer.contains("MISSING_API_KEY") && !deadline.hasExpired()) {
            socket.waitForReadyRead(int(deadline.remainingTime()));
            answer += socket.readAll();
        }
        QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
        QVERIFY(answer.contains(R"({"error":"MISSING_API_KEY"})"));
        QTRY_VERIFY_WITH_TIMEOUT(!server.server().requestLog().recent().empty(), 5000);
        QCOMPARE(server.server().requestLog().recent().back().path,
                 QStringLiteral("/buckets/close"));
    }

    // `serve` writes each entry to a QTextStream, which is not thread-safe: the sink must never be
    // entered by two serving threads at once (it was, and 128 threads corrupted the heap).
    void requestLogSinkCallsDoNotOverlap() {
        http::RequestLog log;
        std::atomic<int> inside{0};
        std::atomic<int> overlaps{0};
        std::atomic<int> calls{0};
        log.setSink([&](const http::RequestLogEntry&) {
            if (inside.fetch_add(1) != 0) {
                ++overlaps;
            }
            std::this_thread::yield();
            ++calls;
            inside.fetch_sub(1);
        });
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t) {
            threads.emplace_back([&log] {
                for (int i = 0; i < 2000; ++i) {
                    log.record({});
                }
            });
        }
        for (std::thread& thread : threads) {
            thread.join();
        }
        log.flush();
        QCOMPARE(calls.load(), 16000);
        QCOMPARE(overlaps.load(), 0);
    }

    // Found by the soak: `serve` logs each request to stderr; into a pipe nobody drained, the
    // write blocked and every request waited behind it. The sink now blocks only the log.
    void aBlockedRequestLogSinkDoesNotStallRequests() {
        TestServer server;
        std::mutex gate;
        std::unique_lock closed(gate);
        std::atomic<int> delivered{0};
        server.server().requestLog().setSink([&](const http::RequestLogEntry&) {
            std::lock_guard wait(gate); // blocked until the test opens the gate
            ++delivered;
        });
        TestHttp http(server.url());
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 50; ++i) {
            QCOMPARE(http.get("/is-alive").status, 200);
        }
        QVERIFY2(timer.elapsed() < 5000, "requests waited for the log sink");
        QCOMPARE(delivered.load(), 0);
        // The server records a request just after answering it.
        QTRY_COMPARE(server.server().requestLog().recent().size(), std::size_t(50));
        closed.unlock();
        server.server().requestLog().flush();
        QCOMPARE(delivered.load(), 50);
    }

    void aFullRequestLogBacklogDropsAndCounts() {
        http::RequestLog log(10, 4);
        std::mutex gate;
        std::unique_lock closed(gate);
        std::atomic<int> delivered{0};
        log.setSink([&](const http::RequestLogEntry&) {
            std::lock_guard wait(gate);
            ++delivered;
        });
        for (int i = 0; i < 20; ++i) {
            log.record({});
        }
        closed.unlock();
        log.flush();
        QCOMPARE(std::uint64_t(delivered.load()) + log.dropped(), std::uint64_t(20));
        QVERIFY(log.dropped() >= 15); // at most the backlog and the one in hand got through
        QCOMPARE(log.recent().size(), std::size_t(10));
    }

    void isAliveAnswers() {
        TestServer server;
        QVERIFY2(server.ok(), qPrintable(server.error()));
        TestHttp http(server.url());
        const Reply reply = http.get("/is-alive");
        QCOMPARE(reply.status, 200);
        COMPARE_JSON(reply.json(), json({{"message", "Alive!"}}));
        QCOMPARE(reply.header("Content-Type"), std::string("application/json"));
    }

    // Found by fuzz_multipart: a part name that is not UTF-8 made the error body fail to
    // serialise, and the client got the library's bare 500.
    void errorsEchoingNonUtf8InputStayJson() {
        TestServer server;
        TestHttp http(server.url());
        const std::string key = server.mintKey(QStringLiteral("edge")).toStdString();
        const Reply reply =
            http.postMultipart("/core-query", {{"\xc7\xc7name", "x"}}, {{"api-key", key}});
        QCOMPARE(reply.status, 400);
        const json body = reply.json();
        QCOMPARE(body["message"].get<std::string>(), std::string("UNKNOWN_PART"));
        QVERIFY(body["detail"].get<std::string>().find("\xef\xbf\xbd") != std::string::npos);
        // A text part that is not UTF-8 where a stored record would keep it.
        const Reply stored = http.postMultipart(
            "/core-query", {{"programFile", sampleProgram(), "p.json"}, {"externalId", "\xc7\xc7"}},
            {{"api-key", key}});
        QCOMPARE(stored.status, 400);
        QCOMPARE(stored.json()["message"].get<std::string>(), std::string("INVALID_UTF8"));
    }

    void unknownRoutesAndWrongMethodsAreJson() {
        TestServer server;
        TestHttp http(server.url());
        const Reply missing = http.get("/no/such/route");
        QCOMPARE(missing.status, 404);
        COMPARE_JSON(missing.json(), json({{"message", "NOT_FOUND"}}));
        const Reply wrongMethod = http.send("DELETE", "/is-alive");
        QCOMPARE(wrongMethod.status, 405);
        COMPARE_JSON(wrongMethod.json(), json({{"message", "METHOD_NOT_ALLOWED"}}));
        QCOMPARE(wrongMethod.header("Allow"), std::string("GET"));
        const Reply postOnGet = http.post("/api-keys/x", "{}");
        QCOMPARE(postOnGet.status, 404);
    }

    void requestLogRecordsMethodPathStatusAndTime() {
        TestServer server;
        TestHttp http(server.url());
        http.get("/is-alive");
        http.get("/nope");
        QTRY_COMPARE_WITH_TIMEOUT(server.server().requestLog().recent().size(), std::size_t(2),
                                  5000);
        const auto entries = server.server().requestLog().recent();
        QCOMPARE(entries[0].method, QStringLiteral("GET"));
        QCOMPARE(entries[0].path, QStringLiteral("/is-alive"));
        QCOMPARE(entries[0].status, 200);
        QVERIFY(entries[0].milliseconds >= 0);
        QCOMPARE(entries[1].status, 404);
    }

    void perServiceListenersServeOnlyTheirService() {
        server::ServerOptions options;
        options.authListen = http::ListenAddress{QStringLiteral("127.0.0.1"), 0};
        options.requestListen = http::ListenAddress{QStringLiteral("127.0.0.1"), 0};
        TestServer server(options);
        QVERIFY2(server.ok(), qPrintable(server.error()));
        QVERIFY(server.server().authUrl() != server.url());
        TestHttp auth(server.server().authUrl());
        TestHttp request(server.server().requestUrl());
        QCOMPARE(auth.get("/is-alive").status, 404);
        QCOMPARE(auth.get("/auth/web3/challenge?wallet=0x" + std::string(40, 'a')).status, 200);
        QCOMPARE(request.get("/is-alive").status, 200);
        QCOMPARE(request.get("/auth/web3/challenge?wallet=0x" + std::string(40, 'a')).status, 404);
        // The challenge names the sign-in service's own address.
        const json challenge =
            auth.get("/auth/web3/challenge?wallet=0x" + std::string(40, 'a')).json();
        QCOMPARE(challenge["eip712"]["message"]["uri"].get<std::string>(),
                 server.server().authUrl().toStdString());
    }

    void nonLoopbackNeedsAllowRemote() {
        QTemporaryDir dir;
        server::ServerOptions options;
        options.dataDir = dir.path();
        options.listen = {QStringLiteral("0.0.0.0"), 0};
        server::LocalServer refused(options);
        QString error;
        QVERIFY(!refused.start(&error));
        QVERIFY(error.contains(QStringLiteral("--allow-remote")));

        options.allowRemote = true;
        server::LocalServer allowed(options);
        QVERIFY2(allowed.start(&error), qPrintable(error));
        QCOMPARE(allowed.warnings().size(), 1);
        allowed.stop();
    }

    void aFailedExtraListenerLeavesNoServer() {
        TestServer first;
        QVERIFY(first.ok());
        const int taken = QUrl(first.url()).port();
        QTemporaryDir dir;
        server::ServerOptions options;
        options.dataDir = dir.path();
        options.listen = {QStringLiteral("127.0.0.1"), 0};
        options.authListen = http::ListenAddress{QStringLiteral("127.0.0.1"), taken};
        server::LocalServer second(options);
        QString error;
        QVERIFY(!second.start(&error));
        QVERIFY(error.contains(QString::number(taken)));
        QVERIFY(second.mainUrl().isEmpty());
    }

    void listenAddressesParse() {
        QCOMPARE(http::parseListenAddress(QStringLiteral("127.0.0.1:7300"))->port, 7300);
        QCOMPARE(http::parseListenAddress(QStringLiteral("[::1]:80"))->host, QStringLiteral("::1"));
        QVERIFY(!http::parseListenAddress(QStringLiteral("7300")));
        QVERIFY(!http::parseListenAddress(QStringLiteral("host:99999")));
        QVERIFY(http::isLoopbackHost(QStringLiteral("127.8.0.1")));
        QVERIFY(http::isLoopbackHost(QStringLiteral("localhost")));
        QVERIFY(!http::isLoopbackHost(QStringLiteral("10.0.0.1")));
    }

    void apiKeyIsTakenFromAnyOfItsPlaces() {
        http::HttpRequest request;
        QCOMPARE(http::apiKeyOf(request), std::string());
        request.query.emplace("apiKey", "from-query");
        QCOMPARE(http::apiKeyOf(request), std::string("from-query"));
        request.headers.emplace("X-Api-Key", "from-x-header");
        QCOMPARE(http::apiKeyOf(request), std::string("from-x-header"));
        request.headers.emplace("API-KEY", "from-header");
        QCOMPARE(http::apiKeyOf(request), std::string("from-header"));
    }

    void apiKeyGateRefusesMissingAndInvalidKeys() {
        TestServer server;
        auth::ApiKeyRegistry& keys = server.server().apiKeys();
        const QString project = keys.adminProjectNamed(QStringLiteral("ci"));
        const api::ApiKeyRecord key =
            keys.mintKey(project, QStringLiteral("k"), QStringLiteral("#000"));
        http::HttpRequest request;
        try {
            routes::requireApiKey(request, keys);
            QFAIL("no key accepted");
        } catch (const core::ServiceError& error) {
            QCOMPARE(error.code(), std::string("MISSING_API_KEY"));
            QCOMPARE(http::statusFor(error.kind()), 401);
        }
        request.headers.emplace("api-key", "pdk_wrong");
        try {
            routes::requireApiKey(request, keys);
            QFAIL("wrong key accepted");
        } catch (const core::ServiceError& error) {
            QCOMPARE(error.code(), std::string("INVALID_API_KEY"));
        }
        http::HttpRequest good;
        good.headers.emplace("x-api-key", key.apiKey);
        QCOMPARE(routes::requireApiKey(good, keys).projectId, project);
        // The same admin project is found again by name.
        QCOMPARE(keys.adminProjectNamed(QStringLiteral("ci")), project);
    }

    void errorBodiesFollowTheRouteShape() {
        const core::ServiceError error(core::ErrorKind::Conflict,
                                       "CORE_QUERY_WITH_DEDUP_ID_ALREADY_EXISTS", {},
                                       {{"coreQueryId", "01X"}});
        QCOMPARE(
            http::errorResponse(error, http::ErrorBody::MessageField).body,
            json({{"message", "CORE_QUERY_WITH_DEDUP_ID_ALREADY_EXISTS"}, {"coreQueryId", "01X"}})
                .dump());
        const core::ServiceError bad(core::ErrorKind::Unprocessable, "INVALID_SELECTOR");
        const http::HttpResponse shaped = http::errorResponse(bad, http::ErrorBody::StatusAndError);
        QCOMPARE(shaped.status, 422);
        QCOMPARE(shaped.body, json({{"status", "error"}, {"error", "INVALID_SELECTOR"}}).dump());
        const core::ServiceError internal(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                          "disk full");
        QCOMPARE(http::errorResponse(internal, http::ErrorBody::ErrorField).body,
                 json({{"error", "INTERNAL_SERVER_ERROR"}}).dump());
    }

    void unexpectedExceptionsBecomeInternalServerError() {
        http::Router router;
        router.add({"GET", "/boom", http::RouteGroup::Proof, http::ErrorBody::ErrorField,
                    http::kJsonBodyLimit, [](const http::HttpRequest&) -> http::HttpResponse {
                        throw std::logic_error("bug");
                    }});
        http::HttpRequest request;
        request.method = "GET";
        request.path = "/boom";
        const http::HttpResponse response = router.dispatch(request, {http::RouteGroup::Proof});
        QCOMPARE(response.status, 500);
        QCOMPARE(response.body, json({{"error", "INTERNAL_SERVER_ERROR"}}).dump());
        // A group the listener does not serve is not found.
        QCOMPARE(router.dispatch(request, {http::RouteGroup::Auth}).status, 404);
    }

    // Issue #45: a write the store rolled back (a conflict with another writer, a lost
    // connection: 503 STORE_BUSY) is run again from the start before the client hears of it.
    void aRequestWhoseWriteWasRolledBackRunsAgain() {
        http::Router router;
        int calls = 0;
        int failures = 0;
        const auto busy = [] {
            return core::ServiceError(core::ErrorKind::Unavailable, "STORE_BUSY", "try again");
        };
        router.add({"POST", "/flaky", http::RouteGroup::Proof, http::ErrorBody::MessageField,
                    http::kJsonBodyLimit, [&](const http::HttpRequest&) {
                        ++calls;
                        if (calls <= failures) {
                            throw busy();
                        }
                        return http::HttpResponse::json(201, {{"calls", calls}});
                    }});
        router.add({"GET", "/read", http::RouteGroup::Proof, http::ErrorBody::MessageField,
                    http::kJsonBodyLimit, [&](const http::HttpRequest&) -> http::HttpResponse {
                        ++calls;
                        throw busy();
                    }});
        http::HttpRequest post;
        post.method = "POST";
        post.path = "/flaky";
        failures = http::kStoreBusyAttempts - 1;
        http::HttpResponse answer = router.dispatch(post, {http::RouteGroup::Proof});
        QCOMPARE(answer.status, 201);
        QCOMPARE(calls, http::kStoreBusyAttempts);
        // Busy every time: the client hears 503 after the last attempt.
        calls = 0;
        failures = 100;
        answer = router.dispatch(post, {http::RouteGroup::Proof});
        QCOMPARE(answer.status, 503);
        QCOMPARE(json::parse(answer.body)["message"].get<std::string>(), std::string("STORE_BUSY"));
        QCOMPARE(calls, http::kStoreBusyAttempts);
        // A read on the event loop is not held there: answered at once.
        calls = 0;
        http::HttpRequest read;
        read.method = "GET";
        read.path = "/read";
        QCOMPARE(router.dispatch(read, {http::RouteGroup::Proof}).status, 503);
        QCOMPARE(calls, 1);
    }
};

QTEST_GUILESS_MAIN(HttpEdgeTest)
#include "tst_http_edge.moc"
