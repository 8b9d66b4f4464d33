#include "AdminRoutes.h"

#include "ApiKeyGate.h"
#include "auth/ApiKeyRegistry.h"
#include "core/ServiceError.h"

namespace proofdesk::routes {
namespace {

struct AdminServices {
    auth::ApiKeyRegistry* keys;
    std::function<api::ServerStatus()> status;
};

// A project key is refused with 403: the status names every project's queue and every worker.
HttpResponse getStatus(const AdminServices& admin, const HttpRequest& request) {
    const auth::KeyIdentity caller = requireApiKey(request, *admin.keys);
    if (caller.role != auth::KeyRole::Admin) {
        throw core::ServiceError(core::ErrorKind::Forbidden, "ADMIN_KEY_REQUIRED",
                                 "this key is a project key; an operator makes an admin key "
                                 "with: proofdesk keys create --admin");
    }
    return HttpResponse::json(200, api::toJson(admin.status()));
}

} // namespace

void addAdminRoutes(Router& router, auth::ApiKeyRegistry& keys,
                    std::function<api::ServerStatus()> status) {
    // A Worker read: on a team store it queries PostgreSQL, which may wait.
    addNamedRoutes<AdminServices>(router, RouteGroup::Proof,
                                  AdminServices{&keys, std::move(status)},
                                  {{"GET", "/admin/status", ErrorBody::MessageField, kJsonBodyLimit,
                                    getStatus, Execution::Worker, Access::ApiKey}});
}

} // namespace proofdesk::routes
