#include "HealthRoutes.h"

namespace proofdesk::http {

void addHealthRoutes(Router& router) {
    router.add({"GET", "/is-alive", RouteGroup::Request, ErrorBody::MessageField, kJsonBodyLimit,
                [](const HttpRequest&) {
                    return HttpResponse::json(200, {{"message", "Alive!"}});
                }});
}

} // namespace proofdesk::http
