#include "RequestRoutes.h"

#include "ApiKeyGate.h"
#include "api/RequestBodies.h"
#include "core/BoundedJson.h"
#include "core/ServiceError.h"
#include "request/RequestService.h"

namespace proofdesk::routes {
namespace {

using nlohmann::json;

// What a request route's handler works with.
struct RequestRouteServices {
    request::RequestService& requests;
    auth::ApiKeyRegistry& keys;
};
using Services = RequestRouteServices;

// The body as api::parseUserRequest reads it; 400 or 422 (as it says) with its code otherwise.
api::UserRequest userRequestOf(const HttpRequest& request) {
    const json body = core::parseJsonBounded(request.body);
    if (body.is_discarded()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, "MALFORMED_JSON",
                                 "the body is not JSON");
    }
    try {
        return api::parseUserRequest(body);
    } catch (const api::BodyError& error) {
        throw core::ServiceError(error.status() == api::BodyError::Status::Unprocessable
                                     ? core::ErrorKind::Unprocessable
                                     : core::ErrorKind::BadRequest,
                                 error.code(), error.what());
    }
}

HttpResponse submitRequest(const Services& services, const HttpRequest& request) {
    const auth::KeyIdentity caller = requireApiKey(request, services.keys);
    const std::string id =
        services.requests.intake().submit(caller.projectId, userRequestOf(request));
    return HttpResponse::json(200, {{"status", "success"}, {"request_id", id}});
}

HttpResponse getQueries(const Services& services, const HttpRequest& request) {
    return HttpResponse::json(
        200, {{"queries", services.requests.queries().queries(request.pathParams.at(0))}});
}

HttpResponse getActions(const Services& services, const HttpRequest& request) {
    return HttpResponse::json(
        200, {{"actions", services.requests.queries().actions(request.pathParams.at(0))}});
}

HttpResponse getProvenValues(const Services& services, const HttpRequest& request) {
    request::ProvenValueFilter filter;
    filter.destinationChainId = request.pathParams.at(0);
    if (auto origin = request.queryParam("origin_chain_id")) {
        filter.originChainId = *origin;
    }
    if (auto query = request.queryParam("query_id")) {
        filter.queryId = *query;
    }
    if (request.queryParam("block_number")) {
        filter.blockNumber = intQueryParam(request, "block_number", 0, "INVALID_BLOCK_NUMBER");
    }
    filter.limit = intQueryParam(request, "limit", 50, "INVALID_LIMIT");
    filter.offset = intQueryParam(request, "offset", 0, "INVALID_OFFSET");
    if (filter.limit < 1 || filter.limit > 500 || filter.offset < 0) {
        throw core::ServiceError(core::ErrorKind::BadRequest, "INVALID_LIMIT",
                                 "limit is 1..500 and offset >= 0");
    }
    const auto [values, total] = services.requests.chainData().values(filter);
    return HttpResponse::json(200, {{"proven_values", values}, {"total", total}});
}

HttpResponse getMmrs(const Services& services, const HttpRequest& request) {
    const auto chainId = request.queryParam("chain_id");
    json list = json::array();
    for (const request::MmrStateView& mmr : services.requests.chainData().mmrStates(chainId)) {
        list.push_back({{"chain_id", mmr.chainId},
                        {"hashing_function", mmr.hashingFunction},
                        {"leaves", mmr.leaves},
                        {"size", mmr.size},
                        {"root", mmr.root},
                        {"peaks", mmr.peaks},
                        {"updated_at", mmr.updatedAt}});
    }
    return HttpResponse::json(200, {{"mmrs", list}});
}

} // namespace

void addRequestRoutes(Router& router, request::RequestService& requests,
                      auth::ApiKeyRegistry& keys) {
    const auto message = ErrorBody::MessageField;
    addNamedRoutes<Services>(
        router, RouteGroup::Request, Services{requests, keys},
        {{"POST", "/submit-request", ErrorBody::StatusAndError, kJsonBodyLimit, submitRequest,
          Execution::ByKind, Access::ApiKey},
         {"GET", "/get_queries/([^/]+)", message, kJsonBodyLimit, getQueries},
         {"GET", "/get_actions/([^/]+)", message, kJsonBodyLimit, getActions},
         {"GET", "/proven-values/([^/]+)", message, kJsonBodyLimit, getProvenValues},
         {"GET", "/mmrs", message, kJsonBodyLimit, getMmrs}});
}

} // namespace proofdesk::routes
