#pragma once

#include "Router.h"

namespace proofdesk::auth {
class ApiKeyRegistry;
}
namespace proofdesk::request {
class RequestService;
}

namespace proofdesk::http {

// The request service's API (docs/api.md): submit-request, queries and actions, grow orders; plus
// our reads of the local registries (GET /proven-values/{destination_chain_id}, GET /mmrs;
// docs/api.md).
void addRequestRoutes(Router& router, request::RequestService& requests,
                      auth::ApiKeyRegistry& keys);

} // namespace proofdesk::http
