// Ours, beside the proof service's API (docs/api.md): artifact downloads, the caller's project
// credits, and reads of the local fact registry.

#include "ProofRouteSupport.h"
#include "api/ProofBodies.h"

namespace proofdesk::routes {
namespace {

// Artifacts that carry a run's memory (its program input with it) are the owner's alone; the
// others (metadata, output, proof, verdict) are read by id like the query (docs/security.md).
bool ownerOnlyArtifact(const std::string& name) {
    return name == "pie.zip";
}

// Streamed from disk, as an attachment.
HttpResponse getArtifact(const ProofRouteServices& services, const HttpRequest& request) {
    const std::string& queryId = request.pathParams.at(0);
    const std::string& name = request.pathParams.at(1);
    if (ownerOnlyArtifact(name)) {
        const proof::Caller caller = callerOf(request, services.keys);
        if (services.proofs.queries().projectOf(queryId) != caller.projectId.toStdString()) {
            throw core::ServiceError(core::ErrorKind::NotFound, "ARTIFACT_NOT_FOUND");
        }
    }
    proof::Artifact artifact = services.proofs.queries().artifact(queryId, name, false);
    HttpResponse response;
    response.status = 200;
    response.contentType = artifact.contentType;
    response.filePath = artifact.path;
    response.headers.emplace("Content-Disposition",
                             "attachment; filename=\"" + artifact.name + "\"");
    return response;
}

// The caller's project credits (null: unlimited), for the console.
HttpResponse getCredits(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    return HttpResponse::json(
        200, api::toJson(api::ProjectCredits{caller.projectId.toStdString(),
                                             services.proofs.credits().balance(caller.projectId)}));
}

HttpResponse getFactRegistryEntry(const ProofRouteServices& services, const HttpRequest& request) {
    const std::string chain = request.pathParams.at(0);
    if (chain == "OFFCHAIN" || !api::proof_enums::contains(api::proof_enums::kChains, chain)) {
        badRequest("INVALID_CHAIN", "chain is L1, L2, APE_CHAIN or WORLD_CHAIN");
    }
    const std::string mockedText = request.queryParam("mocked").value_or("false");
    if (mockedText != "true" && mockedText != "false") {
        badRequest("INVALID_MOCKED", "mocked is true or false");
    }
    const bool mocked = mockedText == "true";
    const auto entry = services.proofs.facts().find(chain, request.pathParams.at(1), mocked);
    api::FactRegistryAnswer answer{chain, request.pathParams.at(1), mocked, entry.has_value(), {}};
    if (entry) {
        answer.factHash = entry->factHash;
        answer.entry =
            api::FactRegistryEntry{entry->id, entry->queryId, entry->programHash, entry->createdAt};
    }
    return HttpResponse::json(200, api::toJson(answer));
}

} // namespace

void addFactRoutes(Router& router, const ProofRouteServices& services) {
    const auto message = ErrorBody::MessageField;
    addNamedRoutes<ProofRouteServices>(
        router, RouteGroup::Proof, services,
        {{"GET", "/artifacts/([^/]+)/([^/]+)", message, kJsonBodyLimit, getArtifact},
         {"GET", "/credits", message, kJsonBodyLimit, getCredits, Execution::ByKind,
          Access::ApiKey},
         {"GET", "/fact-registry/([^/]+)/([^/]+)", message, kJsonBodyLimit, getFactRegistryEntry}});
}

} // namespace proofdesk::routes
