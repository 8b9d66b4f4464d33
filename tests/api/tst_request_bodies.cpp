// The request service's bodies as the server reads them and the console writes them
// (api/RequestBodies): a CreateGrowOrder round trip and each refusal's code; a UserRequest read in
// both forms to its canonical form, and its refusals' codes and statuses (400 for a wrong type,
// 422 for a value the spec does not allow).
#include "api/RequestBodies.h"
#include "api/RequestWire.h"

#include <QTest>

using namespace proofdesk;
using nlohmann::json;

namespace {

// The code a body is refused with, or "" when it is read.
std::string refusal(const json& body) {
    try {
        api::growOrderCreationFromJson(body);
        return {};
    } catch (const api::BodyError& error) {
        return error.code();
    }
}

json goodBody() {
    return {{"accumulated_chain_id", "11155111"},
            {"settle_chain_id", "11155111"},
            {"hashing_functions", {"KECCAK", "POSEIDON"}},
            {"min_batch_size", 10}};
}

// A user request's refusal as "status code", or "" when it is read.
std::string userRequestRefusal(const json& body) {
    try {
        api::parseUserRequest(body);
        return {};
    } catch (const api::BodyError& error) {
        return std::to_string(int(error.status())) + " " + error.code();
    }
}

json userRequest(const std::string& origin, const json& proving) {
    return {{"destination_chain_id", "SN_SEPOLIA"}, {"data", {{origin, proving}}}};
}

} // namespace

class RequestBodiesTest : public QObject {
    Q_OBJECT

private slots:
    // What the console sends is what the server reads, with absent block numbers as null.
    void aGrowOrderRoundTrips() {
        api::GrowOrderCreation order;
        order.accumulatedChainId = "1";
        order.settleChainId = "11155111";
        order.hashingFunctions = {"KECCAK"};
        order.minBatchSize = 500;
        order.finishBlockNumber = 5000;
        const json body = api::toJson(order);
        QCOMPARE(body.dump(),
                 std::string(R"({"accumulated_chain_id":"1","finish_block_number":5000,)"
                             R"("hashing_functions":["KECCAK"],"min_batch_size":500,)"
                             R"("settle_chain_id":"11155111","start_block_number":null})"));
        QVERIFY(api::growOrderCreationFromJson(body) == order);
        // A chain id written as a number reads as its decimal text.
        json numeric = goodBody();
        numeric["accumulated_chain_id"] = 1;
        QCOMPARE(api::growOrderCreationFromJson(numeric).accumulatedChainId, std::string("1"));
    }

    void eachRefusalHasItsCode() {
        QCOMPARE(refusal(goodBody()), std::string());
        json unknown = goodBody();
        unknown["colour"] = "red";
        QCOMPARE(refusal(unknown), std::string("UNKNOWN_FIELD"));
        json missing = goodBody();
        missing.erase("min_batch_size");
        QCOMPARE(refusal(missing), std::string("MISSING_FIELD"));
        json noChain = goodBody();
        noChain["settle_chain_id"] = nullptr;
        QCOMPARE(refusal(noChain), std::string("MISSING_FIELD"));
        json notArray = goodBody();
        notArray["hashing_functions"] = "KECCAK";
        QCOMPARE(refusal(notArray), std::string("INVALID_TYPE"));
        json notStrings = goodBody();
        notStrings["hashing_functions"] = {1};
        QCOMPARE(refusal(notStrings), std::string("INVALID_TYPE"));
        json tooBig = goodBody();
        tooBig["start_block_number"] = std::uint64_t(1) << 63; // past int64
        QCOMPARE(refusal(tooBig), std::string("INVALID_TYPE"));
        json fraction = goodBody();
        fraction["min_batch_size"] = 1.5;
        QCOMPARE(refusal(fraction), std::string("INVALID_TYPE"));
    }

