#pragma once

#include "HttpNames.h"

namespace proofdesk::auth {
class ApiKeyRegistry;
}
namespace proofdesk::request {
class RequestService;
}

namespace proofdesk::routes {

// The request service's grow orders (docs/api.md): list, create, read and cancel a project's
// orders extending MMR accumulators.
void addGrowOrderRoutes(Router& router, request::RequestService& requests,
                        auth::ApiKeyRegistry& keys);

} // namespace proofdesk::routes
