#pragma once

#include "HttpNames.h"

namespace proofdesk::auth {
class ApiKeyRegistry;
}
namespace proofdesk::proof {
class ProofService;
}

namespace proofdesk::routes {

// The proof service's API: buckets, core queries (unversioned, /docs and /v1), plus our artifact
// downloads, credits and fact-registry reads (docs/api.md); each area in its own file.
void addProofRoutes(Router& router, proof::ProofService& proofs, auth::ApiKeyRegistry& keys);

} // namespace proofdesk::routes
