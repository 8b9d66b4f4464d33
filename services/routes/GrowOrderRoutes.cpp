#include "GrowOrderRoutes.h"

#include "ApiKeyGate.h"
#include "api/RequestBodies.h"
#include "core/ServiceError.h"
#include "request/RequestService.h"

namespace proofdesk::routes {
namespace {

using nlohmann::json;

// The body as api::growOrderCreationFromJson reads it; 400 with its code otherwise.
api::GrowOrderCreation growOrderCreationOf(const HttpRequest& request) {
    const json body = parseJsonObject(request, "MALFORMED_JSON");
    try {
        return api::growOrderCreationFromJson(body);
    } catch (const api::BodyError& error) {
        throw core::ServiceError(core::ErrorKind::BadRequest, error.code(), error.what());
    }
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
    const api::GrowOrder order =
        services.requests.growOrders().create(caller.projectId, growOrderCreationOf(request));
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
