#pragma once

#include "HttpNames.h"

namespace proofdesk::auth {
class ApiKeyRegistry;
}
namespace proofdesk::request {
class RequestService;
}

namespace proofdesk::routes {

// The request service's API (docs/api.md): submit-request, queries and actions (grow orders:
// GrowOrderRoutes.h); plus our reads of the local registries (GET
// /proven-values/{destination_chain_id}, GET /mmrs; docs/api.md).
void addRequestRoutes(Router& router, request::RequestService& requests,
                      auth::ApiKeyRegistry& keys);

} // namespace proofdesk::routes
