#include "ProofRoutes.h"

#include "ProofRouteSupport.h"

namespace proofdesk::routes {

void addProofRoutes(Router& router, proof::ProofService& proofs, auth::ApiKeyRegistry& keys) {
    const ProofRouteServices services{proofs, keys};
    addBucketRoutes(router, services);
    addCoreQueryRoutes(router, services);
    addV1Routes(router, services);
    addFactRoutes(router, services);
}

} // namespace proofdesk::routes
