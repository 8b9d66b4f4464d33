#include "ProofEnums.h"

#include <algorithm>

namespace proofdesk::api {

namespace proof_enums {
const std::vector<std::string> kStatuses = {"RECEIVED", "IN_PROGRESS", "DONE", "FAILED"};
const std::vector<std::string> kStages = {"TRACE_GENERATION", "PROOF_GENERATION",
                                          "PROOF_VERIFICATION"};
const std::vector<std::string> kResults = {"TRACE_GENERATION",
                                           "PROOF_GENERATION",
                                           "PROOF_VERIFICATION_ON_L1",
                                           "PROOF_VERIFICATION_ON_L2",
                                           "PROOF_VERIFICATION_ON_APE_CHAIN",
                                           "PROOF_VERIFICATION_ON_WORLD_CHAIN"};
const std::vector<std::string> kJobSizes = {"XS", "S", "M", "L"};
const std::vector<std::string> kNetworks = {"MAINNET", "TESTNET"};
const std::vector<std::string> kCairoVms = {"rust", "python"};
const std::vector<std::string> kCairoVersions = {"cairo0", "cairo1"};
const std::vector<std::string> kChains = {"L1", "L2", "APE_CHAIN", "OFFCHAIN", "WORLD_CHAIN"};
const std::vector<std::string> kHints = {"service_evm_grower", "service_sn_grower"};
const std::vector<std::string> kStoneVersions = {"stone5", "stone6"};
const std::vector<std::string> kMemoryVerifications = {"strict", "relaxed", "cairo1"};
const std::vector<std::string> kBucketStatuses = {"OPEN", "IN_PROGRESS", "DONE", "FAILED"};
const std::vector<std::string> kAggregatorVersions = {"snos_aggregator_0.13.2",
                                                      "snos_aggregator_0.13.3"};

bool contains(const std::vector<std::string>& values, const std::string& value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}
} // namespace proof_enums

template <> const std::vector<std::string>& spellingsOf<QueryStatus>() {
    return proof_enums::kStatuses;
}
template <> const std::vector<std::string>& spellingsOf<Stage>() {
    return proof_enums::kStages;
}
template <> const std::vector<std::string>& spellingsOf<QueryResult>() {
    return proof_enums::kResults;
}
template <> const std::vector<std::string>& spellingsOf<JobSize>() {
    return proof_enums::kJobSizes;
}
template <> const std::vector<std::string>& spellingsOf<Network>() {
    return proof_enums::kNetworks;
}
template <> const std::vector<std::string>& spellingsOf<CairoVm>() {
    return proof_enums::kCairoVms;
}
template <> const std::vector<std::string>& spellingsOf<CairoVersion>() {
    return proof_enums::kCairoVersions;
}
template <> const std::vector<std::string>& spellingsOf<GrowerHints>() {
    return proof_enums::kHints;
}
template <> const std::vector<std::string>& spellingsOf<StoneVersion>() {
    return proof_enums::kStoneVersions;
}
template <> const std::vector<std::string>& spellingsOf<MemoryVerification>() {
    return proof_enums::kMemoryVerifications;
}

std::string chainOf(QueryResult result) {
    switch (result) {
    case QueryResult::TraceGeneration:
    case QueryResult::ProofGeneration:
        return "OFFCHAIN";
    case QueryResult::ProofVerificationOnL1:
        return "L1";
    case QueryResult::ProofVerificationOnL2:
        return "L2";
    case QueryResult::ProofVerificationOnApeChain:
        return "APE_CHAIN";
    case QueryResult::ProofVerificationOnWorldChain:
        return "WORLD_CHAIN";
    }
    return "OFFCHAIN";
}

} // namespace proofdesk::api
