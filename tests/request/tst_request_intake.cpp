// The request service's intake over HTTP (docs/api.md), without a chain: keys, malformed and
// mistyped bodies, every value the spec refuses (422 with its code), a stalled body (408),
// unknown ids, and grow-order refusals, each in the spec's error shape.

#include "RequestTestSupport.h"
#include "TestHttp.h"
#include "TestServer.h"

#include <QDeadlineTimer>
#include <QTcpSocket>
#include <QTest>

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class RequestIntakeTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<TestHttp> m_http;
    Headers m_key;

    Reply submit(const json& body) { return m_http->postJson("/submit-request", body, m_key); }

    void expectRefusal(const json& body, int status, const std::string& code) {
        const Reply reply = submit(body);
        QCOMPARE(reply.status, status);
        const json answer = reply.json();
        QCOMPARE(answer["status"].get<std::string>(), std::string("error"));
        QCOMPARE(answer["error"].get<std::string>(), code);
    }

private slots:
    void initTestCase() {
        m_server = std::make_unique<TestServer>(requestTestOptions(QString()));
        QVERIFY2(m_server->ok(), qPrintable(m_server->error()));
        m_http = std::make_unique<TestHttp>(m_server->url());
        m_key = {{"api-key", m_server->mintKey(QStringLiteral("requests")).toStdString()}};
    }

    void isAlive() {
        const Reply reply = m_http->get("/is-alive");
        QCOMPARE(reply.status, 200);
        COMPARE_JSON(reply.json(), (json{{"message", "Alive!"}}));
    }

    void refusesWithoutKey() {
        const Reply reply = m_http->postJson("/submit-request", json::object());
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.json()["status"].get<std::string>(), std::string("error"));
        QCOMPARE(reply.json()["error"].get<std::string>(), std::string("MISSING_API_KEY"));
        const Reply orders = m_http->get("/grow-orders");
        QCOMPARE(orders.status, 401);
        QCOMPARE(orders.json()["message"].get<std::string>(), std::string("MISSING_API_KEY"));
    }

    void refusesMalformedAndMistyped() {
        const Reply malformed = m_http->post("/submit-request", "{\"data\":", m_key);
        QCOMPARE(malformed.status, 400);
        QCOMPARE(malformed.json()["error"].get<std::string>(), std::string("MALFORMED_JSON"));
        expectRefusal({{"destination_chain_id", "1"}, {"data", "yes"}}, 400, "INVALID_TYPE");
        expectRefusal({{"destination_chain_id", "1"},
                       {"data", {{"1", {{"block:1", {{"header", "StateRoot"}}}}}}}},
                      400, "INVALID_TYPE");
        expectRefusal(
            {{"destination_chain_id", "1"},
             {"data", {{"1", {{"proving", {{"block:1", nullptr}}}, {"fact_hashes", "x"}}}}}},
            400, "INVALID_TYPE");
    }

    void refusesInvalidValues_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("code");
        auto row = [](const char* name, const json& body, const char* code) {
            QTest::newRow(name) << QByteArray::fromStdString(body.dump()) << QByteArray(code);
        };
        auto data = [](const json& chainEntry) {
            return json{{"destination_chain_id", "11155111"}, {"data", {{"11155111", chainEntry}}}};
        };
        row("unknown chain",
            {{"destination_chain_id", "5"}, {"data", {{"11155111", {{"block:1", nullptr}}}}}},
            "INVALID_CHAIN_ID");
        row("unknown origin",
            {{"destination_chain_id", "1"}, {"data", {{"137", {{"block:1", nullptr}}}}}},
            "INVALID_CHAIN_ID");
        row("starknet origin",
            {{"destination_chain_id", "1"}, {"data", {{"STARKNET", {{"block:1", nullptr}}}}}},
            "UNSUPPORTED_ORIGIN_CHAIN");
        row("selector grammar", data({{"blocks:1", nullptr}}), "INVALID_SELECTOR");
        row("selector negative", data({{"block:-1", nullptr}}), "INVALID_SELECTOR");
        row("selector int64 overflow", data({{"block:9223372036854775808", nullptr}}),
            "INVALID_SELECTOR");
        row("ranges unsorted", data({{"block_ranges:10-20,5-6", nullptr}}), "INVALID_BLOCK_RANGES");
        row("ranges overlapping", data({{"block_ranges:1-5,5-9", nullptr}}),
            "INVALID_BLOCK_RANGES");
        row("range backwards", data({{"block_ranges:9-1", nullptr}}), "INVALID_BLOCK_RANGES");
        row("header field", data({{"block:1", {{"header", {"StateRoots"}}}}}),
            "INVALID_HEADER_FIELD");
        row("account field",
            data(
                {{"block:1",
                  {{"accounts",
                    {{"0x0000000000000000000000000000000000000001", {{"props", {"Balanse"}}}}}}}}}),
            "INVALID_ACCOUNT_FIELD");
        row("ape field off ApeChain",
            data({{"block:1",
                   {{"accounts",
                     {{"0x0000000000000000000000000000000000000001",
                       {{"props", {"ApeShares"}}}}}}}}}),
            "INVALID_ACCOUNT_FIELD");
        row("account not an address",
            data({{"block:1", {{"accounts", {{"0x1234", {{"props", {"Nonce"}}}}}}}}}),
            "INVALID_ACCOUNT");
        row("slot not hex",
            data({{"block:1",
                   {{"accounts",
                     {{"0x0000000000000000000000000000000000000001", {{"slots", {"0xzz"}}}}}}}}}),
            "INVALID_STORAGE_SLOT");
        row("slot too long",
            data({{"block:1",
                   {{"accounts",
                     {{"0x0000000000000000000000000000000000000001",
                       {{"slots", {"0x" + std::string(66, '1')}}}}}}}}}),
            "INVALID_STORAGE_SLOT");
        row("duplicate hashing function",
            data({{"block:1", {{"hashing_functions", {"KECCAK", "keccak"}}}}}),
            "DUPLICATE_HASHING_FUNCTION");
        row("fact hash length",
            data({{"proving", json::object()},
                  {"fact_hashes", {{{"fact_hash", json::array_t(31, 1)}, {"is_mocked", true}}}}}),
            "INVALID_FACT_HASH");
        row("fact hash byte",
            data({{"proving", json::object()},
                  {"fact_hashes", {{{"fact_hash", fact32(256)}, {"is_mocked", true}}}}}),
            "INVALID_FACT_HASH");
        json badSettings = data({{"block:1", nullptr}});
        badSettings["settings"] = {{"max_cost", 1.5}, {"max_time", 10}, {"optimize", "Speed"}};
        row("settings optimize", badSettings, "INVALID_SETTINGS");
        json missingSetting = data({{"block:1", nullptr}});
        missingSetting["settings"] = {{"max_cost", 1.5}, {"optimize", "Time"}};
        row("settings max_time missing", missingSetting, "MISSING_FIELD");
        json badFee = data({{"block:1", nullptr}});
        badFee["fee"] = "-3";
        row("fee negative", badFee, "INVALID_FEE");
        json typo = data({{"block:1", nullptr}});
        typo["destination"] = "1";
        row("unknown field", typo, "UNKNOWN_FIELD");
        row("nothing requested", data(json::object()), "MISSING_FIELD");
        // Issue #18: bounded before any work (a 7,000-item selector recursed in std::regex).
        std::string ranges = "block_ranges:0";
        for (int i = 1; i < 7000; ++i) {
            ranges += ',';
            ranges += std::to_string(2 * i);
        }
        row("7,000 ranges", data({{ranges, nullptr}}), "TOO_MANY_BLOCK_RANGES");
        row("range not a number", data({{"block_ranges:1-2,x", nullptr}}), "INVALID_SELECTOR");
        json hugeTime = data({{"block:1", nullptr}});
        hugeTime["settings"] = {{"max_cost", 1.5}, {"max_time", 1e308}, {"optimize", "Time"}};
        row("settings max_time 1e308", hugeTime, "INVALID_SETTINGS");
        json accounts = json::object();
        for (int i = 0; i < 1001; ++i) {
            char address[43];
            std::snprintf(address, sizeof address, "0x%040x", i + 1);
            accounts[address] = nullptr;
        }
        row("1,001 accounts", data({{"block:1", {{"accounts", accounts}}}}), "TOO_MANY_ACCOUNTS");
    }

    void refusesInvalidValues() {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, code);
        expectRefusal(json::parse(body.toStdString()), 422, code.toStdString());
    }

    void answers408WhenTheBodyStalls() {
        QTcpSocket socket;
        const QUrl url(m_server->url());
        socket.connectToHost(url.host(), quint16(url.port()));
        QVERIFY(socket.waitForConnected(5000));
        socket.write(QByteArray("POST /submit-request HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: ") +
                     QByteArray::fromStdString(m_key.begin()->second) +
                     "\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
                     "{\"data\":");
        QVERIFY(socket.waitForBytesWritten(5000));
        QByteArray answer;
        QDeadlineTimer deadline(10000);
        while (!answer.contains("}") && !deadline.hasExpired()) {
            socket.waitForReadyRead(200);
            answer += socket.readAll();
        }
        QVERIFY2(answer.startsWith("HTTP/1.1 408"), answer.constData());
        QVERIFY(answer.contains(R"({"status":"error","error":"REQUEST_TIMEOUT"})"));
    }

    void unknownRequestHasNoQueries() {
        const Reply reply = m_http->get("/get_queries/01ARZ3NDEKTSV4RRFFQ69G5FAV");
        QCOMPARE(reply.status, 200);
        COMPARE_JSON(reply.json(), (json{{"queries", json::array()}}));
        COMPARE_JSON(m_http->get("/get_actions/nothing").json(),
                     (json{{"actions", json::array()}}));
    }

    void growOrderRefusalsAndNotFound() {
        Reply reply =
            m_http->postJson("/grow-orders", {{"accumulated_chain_id", "11155111"}}, m_key);
        QCOMPARE(reply.status, 400);
        QVERIFY(reply.json().contains("message"));
        reply = m_http->postJson("/grow-orders",
                                 {{"accumulated_chain_id", "11155111"},
                                  {"settle_chain_id", "1"},
                                  {"hashing_functions", {"SHA3"}},
                                  {"min_batch_size", 1}},
                                 m_key);
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.json()["message"].get<std::string>(),
                 std::string("INVALID_HASHING_FUNCTIONS"));
        reply = m_http->get("/grow-orders/01ARZ3NDEKTSV4RRFFQ69G5FAV", m_key);
        QCOMPARE(reply.status, 404);
        COMPARE_JSON(reply.json(), (json{{"message", "GROW_ORDER_NOT_FOUND"}}));
        reply = m_http->post("/grow-orders/01ARZ3NDEKTSV4RRFFQ69G5FAV/cancel", "", m_key);
        QCOMPARE(reply.status, 404);
    }
};

QTEST_GUILESS_MAIN(RequestIntakeTest)
#include "tst_request_intake.moc"
