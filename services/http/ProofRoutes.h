#pragma once

#include "Router.h"

namespace proofdesk::auth {
class ApiKeyRegistry;
}
namespace proofdesk::proof {
class ProofService;
}

namespace proofdesk::http {

// Spec §4.2: buckets, core queries (unversioned, /docs and /v1), plus our artifact downloads and
// fact-registry reads (docs/api.md).
void addProofRoutes(Router& router, proof::ProofService& proofs, auth::ApiKeyRegistry& keys);

} // namespace proofdesk::http
