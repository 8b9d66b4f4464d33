// The request service's bodies as the server reads them and the console writes them
// (api/RequestBodies): a CreateGrowOrder round trip, and each refusal's code.
#include "api/RequestBodies.h"

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
};

QTEST_GUILESS_MAIN(RequestBodiesTest)
#include "tst_request_bodies.moc"
