#pragma once

#include "HttpNames.h"
#include "api/AdminWire.h"

#include <functional>

namespace proofdesk::auth {
class ApiKeyRegistry;
}

namespace proofdesk::routes {

// Ours, not part of the three APIs (docs/api.md, "Administration"): GET /admin/status, the
// store, its job workers and its queue (as `status` reads them), for an admin key only
// (`proofdesk keys create --admin`). Served with the proof service.
void addAdminRoutes(Router& router, auth::ApiKeyRegistry& keys,
                    std::function<api::ServerStatus()> status);

} // namespace proofdesk::routes
