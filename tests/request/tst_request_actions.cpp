// Request actions' typed methods (request/actions/ActionMethods): each kind's inputs in the one
// JSON form GET /actions answers, read back to the same types; a stored method this server did
// not write refused; what resolve_blocks found read as ranges; and the DAG a request plans.
#include "request/RequestInternal.h"
#include "request/actions/ActionMethods.h"

#include <QTest>

#include <stdexcept>

using namespace proofdesk;
using namespace proofdesk::request;
using nlohmann::json;

namespace {

// Written, then read back and written again: the same JSON.
json roundTrip(const ActionInputs& inputs) {
    const json method = plannedMethod(inputs);
    const json again = plannedMethod(inputsOfMethod(method));
    if (again != method) {
        throw std::logic_error("round trip changed " + method.dump() + " into " + again.dump());
    }
    return method;
}

// JSON equality, printing both sides when they differ.
bool same(const json& got, const json& want) {
    if (got != want) {
        qWarning("got  %s\nwant %s", got.dump().c_str(), want.dump().c_str());
    }
    return got == want;
}

bool refused(const json& method) {
    try {
        inputsOfMethod(method);
        return false;
    } catch (const std::invalid_argument&) {
        return true;
    }
}

} // namespace

class RequestActionsTest : public QObject {
    Q_OBJECT

private slots:
    void eachKindHasItsWireForm() {
        const api::BlockSelector range = api::parseBlockSelector("block_ranges:5-7,9");
        QVERIFY(same(
            roundTrip(ResolveBlocksInputs{"1", {range, api::parseBlockSelector("timestamp:99")}}),
            json({{"name", "resolve_blocks"},
                  {"inputs",
                   {{"chain_id", "1"}, {"selectors", {"block_ranges:5-7,9", "timestamp:99"}}}},
                  {"results", nullptr},
                  {"error", nullptr}})));
        QVERIFY(same(
            roundTrip(ProveHeadersInputs{"1", {{"block:3", {"StateRoot", "Number"}}}})["inputs"],
            json({{"chain_id", "1"}, {"header_fields", {{"block:3", {"StateRoot", "Number"}}}}})));
        QVERIFY(
            same(roundTrip(AccumulateMmrInputs{"1", chain::HashingFunction::Poseidon})["inputs"],
                 json({{"chain_id", "1"}, {"hashing_function", "POSEIDON"}})));
        const std::string account = "0x" + std::string(40, 'a');
        const std::string slot = "0x" + std::string(64, '0');
        QVERIFY(
            same(roundTrip(ProveAccountInputs{
                     "1", account, {{"block:3", {"Balance"}, {slot}}}})["inputs"],
                 json({{"chain_id", "1"},
                       {"account", account},
                       {"items",
                        {{{"selector", "block:3"}, {"props", {"Balance"}}, {"slots", {slot}}}}}})));
        const std::string fact = "0x" + std::string(64, 'f');
        QVERIFY(
            same(roundTrip(CheckFactsInputs{{{fact, true}}}),
                 json({{"name", "check_facts"},
                       {"inputs", {{"fact_hashes", {{{"fact_hash", fact}, {"is_mocked", true}}}}}},
                       {"results", nullptr},
                       {"error", nullptr}})));
        // A data request delivers to its destination, a grow-order batch to its settle chain.
        QVERIFY(same(roundTrip(DeliverInputs{"1", "SN_SEPOLIA", false})["inputs"],
                     json({{"origin_chain_id", "1"}, {"destination_chain_id", "SN_SEPOLIA"}})));
        QVERIFY(same(roundTrip(DeliverInputs{"1", "11155111", true})["inputs"],
                     json({{"origin_chain_id", "1"}, {"settle_chain_id", "11155111"}})));
        // The selector read back is the selector written, parsed.
        const auto read = std::get<ResolveBlocksInputs>(
            inputsOfMethod(plannedMethod(ResolveBlocksInputs{"1", {range}})));
        QCOMPARE(read.selectors.size(), std::size_t(1));
        QVERIFY(read.selectors[0].kind == api::BlockSelector::Kind::Ranges);
        QVERIFY((read.selectors[0].ranges == Ranges{{5, 7}, {9, 9}}));
    }

