#pragma once

// Wire types of the request service (docs/api.md): one definition, used by the
// server routes and by the Qt client.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::api {

// The request service's enumerations, in the spec's order and spelling: one list for the server,
// the chain code and the console.
namespace request_enums {
extern const std::vector<std::string> kChainIds;
// The chains whose data can be proven here (EVM state in a Merkle-Patricia trie); STARKNET,
// SN_SEPOLIA and zkSync Era (300) are destinations only.
extern const std::vector<std::string> kProvableChainIds;
extern const std::vector<std::string> kBlockHeaderFields; // in the header's RLP order
extern const std::vector<std::string> kAccountFields;
} // namespace request_enums

// How a chain's state can be proven here, by its ChainId.
enum class ChainKind {
    EvmMpt,   // Ethereum L1 and the EVM L2s: keccak(rlp(header)) block hashes, MPT state
    ApeChain, // EVM with 8-field accounts (ApeFlags .. ApeDelegate)
    Starknet, // not an EVM chain: a destination only
    ZkSync,   // no MPT state (sparse Merkle tree per L1 batch): a destination only
};
// nullopt for a text that is not one of the spec's ChainIds.
std::optional<ChainKind> chainKindOf(const std::string& chainId);
// Whether data can be requested from (accumulated on) this chain here.
bool canBeOrigin(const std::string& chainId);
// KECCAK or POSEIDON (the spec's HashingFunction values) given in any case, canonical; nullopt
// for anything else.
std::optional<std::string> canonicalHashingFunction(const std::string& given);

// The request-service Query record. `typ` names the query's kind and chain (docs/api.md).
struct RequestQuery {
    std::string internalId;
    std::string status = "PENDING";
    nlohmann::json typ = nlohmann::json::object();
    std::string createdAt;
    std::optional<std::string> completedAt;
    friend bool operator==(const RequestQuery&, const RequestQuery&) = default;
};

// One action of a query: `method` names the work ({name, inputs, results, error}).
struct RequestAction {
    std::string queryId;
    int index = 0;
    std::string status = "PENDING";
    std::vector<int> dependsOn;
    std::vector<int> canTrigger;
    nlohmann::json method = nlohmann::json::object();
    std::string createdAt;
    std::optional<std::string> completedAt;
    std::optional<std::string> trackingId;
    friend bool operator==(const RequestAction&, const RequestAction&) = default;
};
// Why the action failed (its method's `error`), if it did.
std::optional<std::string> actionError(const RequestAction& action);

struct GrowOrder {
    std::string internalId;
    std::string status = "ACTIVE";
    std::string accumulatedChainId;
    std::string settleChainId;
    std::vector<std::string> hashingFunctions;
    std::int64_t minBatchSize = 1;
    std::int64_t startBlockNumber = 0;
    std::int64_t nextFromBlockNumber = 0;
    std::string createdAt;
    std::string updatedAt;
    std::optional<std::int64_t> finishBlockNumber;
    std::optional<std::string> activeQueryId;
    std::optional<std::string> cancelledAt;
    std::optional<std::string> completedAt;
    friend bool operator==(const GrowOrder&, const GrowOrder&) = default;
};

// A proven value delivered to a destination chain's local registry (our GET /proven-values).
struct ProvenValue {
    std::string destinationChainId;
    std::string originChainId;
    std::int64_t blockNumber = 0;
    std::string kind; // header, account, storage, mmr
    std::optional<std::string> account;
    std::string name; // a BlockHeaderField, an AccountField, a slot, or an MMR hashing function
    std::string value;
    std::string queryId;
    std::string createdAt;
    friend bool operator==(const ProvenValue&, const ProvenValue&) = default;
};

void to_json(nlohmann::json& out, const RequestQuery& query);
void from_json(const nlohmann::json& in, RequestQuery& query);
void to_json(nlohmann::json& out, const RequestAction& action);
void from_json(const nlohmann::json& in, RequestAction& action);
void to_json(nlohmann::json& out, const GrowOrder& order);
void from_json(const nlohmann::json& in, GrowOrder& order);
void to_json(nlohmann::json& out, const ProvenValue& value);
void from_json(const nlohmann::json& in, ProvenValue& value);

} // namespace proofdesk::api
