#pragma once

// Request bodies of the request service that the server reads and the console writes, each
// parsed in one place: POST /submit-request and POST /grow-orders.

#include "BlockSelector.h"
#include "BodyError.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::api {

// POST /grow-orders (a CreateGrowOrder). Chain ids are ChainId strings (an integer is read as
// its decimal text); block numbers are int64.
struct GrowOrderCreation {
    std::string accumulatedChainId;
    std::string settleChainId;
    std::vector<std::string> hashingFunctions;
    std::int64_t minBatchSize = 1;
    std::optional<std::int64_t> startBlockNumber;
    std::optional<std::int64_t> finishBlockNumber;
    friend bool operator==(const GrowOrderCreation&, const GrowOrderCreation&) = default;
};
nlohmann::json toJson(const GrowOrderCreation& order);
// Throws BodyError: UNKNOWN_FIELD for a field CreateGrowOrder does not have, MISSING_FIELD,
// INVALID_TYPE. What the values mean (chains, functions, ranges) the request service checks.
GrowOrderCreation growOrderCreationFromJson(const nlohmann::json& body);

struct AccountRequest {
    std::string address;                   // 0x + 40 lower-case hex digits
    std::vector<std::string> props;        // canonical AccountField values
    std::vector<std::string> storageSlots; // 0x + 64 lower-case hex digits
};

struct ProvingRequest {
    BlockSelector selector;
    std::vector<std::string> header; // canonical BlockHeaderField values
    std::vector<AccountRequest> accounts;
    std::vector<std::string> hashingFunctions; // given, or set automatically
};

struct FactHashRequest {
    std::string factHash; // 0x + 64 hex digits
    bool isMocked = false;
};

struct ChainRequest {
    std::string chainId;
    std::vector<ProvingRequest> provings;
    std::vector<FactHashRequest> factHashes;
};

// POST /submit-request (a UserRequest), parsed and validated (docs/architecture.md): both
// chain-entry forms and both field spellings accepted; canonical values kept.
struct UserRequest {
    std::vector<ChainRequest> chains;
    std::string destinationChainId;
    std::optional<nlohmann::json> settings; // {max_cost, max_time, optimize}, as validated
    std::optional<double> fee;
};

// POST /submit-request. Throws BodyError: 400 (INVALID_TYPE) for wrong JSON types, 422 for values
// the spec does not allow (UNKNOWN_FIELD, MISSING_FIELD, INVALID_CHAIN_ID, ...). The detail names
// the JSON path.
UserRequest parseUserRequest(const nlohmann::json& body);

// The canonical JSON of a request (wrapped chain-entry form, canonical spellings).
nlohmann::json canonicalJson(const UserRequest& request);

// settings.max_time for one chain (seconds), if any.
std::optional<double> maxTimeFor(const UserRequest& request, const std::string& chainId);

// The spec's AccountField values (canonical spelling).
const std::vector<std::string>& accountFieldNames();
// Canonical spelling of an enum value given as itself or in upper snake case (StateRoot /
// STATE_ROOT); nullopt if it is neither.
std::optional<std::string> canonicalEnum(const std::string& given,
                                         const std::vector<std::string>& allowed);

// Accounts in one selector's proving, and storage slots of one account (checked before any is
// read).
constexpr std::size_t kMaxAccountsPerSelector = 1000;
constexpr std::size_t kMaxSlotsPerAccount = 1000;
// settings.max_time (seconds) and settings.max_cost: finite, and at most these.
constexpr double kMaxTimeSeconds = 365.0 * 24 * 3600;
constexpr double kMaxCostSetting = 1e18;

} // namespace proofdesk::api
