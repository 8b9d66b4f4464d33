// The request service over HTTP (docs/api.md), end to end against a real dev chain (anvil from
// npm), with RPC faults injected by a proxy; queries that fail without a chain. The dev-chain
// cases skip when anvil is not installed. Validation and error shapes: tst_request_intake.

#include "DevChain.h"
#include "RequestTestSupport.h"
#include "RpcProxy.h"
#include "TestHttp.h"
#include "TestServer.h"
#include "chain/Mmr.h"
#include "crypto/Hex.h"
#include "crypto/Keccak.h"
#include "request/RequestService.h"

#include <QDeadlineTimer>
#include <QTest>

#include <functional>
#include <set>

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

namespace {

std::string hexOf(std::int64_t n) {
    return "0x" + QString::number(n, 16).toStdString();
}

} // namespace

class RequestServiceTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<TestHttp> m_http;
    Headers m_key;
    std::unique_ptr<DevChain> m_chain;
    std::unique_ptr<RpcProxy> m_proxy;
    std::string m_contract;
    std::int64_t m_deployBlock = 0;
    std::int64_t m_writeBlock = 0;

    bool chainReady() const { return m_chain != nullptr; }

    Reply submit(const json& body) { return m_http->postJson("/submit-request", body, m_key); }

    // Waits for every query of the request to finish; returns them.
    json finishedQueries(const std::string& requestId) {
        json queries;
        QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            queries = m_http->get("/get_queries/" + requestId).json()["queries"];
            bool done = !queries.empty();
            for (const json& query : queries) {
                const std::string status = query["status"];
                done = done && (status == "COMPLETED" || status == "FAILED");
            }
            if (done) {
                return queries;
            }
            QTest::qWait(20);
        }
        return queries;
    }

    json actionsOf(const json& query) {
        return m_http->get("/get_actions/" + query["internal_id"].get<std::string>())
            .json()["actions"];
    }

    json actionNamed(const json& actions, const std::string& name) {
        for (const json& action : actions) {
            if (action["method"]["name"] == name) {
                return action;
            }
        }
        return nullptr;
    }

    std::string submitOk(const json& body) {
        const Reply reply = submit(body);
        if (reply.status != 200) {
            qWarning("%s", reply.body.c_str());
            return {};
        }
        return reply.json()["request_id"];
    }

    json growOrder(const std::string& id) {
        return m_http->get("/grow-orders/" + id, m_key).json();
    }

    json waitForOrder(const std::string& id, const std::set<std::string>& statuses) {
        json order;
        QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            order = growOrder(id);
            if (statuses.count(order["status"].get<std::string>())) {
                return order;
            }
            QTest::qWait(20);
        }
        return order;
    }

    void startServer(const QString& rpcUrl) {
        m_http.reset();
        m_server.reset();
        m_server = std::make_unique<TestServer>(requestTestOptions(rpcUrl));
        QVERIFY2(m_server->ok(), qPrintable(m_server->error()));
        m_http = std::make_unique<TestHttp>(m_server->url());
        m_key = {{"api-key", m_server->mintKey(QStringLiteral("requests")).toStdString()}};
    }

    // The timestamp resolved to the block in force at that time.
    void checkTheTimestampResolvedToTheBlockInForce(const json& actions, std::int64_t writeTime) {
        const json resolve = actionNamed(actions, "resolve_blocks")["method"]["results"];
        std::int64_t inForce = m_chain->head();
        while (std::stoll(m_chain->rpc("eth_getBlockByNumber", {hexOf(inForce), false})["timestamp"]
                              .get<std::string>(),
                          nullptr, 16) > writeTime) {
            --inForce;
        }
        QCOMPARE(inForce, m_writeBlock);
        QCOMPARE(resolve["timestamps"]["timestamp:" + std::to_string(writeTime)]["block"]
                     .get<std::int64_t>(),
                 inForce);
    }

    // Header fields equal the chain's own JSON.
    void checkHeaderFieldsEqualTheChains(const json& actions) {
        const json headers = actionNamed(actions, "prove_headers")["method"]["results"]["headers"];
        const json deployBlock =
            m_chain->rpc("eth_getBlockByNumber", {hexOf(m_deployBlock), false});
        const json& fields = headers[std::to_string(m_deployBlock)]["fields"];
        QCOMPARE(fields.size(), std::size_t(15));
        const std::map<std::string, std::string> jsonName{{"ParentHash", "parentHash"},
                                                          {"OmmersHash", "sha3Uncles"},
                                                          {"Beneficiary", "miner"},
                                                          {"StateRoot", "stateRoot"},
                                                          {"TransactionsRoot", "transactionsRoot"},
                                                          {"ReceiptsRoot", "receiptsRoot"},
                                                          {"LogsBloom", "logsBloom"},
                                                          {"Difficulty", "difficulty"},
                                                          {"Number", "number"},
                                                          {"GasLimit", "gasLimit"},
                                                          {"GasUsed", "gasUsed"},
                                                          {"Timestamp", "timestamp"},
                                                          {"ExtraData", "extraData"},
                                                          {"MixHash", "mixHash"},
                                                          {"Nonce", "nonce"}};
        for (const auto& [field, name] : jsonName) {
            QCOMPARE(fields[field].get<std::string>(), deployBlock[name].get<std::string>());
        }
        QCOMPARE(headers[std::to_string(m_deployBlock)]["block_hash"].get<std::string>(),
                 deployBlock["hash"].get<std::string>());
        QVERIFY(headers.contains(std::to_string(m_writeBlock + 2)));
        QVERIFY(headers.contains("2"));
    }

    // Accounts and storage equal the chain's answers at those blocks.
    void checkAccountsAndStorageEqualTheChains(const json& actions, const std::string& eoa,
                                               const std::string& absent) {
        std::map<std::string, json> accountResults;
        for (const json& action : actions) {
            if (action["method"]["name"] == "prove_account") {
                accountResults[action["method"]["results"]["account"]] =
                    action["method"]["results"]["values"];
            }
        }
        auto quantity = [](const json& value) {
            return QString::fromStdString(value.get<std::string>()).toLower().toStdString();
        };
        const std::string contract = QString::fromStdString(m_contract).toLower().toStdString();
        for (const json& entry : accountResults[contract]) {
            const std::string block = hexOf(entry["block"].get<std::int64_t>());
            for (const auto& [slot, value] : entry["slots"].items()) {
                const json chainValue = m_chain->rpc("eth_getStorageAt", {m_contract, slot, block});
                QCOMPARE(std::stoull(value.get<std::string>(), nullptr, 16),
                         std::stoull(chainValue.get<std::string>(), nullptr, 16));
            }
            if (entry["block"] == m_deployBlock) {
                QCOMPARE(entry["slots"].size(), std::size_t(4));
                QCOMPARE(entry["slots"]
                              ["0x0000000000000000000000000000000000000000000000000000000000000000"]
                                  .get<std::string>(),
                         std::string("0x2a"));
                const json proof = m_chain->rpc("eth_getProof", {m_contract, json::array(), block});
                QCOMPARE(entry["props"]["StorageRoot"].get<std::string>(),
                         proof["storageHash"].get<std::string>());
                QCOMPARE(entry["props"]["Balance"].get<std::string>(), quantity(proof["balance"]));
                QCOMPARE(entry["props"]["Nonce"].get<std::string>(), quantity(proof["nonce"]));
                const auto code = crypto::fromHex(QString::fromStdString(
                    m_chain->rpc("eth_getCode", {m_contract, block}).get<std::string>()));
                QCOMPARE(entry["props"]["CodeHash"].get<std::string>(),
                         crypto::toHex0x(crypto::keccak256(*code)).toStdString());
            } else {
                QCOMPARE(entry["slots"].begin()->get<std::string>(), std::string("0xbeef"));
            }
        }
        const json eoaEntry =
            accountResults[QString::fromStdString(eoa).toLower().toStdString()][0];
        QCOMPARE(eoaEntry["props"]["Balance"].get<std::string>(),
                 quantity(m_chain->rpc("eth_getBalance", {eoa, hexOf(m_writeBlock)})));
        QCOMPARE(eoaEntry["props"]["Nonce"].get<std::string>(),
                 quantity(m_chain->rpc("eth_getTransactionCount", {eoa, hexOf(m_writeBlock)})));
        const json absentEntry = accountResults[absent][0];
        QCOMPARE(absentEntry["account_exists"].get<bool>(), false);
        QCOMPARE(absentEntry["props"]["Balance"].get<std::string>(), std::string("0x0"));
    }

    // The MMRs hold exactly the request's blocks, appended newest first after the genesis leaf.
    void checkTheMmrsHoldTheRequestsBlocks(const json& actions) {
        std::vector<std::int64_t> blocks{
            1, 2, 3, m_deployBlock, m_writeBlock - 1, m_writeBlock, m_writeBlock + 2};
        std::sort(blocks.begin(), blocks.end());
        blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
        chain::Mmr expected = chain::Mmr::withGenesis(chain::HashingFunction::Keccak);
        for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
            const json block = m_chain->rpc("eth_getBlockByNumber", {hexOf(*it), false});
            expected.append(chain::toMmrHash(
                *crypto::fromHex(QString::fromStdString(block["hash"].get<std::string>()))));
        }
        const json accumulated = actionNamed(actions, "accumulate_mmr")["method"]["results"];
        const json mmrs = m_http->get("/mmrs?chain_id=11155111").json()["mmrs"];
        bool keccakChecked = false;
        for (const json& mmr : mmrs) {
            if (mmr["hashing_function"] == "KECCAK" && mmr["leaves"] == expected.leaves()) {
                QCOMPARE(mmr["root"].get<std::string>(),
                         chain::toHex(expected.root()).toStdString());
                keccakChecked = true;
            }
        }
        QVERIFY2(keccakChecked, mmrs.dump().c_str());
    }

    // Delivery wrote the proven values to the destination chain's registry.
    void checkDeliveryWroteTheProvenValues(const json& query, const json& actions) {
        const json delivered = m_http
                                   ->get("/proven-values/SN_SEPOLIA?query_id=" +
                                         query["internal_id"].get<std::string>() + "&limit=500")
                                   .json();
        const auto deliveredCount =
            actionNamed(actions, "deliver")["method"]["results"]["values_written"].get<int>();
        QCOMPARE(delivered["total"].get<int>(), deliveredCount);
        bool sawSlot = false;
        for (const json& value : delivered["proven_values"]) {
            if (value["kind"] == "storage" && value["block_number"] == m_writeBlock) {
                QCOMPARE(value["value"].get<std::string>(), std::string("0xbeef"));
                sawSlot = true;
            }
        }
        QVERIFY(sawSlot);
    }

