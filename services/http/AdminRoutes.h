#pragma once

#include "Router.h"

namespace proofdesk::server {
class ServiceSet;
}

namespace proofdesk::http {

// Ours, not part of the three APIs (docs/api.md, "Administration"): GET /admin/status, the
// store, its job workers and its queue, for an admin key only (`proofdesk keys create --admin`).
// Served with the proof service.
void addAdminRoutes(Router& router, server::ServiceSet& services);

} // namespace proofdesk::http
