#include "RequestWire.h"

#include "WireJson.h"

#include <algorithm>
#include <cctype>

namespace proofdesk::api {

namespace request_enums {
const std::vector<std::string> kProvableChainIds{"1",     "11155111", "10",    "11155420",
                                                 "42161", "421614",   "480",   "4801",
                                                 "8453",  "84532",    "33139", "33111"};
const std::vector<std::string> kChainIds{"1",        "11155111", "STARKNET", "SN_SEPOLIA", "10",
                                         "11155420", "42161",    "421614",   "480",        "4801",
                                         "8453",     "84532",    "33139",    "33111",      "300"};
const std::vector<std::string> kBlockHeaderFields{
    "ParentHash",   "OmmersHash", "Beneficiary", "StateRoot", "TransactionsRoot",
    "ReceiptsRoot", "LogsBloom",  "Difficulty",  "Number",    "GasLimit",
    "GasUsed",      "Timestamp",  "ExtraData",   "MixHash",   "Nonce"};
const std::vector<std::string> kAccountFields{"Nonce",     "Balance",  "StorageRoot",
                                              "CodeHash",  "ApeFlags", "ApeFixed",
                                              "ApeShares", "ApeDebt",  "ApeDelegate"};
} // namespace request_enums

std::optional<ChainKind> chainKindOf(const std::string& chainId) {
    const auto& ids = request_enums::kChainIds;
    if (std::find(ids.begin(), ids.end(), chainId) == ids.end()) {
        return std::nullopt;
    }
    if (chainId == "STARKNET" || chainId == "SN_SEPOLIA") {
        return ChainKind::Starknet;
    }
    if (chainId == "300") {
        return ChainKind::ZkSync;
    }
    if (chainId == "33139" || chainId == "33111") {
        return ChainKind::ApeChain;
    }
    return ChainKind::EvmMpt;
}

bool canBeOrigin(const std::string& chainId) {
    const auto kind = chainKindOf(chainId);
    return kind == ChainKind::EvmMpt || kind == ChainKind::ApeChain;
}

std::optional<std::string> canonicalHashingFunction(const std::string& given) {
    std::string upper = given;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](char c) { return char(std::toupper(static_cast<unsigned char>(c))); });
    if (upper == "KECCAK" || upper == "POSEIDON") {
        return upper;
    }
    return std::nullopt;
}
using detail::optionalOf;
using detail::orNull;

void to_json(nlohmann::json& out, const RequestQuery& query) {
    out = {{"internal_id", query.internalId},
           {"status", query.status},
           {"typ", query.typ},
           {"created_at", query.createdAt},
           {"completed_at", orNull(query.completedAt)}};
}

void from_json(const nlohmann::json& in, RequestQuery& query) {
    in.at("internal_id").get_to(query.internalId);
    in.at("status").get_to(query.status);
    query.typ = in.at("typ");
    in.at("created_at").get_to(query.createdAt);
    query.completedAt = optionalOf<std::string>(in, "completed_at");
}

void to_json(nlohmann::json& out, const RequestAction& action) {
    out = {{"query_id", action.queryId},
           {"index", action.index},
           {"status", action.status},
           {"depends_on", action.dependsOn},
           {"can_trigger", action.canTrigger},
           {"method", action.method},
           {"created_at", action.createdAt},
           {"completed_at", orNull(action.completedAt)},
           {"tracking_id", orNull(action.trackingId)}};
}

void from_json(const nlohmann::json& in, RequestAction& action) {
    in.at("query_id").get_to(action.queryId);
    in.at("index").get_to(action.index);
    in.at("status").get_to(action.status);
    in.at("depends_on").get_to(action.dependsOn);
    in.at("can_trigger").get_to(action.canTrigger);
    action.method = in.at("method");
    in.at("created_at").get_to(action.createdAt);
    action.completedAt = optionalOf<std::string>(in, "completed_at");
    action.trackingId = optionalOf<std::string>(in, "tracking_id");
}

void to_json(nlohmann::json& out, const GrowOrder& order) {
    out = {{"internal_id", order.internalId},
           {"status", order.status},
           {"accumulated_chain_id", order.accumulatedChainId},
           {"settle_chain_id", order.settleChainId},
           {"hashing_functions", order.hashingFunctions},
           {"min_batch_size", order.minBatchSize},
           {"start_block_number", order.startBlockNumber},
           {"next_from_block_number", order.nextFromBlockNumber},
           {"created_at", order.createdAt},
           {"updated_at", order.updatedAt},
           {"finish_block_number", orNull(order.finishBlockNumber)},
           {"active_query_id", orNull(order.activeQueryId)},
           {"cancelled_at", orNull(order.cancelledAt)},
           {"completed_at", orNull(order.completedAt)}};
}

void from_json(const nlohmann::json& in, GrowOrder& order) {
    in.at("internal_id").get_to(order.internalId);
    in.at("status").get_to(order.status);
    in.at("accumulated_chain_id").get_to(order.accumulatedChainId);
    in.at("settle_chain_id").get_to(order.settleChainId);
    in.at("hashing_functions").get_to(order.hashingFunctions);
    in.at("min_batch_size").get_to(order.minBatchSize);
    in.at("start_block_number").get_to(order.startBlockNumber);
    in.at("next_from_block_number").get_to(order.nextFromBlockNumber);
    in.at("created_at").get_to(order.createdAt);
    in.at("updated_at").get_to(order.updatedAt);
    order.finishBlockNumber = optionalOf<std::int64_t>(in, "finish_block_number");
    order.activeQueryId = optionalOf<std::string>(in, "active_query_id");
    order.cancelledAt = optionalOf<std::string>(in, "cancelled_at");
    order.completedAt = optionalOf<std::string>(in, "completed_at");
}

void to_json(nlohmann::json& out, const ProvenValue& value) {
    out = {{"destination_chain_id", value.destinationChainId},
           {"origin_chain_id", value.originChainId},
           {"block_number", value.blockNumber},
           {"kind", value.kind},
           {"account", orNull(value.account)},
           {"name", value.name},
           {"value", value.value},
           {"query_id", value.queryId},
           {"created_at", value.createdAt}};
}

void from_json(const nlohmann::json& in, ProvenValue& value) {
    in.at("destination_chain_id").get_to(value.destinationChainId);
    in.at("origin_chain_id").get_to(value.originChainId);
    in.at("block_number").get_to(value.blockNumber);
    in.at("kind").get_to(value.kind);
    value.account = optionalOf<std::string>(in, "account");
    in.at("name").get_to(value.name);
    in.at("value").get_to(value.value);
    in.at("query_id").get_to(value.queryId);
    in.at("created_at").get_to(value.createdAt);
}

std::optional<std::string> actionError(const RequestAction& action) {
    const auto error = action.method.find("error");
    if (error == action.method.end() || !error->is_string()) {
        return std::nullopt;
    }
    return error->get<std::string>();
}

} // namespace proofdesk::api
