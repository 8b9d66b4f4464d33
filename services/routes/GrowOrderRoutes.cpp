#include "GrowOrderRoutes.h"

#include "ApiKeyGate.h"
#include "core/ServiceError.h"
#include "request/RequestService.h"

#include <limits>
#include <set>

namespace proofdesk::routes {
namespace {

using nlohmann::json;

[[noreturn]] void badOrder(const char* code, const std::string& detail) {
    throw core::ServiceError(core::ErrorKind::BadRequest, code, detail);
}

std::string chainIdMember(const json& body, const char* name) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        badOrder("MISSING_FIELD", std::string(name) + " is required");
    }
    if (it->is_number_integer()) {
        return it->dump();
    }
    if (!it->is_string()) {
        badOrder("INVALID_TYPE", std::string(name) + " must be a ChainId string");
    }
    return it->get<std::string>();
}

std::optional<std::int64_t> blockMember(const json& body, const char* name, bool required) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        if (required) {
            badOrder("MISSING_FIELD", std::string(name) + " is required");
        }
        return std::nullopt;
    }
    if (!it->is_number_integer()) {
        badOrder("INVALID_TYPE", std::string(name) + " must be an int64");
    }
    if (it->is_number_unsigned() &&
        it->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
        badOrder("INVALID_TYPE", std::string(name) + " must be an int64");
    }
    return it->get<std::int64_t>();
}

request::CreateGrowOrder parseCreateGrowOrder(const json& body) {
    for (const auto& [key, value] : body.items()) {
        static const std::set<std::string> known{"accumulated_chain_id", "settle_chain_id",
                                                 "hashing_functions",    "min_batch_size",
                                                 "start_block_number",   "finish_block_number"};
        if (!known.count(key)) {
            badOrder("UNKNOWN_FIELD", key + " is not a field of CreateGrowOrder");
        }
    }
    request::CreateGrowOrder order;
    order.accumulatedChainId = chainIdMember(body, "accumulated_chain_id");
    order.settleChainId = chainIdMember(body, "settle_chain_id");
    const auto functions = body.find("hashing_functions");
    if (functions == body.end() || !functions->is_array()) {
        badOrder("INVALID_TYPE", "hashing_functions must be an array of HashingFunction");
    }
    for (const json& item : *functions) {
        if (!item.is_string()) {
            badOrder("INVALID_TYPE", "hashing_functions must be an array of strings");
        }
        order.hashingFunctions.push_back(item.get<std::string>());
    }
    order.minBatchSize = *blockMember(body, "min_batch_size", true);
    order.startBlockNumber = blockMember(body, "start_block_number", false);
    order.finishBlockNumber = blockMember(body, "finish_block_number", false);
    return order;
}

// What a grow-order route's handler works with.
struct GrowOrderRouteServices {
    request::RequestService& requests;
    auth::ApiKeyRegistry& keys;
};
using Services = GrowOrderRouteServices;

HttpResponse getGrowOrders(const Services& services, const HttpRequest& request) {
    const auth::KeyIdentity caller = requireApiKey(request, services.keys);
    return HttpResponse::json(
        200, {{"grow_orders", services.requests.growOrders().list(caller.projectId)}});
}

HttpResponse postGrowOrder(const Services& services, const HttpRequest& request) {
    const auth::KeyIdentity caller = requireApiKey(request, services.keys);
    const json body = parseJsonObject(request, "MALFORMED_JSON");
    const api::GrowOrder order =
        services.requests.growOrders().create(caller.projectId, parseCreateGrowOrder(body));
    return HttpResponse::json(200, {{"grow_order", order}});
}

HttpResponse getGrowOrder(const Services& services, const HttpRequest& request) {
    const auth::KeyIdentity caller = requireApiKey(request, services.keys);
    const auto order =
        services.requests.growOrders().order(caller.projectId, request.pathParams.at(0));
    if (!order) {
        throw core::ServiceError(core::ErrorKind::NotFound, "GROW_ORDER_NOT_FOUND");
    }
    return HttpResponse::json(200, *order);
}

HttpResponse cancelGrowOrder(const Services& services, const HttpRequest& request) {
    const auth::KeyIdentity caller = requireApiKey(request, services.keys);
    const auto order =
        services.requests.growOrders().cancel(caller.projectId, request.pathParams.at(0));
    if (!order) {
        throw core::ServiceError(core::ErrorKind::NotFound, "GROW_ORDER_NOT_FOUND");
    }
    return HttpResponse::json(200, {{"grow_order", *order}});
}

} // namespace

void addGrowOrderRoutes(Router& router, request::RequestService& requests,
                        auth::ApiKeyRegistry& keys) {
    const auto message = ErrorBody::MessageField;
    addNamedRoutes<Services>(router, RouteGroup::Request, Services{requests, keys},
                             {{"GET", "/grow-orders", message, kJsonBodyLimit, getGrowOrders,
                               Execution::ByKind, Access::ApiKey},
                              {"POST", "/grow-orders", message, kJsonBodyLimit, postGrowOrder,
                               Execution::ByKind, Access::ApiKey},
                              {"GET", "/grow-orders/([^/]+)", message, kJsonBodyLimit, getGrowOrder,
                               Execution::ByKind, Access::ApiKey},
                              {"POST", "/grow-orders/([^/]+)/cancel", message, kJsonBodyLimit,
                               cancelGrowOrder, Execution::ByKind, Access::ApiKey}});
}

} // namespace proofdesk::routes
