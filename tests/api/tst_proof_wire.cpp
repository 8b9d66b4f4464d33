// The proof service's wire vocabulary (services/api): every enumeration's spellings read back to
// the same enumerator, and the bucket-creation and fact-registry bodies the server and the client
// share, written and read back, with the bodies the server refuses.

#include "api/ProofBodies.h"
#include "api/ProofEnums.h"

#include <QTest>

using namespace proofdesk;

namespace {

// Every spelling of E names its enumerator at the same index, and back.
template <typename E> bool spellingsRoundTrip(std::size_t expectedCount) {
    const std::vector<std::string>& names = api::spellingsOf<E>();
    if (names.size() != expectedCount) {
        return false;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::optional<E> named = api::enumNamed<E>(names[i]);
        if (!named || static_cast<std::size_t>(*named) != i || api::nameOf(*named) != names[i]) {
            return false;
        }
    }
    return !api::enumNamed<E>("") && !api::enumNamed<E>(names.front() + "X");
}

// The code of the BodyError that reading `body` throws, or "" when it reads.
std::string refusal(const nlohmann::json& body, bool docs = false) {
    try {
        api::bucketCreationFromJson(body, docs);
    } catch (const api::BodyError& error) {
        return error.code();
    }
    return {};
}

} // namespace

class TestProofWire : public QObject {
    Q_OBJECT
private slots:
    void enumerationsReadBackTheirSpellings() {
        QVERIFY(spellingsRoundTrip<api::QueryStatus>(4));
        QVERIFY(spellingsRoundTrip<api::Stage>(3));
        QVERIFY(spellingsRoundTrip<api::QueryResult>(6));
        QVERIFY(spellingsRoundTrip<api::JobSize>(4));
        QVERIFY(spellingsRoundTrip<api::Network>(2));
        QVERIFY(spellingsRoundTrip<api::CairoVm>(2));
        QVERIFY(spellingsRoundTrip<api::CairoVersion>(2));
        QVERIFY(spellingsRoundTrip<api::GrowerHints>(2));
        QVERIFY(spellingsRoundTrip<api::StoneVersion>(2));
        QVERIFY(spellingsRoundTrip<api::MemoryVerification>(3));
        QCOMPARE(api::nameOf(api::QueryResult::ProofVerificationOnApeChain),
                 std::string("PROOF_VERIFICATION_ON_APE_CHAIN"));
        QCOMPARE(api::nameOf(api::Stage::ProofVerification), std::string("PROOF_VERIFICATION"));
        QCOMPARE(api::nameOf(api::QueryStatus::InProgress), std::string("IN_PROGRESS"));
    }

    void resultsVerifyOnTheirChain() {
        QCOMPARE(api::chainOf(api::QueryResult::TraceGeneration), std::string("OFFCHAIN"));
        QCOMPARE(api::chainOf(api::QueryResult::ProofGeneration), std::string("OFFCHAIN"));
        QCOMPARE(api::chainOf(api::QueryResult::ProofVerificationOnL1), std::string("L1"));
        QCOMPARE(api::chainOf(api::QueryResult::ProofVerificationOnL2), std::string("L2"));
        QCOMPARE(api::chainOf(api::QueryResult::ProofVerificationOnApeChain),
                 std::string("APE_CHAIN"));
        QCOMPARE(api::chainOf(api::QueryResult::ProofVerificationOnWorldChain),
                 std::string("WORLD_CHAIN"));
    }

    void bucketCreationRoundTrips() {
        api::BucketCreation creation;
        QCOMPARE(api::toJson(creation).dump(), nlohmann::json::parse(R"({"externalId": null,
            "nodeWidth": null, "aggregatorParams": null, "mockProof": false})")
                                                   .dump());
        QCOMPARE(api::bucketCreationFromJson(api::toJson(creation), false), creation);
        creation = {"batch-7", 8, R"({"k":1})", "snos_aggregator_0.13.2", true};
        QCOMPARE(api::bucketCreationFromJson(api::toJson(creation), true), creation);
        // aggregatorParams may be any JSON; it is kept as its text.
        QCOMPARE(api::bucketCreationFromJson({{"aggregatorParams", {{"k", 1}}}}, false)
                     .aggregatorParams.value_or(""),
                 std::string(R"({"k":1})"));
    }

    void bucketCreationRefusals() {
        QCOMPARE(refusal({{"width", 4}}), std::string("UNKNOWN_FIELD"));
        QCOMPARE(refusal({{"externalId", 7}}), std::string("INVALID_FIELD"));
        QCOMPARE(refusal({{"externalId", std::string(300, 'a')}}), std::string("INVALID_FIELD"));
        QCOMPARE(refusal({{"nodeWidth", 2147483648LL}}), std::string("INVALID_FIELD"));
        QCOMPARE(refusal({{"nodeWidth", 2.5}}), std::string("INVALID_FIELD"));
        QCOMPARE(refusal({{"mockProof", "yes"}}), std::string("INVALID_FIELD"));
        QCOMPARE(refusal({{"aggregatorParams", std::string(4097, 'p')}}),
                 std::string("INVALID_FIELD"));
        QCOMPARE(refusal(nlohmann::json::object(), true), std::string("MISSING_FIELD"));
        QCOMPARE(refusal(nlohmann::json::object(), false), std::string());
    }

    void factRegistryAnswerRoundTrips() {
        api::FactRegistryAnswer unknown{"L1", "0xab", true, false, {}};
        QCOMPARE(api::toJson(unknown).dump(), nlohmann::json::parse(R"({"chain": "L1",
            "factHash": "0xab", "mocked": true, "valid": false, "entry": null})")
                                                  .dump());
        QCOMPARE(api::factRegistryAnswerFromJson(api::toJson(unknown)), unknown);
        api::FactRegistryAnswer known{
            "L2", "0xcd", false, true,
            api::FactRegistryEntry{"tx-1", "q-1", std::nullopt, "2026-11-27T16:00:00.000Z"}};
        QCOMPARE(api::toJson(known).at("entry").dump(),
                 nlohmann::json::parse(R"({"transactionId": "tx-1", "queryId": "q-1",
                     "programHash": null, "registeredAt": "2026-11-27T16:00:00.000Z"})")
                     .dump());
        QCOMPARE(api::factRegistryAnswerFromJson(api::toJson(known)), known);
    }
};

QTEST_APPLESS_MAIN(TestProofWire)
#include "tst_proof_wire.moc"
