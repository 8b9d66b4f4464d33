#pragma once

// The proof service's enumerations: each a type for the code that decides on it, and the list
// of its wire spellings (the spec's, in order) for the code that reads or shows it.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::api {

namespace proof_enums {
extern const std::vector<std::string> kStatuses;      // RECEIVED, IN_PROGRESS, DONE, FAILED
extern const std::vector<std::string> kStages;        // TRACE_GENERATION .. PROOF_VERIFICATION
extern const std::vector<std::string> kResults;       // TRACE_GENERATION .. _ON_WORLD_CHAIN
extern const std::vector<std::string> kJobSizes;      // XS, S, M, L (ascending)
extern const std::vector<std::string> kNetworks;      // MAINNET, TESTNET
extern const std::vector<std::string> kCairoVms;      // rust, python
extern const std::vector<std::string> kCairoVersions; // cairo0, cairo1
extern const std::vector<std::string> kChains;        // L1, L2, APE_CHAIN, OFFCHAIN, WORLD_CHAIN
extern const std::vector<std::string> kHints;         // service_evm_grower, service_sn_grower
extern const std::vector<std::string> kStoneVersions; // stone5, stone6
extern const std::vector<std::string> kMemoryVerifications; // strict, relaxed, cairo1
extern const std::vector<std::string> kBucketStatuses;      // OPEN, IN_PROGRESS, DONE, FAILED
extern const std::vector<std::string> kAggregatorVersions;
bool contains(const std::vector<std::string>& values, const std::string& value);
} // namespace proof_enums

// Each enumerator in the order of its spellings above.
enum class QueryStatus { Received, InProgress, Done, Failed };
enum class Stage { TraceGeneration, ProofGeneration, ProofVerification };
enum class QueryResult {
    TraceGeneration,
    ProofGeneration,
    ProofVerificationOnL1,
    ProofVerificationOnL2,
    ProofVerificationOnApeChain,
    ProofVerificationOnWorldChain
};
enum class JobSize { XS, S, M, L };
enum class Network { Mainnet, Testnet };
enum class CairoVm { Rust, Python };
enum class CairoVersion { Cairo0, Cairo1 };
enum class GrowerHints { ServiceEvmGrower, ServiceSnGrower };
enum class StoneVersion { Stone5, Stone6 };
enum class MemoryVerification { Strict, Relaxed, Cairo1 };

// The wire spellings of E, in enumerator order.
template <typename E> const std::vector<std::string>& spellingsOf();
template <> const std::vector<std::string>& spellingsOf<QueryStatus>();
template <> const std::vector<std::string>& spellingsOf<Stage>();
template <> const std::vector<std::string>& spellingsOf<QueryResult>();
template <> const std::vector<std::string>& spellingsOf<JobSize>();
template <> const std::vector<std::string>& spellingsOf<Network>();
template <> const std::vector<std::string>& spellingsOf<CairoVm>();
template <> const std::vector<std::string>& spellingsOf<CairoVersion>();
template <> const std::vector<std::string>& spellingsOf<GrowerHints>();
template <> const std::vector<std::string>& spellingsOf<StoneVersion>();
template <> const std::vector<std::string>& spellingsOf<MemoryVerification>();

template <typename E> const std::string& nameOf(E value) {
    return spellingsOf<E>().at(static_cast<std::size_t>(value));
}

// The enumerator spelled `name` on the wire, if any.
template <typename E> std::optional<E> enumNamed(const std::string& name) {
    const std::vector<std::string>& names = spellingsOf<E>();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) {
            return static_cast<E>(i);
        }
    }
    return std::nullopt;
}

// The chain a result verifies on ("L1", "L2", ...), or "OFFCHAIN" for trace and proof generation.
std::string chainOf(QueryResult result);

} // namespace proofdesk::api