    void aStoredMethodNotOursIsRefused() {
        json method = plannedMethod(AccumulateMmrInputs{"1", chain::HashingFunction::Keccak});
        QVERIFY(!refused(method));
        json unknownName = method;
        unknownName["name"] = "mine_bitcoin";
        QVERIFY(refused(unknownName));
        json unknownFunction = method;
        unknownFunction["inputs"]["hashing_function"] = "SHA1";
        QVERIFY(refused(unknownFunction));
        json missing = method;
        missing["inputs"].erase("chain_id");
        QVERIFY(refused(missing));
        json wrongType = plannedMethod(CheckFactsInputs{{{"0x01", false}}});
        wrongType["inputs"]["fact_hashes"][0]["is_mocked"] = "yes";
        QVERIFY(refused(wrongType));
    }

    void resolvedBlocksReadAsRanges() {
        const json results{{"head", 20},
                           {"blocks", {{"block:8", {{8, 8}}}, {"block_ranges:5-9", {{5, 9}}}}},
                           {"timestamps", json::object()}};
        const ResolvedBlocks resolved = ResolvedBlocks::fromResults(results);
        QVERIFY((resolved.of("block:8") == Ranges{{8, 8}}));
        QVERIFY((resolved.all() == Ranges{{5, 9}})); // overlapping selectors merged
        QVERIFY(same(resolved.toJson(), results["blocks"]));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, resolved.of("block:1"));
        QVERIFY((numbersOf({{1, 3}, {7, 7}}) == std::vector<std::int64_t>{1, 2, 3, 7}));
    }

    // resolve, then headers, then one MMR per function and one proof per account (in a stable
    // order), facts apart, and deliver after all of them.
    void aRequestPlansItsDag() {
        api::ChainRequest chain;
        chain.chainId = "1";
        const std::string b = "0x" + std::string(40, 'b');
        const std::string a = "0x" + std::string(40, 'a');
        chain.provings.push_back({api::parseBlockSelector("block:4"),
                                  {"StateRoot"},
                                  {{b, {"Nonce"}, {}}, {a, {"Balance"}, {}}},
                                  {"POSEIDON", "KECCAK"}});
        chain.provings.push_back(
            {api::parseBlockSelector("block:6"), {}, {{a, {"Nonce"}, {}}}, {"KECCAK"}});
        chain.factHashes.push_back({"0x" + std::string(64, '1'), false});
        const std::vector<PlannedAction> plan = detail::planChainQuery(chain, "SN_SEPOLIA");
        std::vector<std::string> names;
        for (const PlannedAction& action : plan) {
            names.push_back(actionName(kindOf(action.inputs)));
        }
        QVERIFY((names == std::vector<std::string>{
                              "resolve_blocks", "prove_headers", "accumulate_mmr", "accumulate_mmr",
                              "prove_account", "prove_account", "check_facts", "deliver"}));
        QVERIFY(std::get<AccumulateMmrInputs>(plan[2].inputs).function ==
                chain::HashingFunction::Keccak);
        QCOMPARE(std::get<ProveAccountInputs>(plan[4].inputs).account, a);
        QCOMPARE(std::get<ProveAccountInputs>(plan[4].inputs).items.size(), std::size_t(2));
        QVERIFY(plan[0].dependsOn.empty());
        QVERIFY((plan[1].dependsOn == std::vector<int>{0}));
        QVERIFY((plan[5].dependsOn == std::vector<int>{1}));
        QVERIFY(plan[6].dependsOn.empty());
        QVERIFY((plan[7].dependsOn == std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(std::get<DeliverInputs>(plan[7].inputs).destinationChainId,
                 std::string("SN_SEPOLIA"));
        // A grow-order batch: one range, its functions, delivered to the settle chain.
        const std::vector<PlannedAction> batch =
            detail::planGrowBatch("1", "11155111", {"KECCAK"}, 10, 19);
        QCOMPARE(batch.size(), std::size_t(4));
        QVERIFY(same(plannedMethod(batch[0].inputs)["inputs"]["selectors"],
                     json::array({"block_ranges:10-19"})));
        QVERIFY(std::get<DeliverInputs>(batch[3].inputs).growOrder);
    }
};

QTEST_GUILESS_MAIN(RequestActionsTest)
#include "tst_request_actions.moc"