    // Both chain-entry forms read to one canonical form (canonical spellings, hex lower-cased and
    // padded, defaults filled: Poseidon MMRs for a Starknet destination, an account's usual
    // fields), which reads again to itself.
    void aUserRequestReadsToItsCanonicalForm() {
        const std::string account = "0x" + std::string(40, 'A');
        const json plain = userRequest(
            "11155111",
            {{"block:5", {{"header", {"STATE_ROOT"}}, {"accounts", {{account, nullptr}}}}}});
        const json wrapped = userRequest(
            "11155111",
            {{"proving", {{"block:5", {{"header", {"StateRoot"}}, {"accounts", {{account, {}}}}}}}},
             {"fact_hashes", json::array()}});
        const json canonical = api::canonicalJson(api::parseUserRequest(plain));
        QVERIFY(canonical == api::canonicalJson(api::parseUserRequest(wrapped)));
        QVERIFY(canonical == api::canonicalJson(api::parseUserRequest(canonical)));
        const json& selector = canonical["data"]["11155111"]["proving"]["block:5"];
        QVERIFY(selector["header"] == json({"StateRoot"}));
        QVERIFY(selector["hashing_functions"] == json({"POSEIDON"}));
        QVERIFY(selector["accounts"]["0x" + std::string(40, 'a')]["props"] ==
                json({"Nonce", "Balance", "StorageRoot", "CodeHash"}));
        const api::UserRequest read = api::parseUserRequest(plain);
        QCOMPARE(read.chains.at(0).provings.at(0).selector.value, std::int64_t(5));
    }

    void aUserRequestsRefusalsHaveTheirStatus() {
        QCOMPARE(userRequestRefusal(userRequest("1", {{"block:5", nullptr}})), std::string());
        QCOMPARE(userRequestRefusal(json::array()), std::string("400 INVALID_TYPE"));
        QCOMPARE(userRequestRefusal(userRequest("1", {{"block:5", {{"header", "StateRoot"}}}})),
                 std::string("400 INVALID_TYPE"));
        QCOMPARE(userRequestRefusal(userRequest("2", {{"block:5", nullptr}})),
                 std::string("422 INVALID_CHAIN_ID"));
        // Starknet is a destination only; ApeChain accounts have no proven Balance.
        QCOMPARE(userRequestRefusal(userRequest("STARKNET", {{"block:5", nullptr}})),
                 std::string("422 UNSUPPORTED_ORIGIN_CHAIN"));
        QCOMPARE(
            userRequestRefusal(userRequest(
                "33139",
                {{"block:5",
                  {{"accounts", {{"0x" + std::string(40, '1'), {{"props", {"Balance"}}}}}}}}})),
            std::string("422 UNSUPPORTED_ACCOUNT_FIELD"));
        QCOMPARE(userRequestRefusal(userRequest("1", {{"block_ranges:9-3", nullptr}})),
                 std::string("422 INVALID_BLOCK_RANGES"));
        QCOMPARE(userRequestRefusal(userRequest("1", {{"block:5", {{"colour", "red"}}}})),
                 std::string("422 UNKNOWN_FIELD"));
        QCOMPARE(userRequestRefusal(userRequest(
                     "1", {{"block:5", {{"hashing_functions", {"keccak", "KECCAK"}}}}})),
                 std::string("422 DUPLICATE_HASHING_FUNCTION"));
    }

    void chainKindsComeFromTheChainIds() {
        QVERIFY(api::chainKindOf("1") == api::ChainKind::EvmMpt);
        QVERIFY(api::chainKindOf("33111") == api::ChainKind::ApeChain);
        QVERIFY(api::chainKindOf("SN_SEPOLIA") == api::ChainKind::Starknet);
        QVERIFY(api::chainKindOf("300") == api::ChainKind::ZkSync);
        QVERIFY(!api::chainKindOf("2"));
        QVERIFY(api::canBeOrigin("33139") && !api::canBeOrigin("300"));
    }
};

QTEST_GUILESS_MAIN(RequestBodiesTest)
#include "tst_request_bodies.moc"
