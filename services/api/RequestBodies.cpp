#include "RequestBodies.h"

#include "WireJson.h"

#include <limits>
#include <set>

namespace proofdesk::api {
namespace {

using nlohmann::json;

std::string chainIdMember(const json& body, const char* name) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        throw BodyError("MISSING_FIELD", std::string(name) + " is required");
    }
    if (it->is_number_integer()) {
        return it->dump();
    }
    if (!it->is_string()) {
        throw BodyError("INVALID_TYPE", std::string(name) + " must be a ChainId string");
    }
    return it->get<std::string>();
}

std::optional<std::int64_t> blockMember(const json& body, const char* name, bool required) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        if (required) {
            throw BodyError("MISSING_FIELD", std::string(name) + " is required");
        }
        return std::nullopt;
    }
    if (!it->is_number_integer()) {
        throw BodyError("INVALID_TYPE", std::string(name) + " must be an int64");
    }
    if (it->is_number_unsigned() &&
        it->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
        throw BodyError("INVALID_TYPE", std::string(name) + " must be an int64");
    }
    return it->get<std::int64_t>();
}

} // namespace

json toJson(const GrowOrderCreation& order) {
    return {{"accumulated_chain_id", order.accumulatedChainId},
            {"settle_chain_id", order.settleChainId},
            {"hashing_functions", order.hashingFunctions},
            {"min_batch_size", order.minBatchSize},
            {"start_block_number", detail::orNull(order.startBlockNumber)},
            {"finish_block_number", detail::orNull(order.finishBlockNumber)}};
}

GrowOrderCreation growOrderCreationFromJson(const json& body) {
    static const std::set<std::string> known{"accumulated_chain_id", "settle_chain_id",
                                             "hashing_functions",    "min_batch_size",
                                             "start_block_number",   "finish_block_number"};
    for (const auto& [key, value] : body.items()) {
        if (!known.count(key)) {
            throw BodyError("UNKNOWN_FIELD", key + " is not a field of CreateGrowOrder");
        }
    }
    GrowOrderCreation order;
    order.accumulatedChainId = chainIdMember(body, "accumulated_chain_id");
    order.settleChainId = chainIdMember(body, "settle_chain_id");
    const auto functions = body.find("hashing_functions");
    if (functions == body.end() || !functions->is_array()) {
        throw BodyError("INVALID_TYPE", "hashing_functions must be an array of HashingFunction");
    }
    for (const json& item : *functions) {
        if (!item.is_string()) {
            throw BodyError("INVALID_TYPE", "hashing_functions must be an array of strings");
        }
        order.hashingFunctions.push_back(item.get<std::string>());
    }
    order.minBatchSize = *blockMember(body, "min_batch_size", true);
    order.startBlockNumber = blockMember(body, "start_block_number", false);
    order.finishBlockNumber = blockMember(body, "finish_block_number", false);
    return order;
}

} // namespace proofdesk::api
