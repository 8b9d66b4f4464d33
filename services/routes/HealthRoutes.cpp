#include "HealthRoutes.h"

namespace proofdesk::routes {

void addHealthRoutes(Router& router) {
    router.add({"GET", "/is-alive", RouteGroup::Request, ErrorBody::MessageField, kJsonBodyLimit,
                [](const HttpRequest&) {
                    return HttpResponse::json(200, {{"message", "Alive!"}});
                }});
    // The proof service's own health check (Atlantic's GET /is-alive answers {alive: true}); on a
    // listener serving both APIs the request service's route above answers first.
    router.add({"GET", "/is-alive", RouteGroup::Proof, ErrorBody::ErrorField, kJsonBodyLimit,
                [](const HttpRequest&) {
                    return HttpResponse::json(200, {{"alive", true}});
                }});
}

} // namespace proofdesk::routes
