#pragma once

// Request bodies of the request service that the server reads and the console writes, each
// parsed in one place: POST /grow-orders.

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

} // namespace proofdesk::api