private slots:
    void initTestCase() {
        QString error;
        auto chain = std::make_unique<DevChain>();
        if (chain->start(&error)) {
            m_chain = std::move(chain);
            m_contract = m_chain->deployStorageContract();
            m_deployBlock = m_chain->head();
            m_chain->mine(3);
            m_chain->send({{"to", m_contract},
                           {"data", "0x00000000000000000000000000000000000000000000000000000000"
                                    "0000beef"},
                           {"gas", "0x100000"}});
            m_writeBlock = m_chain->head();
            m_chain->mine(5);
            m_proxy = std::make_unique<RpcProxy>(m_chain->url());
        } else {
            qInfo("dev chain cases will skip: %s", qPrintable(error));
        }
        startServer(m_proxy ? m_proxy->url() : QString());
    }

    void init() {
        if (m_proxy) {
            m_proxy->setFault(RpcProxy::Fault::None, {});
        }
    }

    void chainWithoutRpcFailsItsQuery() {
        const std::string id =
            submitOk({{"destination_chain_id", "1"}, {"data", {{"10", {{"block:5", nullptr}}}}}});
        QVERIFY(!id.empty());
        const json queries = finishedQueries(id);
        QCOMPARE(queries.size(), std::size_t(1));
        QCOMPARE(queries[0]["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY(!queries[0]["completed_at"].is_null());
        const json actions = actionsOf(queries[0]);
        QCOMPARE(actions[0]["status"].get<std::string>(), std::string("FAILED"));
        const std::string reason = actions[0]["method"]["error"];
        QVERIFY2(reason.find("--chain-rpc 10=") != std::string::npos, reason.c_str());
        for (std::size_t i = 1; i < actions.size(); ++i) {
            QCOMPARE(actions[i]["status"].get<std::string>(), std::string("CANCELLED"));
        }
        // The record shapes, exactly.
        std::set<std::string> keys;
        for (const auto& [key, value] : queries[0].items()) {
            keys.insert(key);
        }
        QCOMPARE(keys, (std::set<std::string>{"internal_id", "status", "typ", "created_at",
                                              "completed_at"}));
        keys.clear();
        for (const auto& [key, value] : actions[0].items()) {
            keys.insert(key);
        }
        QCOMPARE(keys,
                 (std::set<std::string>{"query_id", "index", "status", "depends_on", "can_trigger",
                                        "method", "created_at", "completed_at", "tracking_id"}));
    }

    void missingFactFailsCheckFacts() {
        const std::string id =
            submitOk({{"destination_chain_id", "1"},
                      {"data",
                       {{"1",
                         {{"proving", json::object()},
                          {"fact_hashes", {{{"fact_hash", fact32(7)}, {"is_mocked", true}}}}}}}}});
        const json queries = finishedQueries(id);
        QCOMPARE(queries[0]["status"].get<std::string>(), std::string("FAILED"));
        const json check = actionNamed(actionsOf(queries[0]), "check_facts");
        QCOMPARE(check["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY(check["method"]["error"].get<std::string>().find("mocked fact registry") !=
                std::string::npos);
    }

    void provesEverySelectorFormAgainstTheDevChain() {
        if (!chainReady()) {
            QSKIP("anvil is not installed");
        }
        const json writeBlock = m_chain->rpc("eth_getBlockByNumber", {hexOf(m_writeBlock), false});
        const std::int64_t writeTime =
            std::stoll(writeBlock["timestamp"].get<std::string>(), nullptr, 16);
        const std::string absent = "0x00000000000000000000000000000000000000aa";
        const std::string eoa = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"; // anvil account 1
        const json headerFields = {"ParentHash",       "OmmersHash",    "Beneficiary", "STATE_ROOT",
                                   "TransactionsRoot", "RECEIPTS_ROOT", "LogsBloom",   "Difficulty",
                                   "Number",           "GasLimit",      "GasUsed",     "Timestamp",
                                   "ExtraData",        "MixHash",       "Nonce"};
        const json body{
            {"destination_chain_id", "SN_SEPOLIA"},
            {"fee", "0.5"},
            {"settings",
             {{"max_cost", {{"11155111", 2.0}}}, {"max_time", 600}, {"optimize", "TIME"}}},
            {"data",
             {{"11155111",
               {{"block:" + std::to_string(m_deployBlock),
                 {{"header", headerFields},
                  {"accounts",
                   {{m_contract,
                     {{"props", {"Nonce", "BALANCE", "StorageRoot", "CodeHash"}},
                      {"slots", {"0x0", "0x1", "0x02", "0x3"}}}}}}}},
                {"timestamp:" + std::to_string(writeTime),
                 {{"accounts",
                   {{m_contract, {{"slots", {"0x2"}}}},
                    {eoa, {{"props", {"Balance", "Nonce"}}}},
                    {absent, {{"props", {"Balance", "Nonce", "CodeHash"}}}}}},
                  {"hashing_functions", {"KECCAK", "POSEIDON"}}}},
                {"block_ranges:1-3," + std::to_string(m_writeBlock - 1) + "-" +
                     std::to_string(m_writeBlock) + "," + std::to_string(m_writeBlock + 2),
                 {{"header", {"Number", "ParentHash"}}}}}}}}};
        const std::string id = submitOk(body);
        QVERIFY(!id.empty());
        const json queries = finishedQueries(id);
        QCOMPARE(queries.size(), std::size_t(1));
        const json actions = actionsOf(queries[0]);
        for (const json& action : actions) {
            QVERIFY2(action["status"] == "COMPLETED", action.dump().c_str());
            QVERIFY(!action["tracking_id"].is_null());
        }
        QCOMPARE(queries[0]["status"].get<std::string>(), std::string("COMPLETED"));
        QCOMPARE(queries[0]["typ"]["kind"].get<std::string>(), std::string("DATA_REQUEST"));
        QCOMPARE(queries[0]["typ"]["chain_id"].get<std::string>(), std::string("11155111"));

        // Each check stops the test at its first failure.
        for (const auto& check : std::initializer_list<std::function<void()>>{
                 [&] { checkTheTimestampResolvedToTheBlockInForce(actions, writeTime); },
                 [&] { checkHeaderFieldsEqualTheChains(actions); },
                 [&] { checkAccountsAndStorageEqualTheChains(actions, eoa, absent); },
                 [&] { checkTheMmrsHoldTheRequestsBlocks(actions); },
                 [&] { checkDeliveryWroteTheProvenValues(queries[0], actions); }}) {
            check();
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    void rpcFaultsFailTheRightAction_data() {
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("failedAction");
        QTest::addColumn<QString>("reason");
        QTest::newRow("node down mid-query")
            << int(RpcProxy::Fault::Unavailable) << QStringLiteral("eth_getBlockByNumber")
            << QStringLiteral("prove_headers") << QStringLiteral("HTTP 503");
        QTest::newRow("malformed JSON")
            << int(RpcProxy::Fault::Malformed) << QStringLiteral("eth_getProof")
            << QStringLiteral("prove_account") << QStringLiteral("malformed JSON");
        QTest::newRow("header hash mismatch")
            << int(RpcProxy::Fault::TamperHeader) << QStringLiteral("eth_getBlockByNumber")
            << QStringLiteral("prove_headers") << QStringLiteral("keccak(rlp(header))");
    }

    void rpcFaultsFailTheRightAction() {
        if (!chainReady()) {
            QSKIP("anvil is not installed");
        }
        QFETCH(int, fault);
        QFETCH(QString, method);
        QFETCH(QString, failedAction);
        QFETCH(QString, reason);
        m_proxy->setFault(RpcProxy::Fault(fault), method.toStdString());
        const std::string id = submitOk(
            {{"destination_chain_id", "11155111"},
             {"data",
              {{"11155111",
                {{"block:4",
                  {{"header", {"StateRoot"}},
                   {"accounts", {{DevChain::firstAccount(), {{"props", {"Balance"}}}}}}}}}}}}});
        const json queries = finishedQueries(id);
        QCOMPARE(queries[0]["status"].get<std::string>(), std::string("FAILED"));
        const json actions = actionsOf(queries[0]);
        const json failed = actionNamed(actions, failedAction.toStdString());
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        const std::string error = failed["method"]["error"];
        QVERIFY2(error.find(reason.toStdString()) != std::string::npos, error.c_str());
        QCOMPARE(actionNamed(actions, "resolve_blocks")["status"].get<std::string>(),
                 std::string("COMPLETED"));
        QCOMPARE(actionNamed(actions, "deliver")["status"].get<std::string>(),
                 std::string("CANCELLED"));
    }

    void maxTimeIsADeadline() {
        if (!chainReady()) {
            QSKIP("anvil is not installed");
        }
        // prove_headers starts in time and is held; the clock then passes max_time, so the next
        // action fails before it starts.
        m_proxy->setFault(RpcProxy::Fault::Hold, "eth_getBlockByNumber");
        const std::string id =
            submitOk({{"destination_chain_id", "1"},
                      {"settings",
                       {{"max_cost", 1}, {"max_time", {{"11155111", 30}}}, {"optimize", "Time"}}},
                      {"data", {{"11155111", {{"block:3", nullptr}}}}}});
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->heldRequests() > 0, 20000);
        m_server->clock().advanceSeconds(31);
        m_proxy->release();
        const json queries = finishedQueries(id);
        QVERIFY2(queries.size() == 1, queries.dump().c_str());
        QCOMPARE(queries[0]["status"].get<std::string>(), std::string("FAILED"));
        const json actions = actionsOf(queries[0]);
        QCOMPARE(actionNamed(actions, "prove_headers")["status"].get<std::string>(),
                 std::string("COMPLETED"));
        const json accumulate = actionNamed(actions, "accumulate_mmr");
        QVERIFY2(accumulate.is_object(), actions.dump().c_str());
        QCOMPARE(accumulate["status"].get<std::string>(), std::string("FAILED"));
        const std::string error = accumulate["method"]["error"];
        QVERIFY2(error.find("max_time") != std::string::npos, error.c_str());
    }

    void unreachableRpcFailsResolve() {
        if (!chainReady()) {
            QSKIP("anvil is not installed");
        }
        startServer(QStringLiteral("http://127.0.0.1:1"));
        const std::string id = submitOk(
            {{"destination_chain_id", "1"}, {"data", {{"11155111", {{"block:1", nullptr}}}}}});
        const json queries = finishedQueries(id);
        const json resolve = actionNamed(actionsOf(queries[0]), "resolve_blocks");
        QCOMPARE(resolve["status"].get<std::string>(), std::string("FAILED"));
        const std::string error = resolve["method"]["error"];
        QVERIFY2(error.find("did not answer") != std::string::npos, error.c_str());
        startServer(m_proxy->url());
    }

    void growOrderRunsToCompletion() {
        if (!chainReady()) {
            QSKIP("anvil is not installed");
        }
        const std::int64_t finish = m_chain->head();
        const Reply created = m_http->postJson("/grow-orders",
                                               {{"accumulated_chain_id", "11155111"},
                                                {"settle_chain_id", "1"},
                                                {"hashing_functions", {"POSEIDON", "KECCAK"}},
                                                {"min_batch_size", 4},
                                                {"start_block_number", 2},
                                                {"finish_block_number", finish}},
                                               m_key);
        QCOMPARE(created.status, 200);
        const json order = created.json()["grow_order"];
        std::set<std::string> keys;
        for (const auto& [key, value] : order.items()) {
            keys.insert(key);
        }
        QCOMPARE(keys,
                 (std::set<std::string>{"internal_id", "status", "accumulated_chain_id",
                                        "settle_chain_id", "hashing_functions", "min_batch_size",
                                        "start_block_number", "next_from_block_number",
                                        "created_at", "updated_at", "finish_block_number",
                                        "active_query_id", "cancelled_at", "completed_at"}));
        QCOMPARE(order["status"].get<std::string>(), std::string("ACTIVE"));
        const json done = waitForOrder(order["internal_id"], {"COMPLETED", "FAILED"});
        QCOMPARE(done["status"].get<std::string>(), std::string("COMPLETED"));
        QCOMPARE(done["next_from_block_number"].get<std::int64_t>(), finish + 1);
        QVERIFY(!done["completed_at"].is_null());
        QVERIFY(done["active_query_id"].is_null());
        // Cancelling a finished order returns it unchanged.
        const Reply cancel = m_http->post(
            "/grow-orders/" + done["internal_id"].get<std::string>() + "/cancel", "", m_key);
        COMPARE_JSON(cancel.json()["grow_order"], done);
        const json list = m_http->get("/grow-orders", m_key).json()["grow_orders"];
        QVERIFY(!list.empty());
    }

    void growOrderCancelsWhileABatchRuns() {
        if (!chainReady()) {
            QSKIP("anvil is not installed");
        }
        m_proxy->setFault(RpcProxy::Fault::Hold, "eth_getBlockByNumber");
        const Reply created = m_http->postJson("/grow-orders",
                                               {{"accumulated_chain_id", "11155111"},
                                                {"settle_chain_id", "SN_SEPOLIA"},
                                                {"hashing_functions", {"KECCAK"}},
                                                {"min_batch_size", 1},
                                                {"start_block_number", 1}},
                                               m_key);
        QCOMPARE(created.status, 200);
        const std::string id = created.json()["grow_order"]["internal_id"];
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->heldRequests() > 0, 20000);
        QVERIFY(!growOrder(id)["active_query_id"].is_null());
        const Reply cancel = m_http->post("/grow-orders/" + id + "/cancel", "", m_key);
        QCOMPARE(cancel.status, 200);
        QCOMPARE(cancel.json()["grow_order"]["status"].get<std::string>(),
                 std::string("CANCEL_REQUESTED"));
        QCOMPARE(growOrder(id)["status"].get<std::string>(), std::string("CANCEL_REQUESTED"));
        m_proxy->release();
        const json cancelled = waitForOrder(id, {"CANCELLED"});
        QCOMPARE(cancelled["status"].get<std::string>(), std::string("CANCELLED"));
        QVERIFY(!cancelled["cancelled_at"].is_null());

        // With no batch running, cancel is immediate.
        const Reply idle = m_http->postJson("/grow-orders",
                                            {{"accumulated_chain_id", "11155111"},
                                             {"settle_chain_id", "1"},
                                             {"hashing_functions", {"KECCAK"}},
                                             {"min_batch_size", 1000000}},
                                            m_key);
        QCOMPARE(idle.status, 200);
        const json idleOrder = idle.json()["grow_order"];
        QCOMPARE(idleOrder["start_block_number"].get<std::int64_t>(),
                 m_chain->head() > 0 ? idleOrder["start_block_number"].get<std::int64_t>() : 0);
        const Reply idleCancel = m_http->post(
            "/grow-orders/" + idleOrder["internal_id"].get<std::string>() + "/cancel", "", m_key);
        QCOMPARE(idleCancel.json()["grow_order"]["status"].get<std::string>(),
                 std::string("CANCELLED"));
    }
};

QTEST_GUILESS_MAIN(RequestServiceTest)
#include "tst_request_service.moc"
