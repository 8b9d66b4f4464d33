// The proof service's core queries: POST /core-query, GET /core-queries, /docs/core-queries,
// /core-query/{id}, /docs/core-query/{id}, /core-query-by-dedup-id, /docs/core-query-by-dedup-id.

#include "ProofRouteSupport.h"
#include "SubmissionParts.h"

namespace proofdesk::routes {
namespace {

HttpResponse postCoreQuery(const ProofRouteServices& services, const HttpRequest& request) {
    static const std::set<std::string> allowed = [] {
        std::set<std::string> names(api::kCoreQueryTextParts.begin(),
                                    api::kCoreQueryTextParts.end());
        names.insert(api::kCoreQueryFileParts.begin(), api::kCoreQueryFileParts.end());
        return names;
    }();
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts(request, allowed);
    return created(services.proofs.intake().submit(caller, coreQueryRequestOf(parts)));
}

HttpResponse listCoreQueries(const ProofRouteServices& services, const HttpRequest& request,
                             api::QueryView view) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Page page = pageOf(request);
    proof::QueryFilter filter;
    filter.limit = page.limit;
    filter.offset = page.offset;
    filter.search = request.queryParam("search");
    if (auto status = request.queryParam("status")) {
        if (!api::proof_enums::contains(api::proof_enums::kStatuses, *status)) {
            badRequest("INVALID_STATUS", "status is RECEIVED, IN_PROGRESS, DONE or FAILED");
        }
        filter.status = status;
    }
    if (auto network = request.queryParam("network")) {
        if (!api::proof_enums::contains(api::proof_enums::kNetworks, *network)) {
            badRequest("INVALID_NETWORK", "network is MAINNET or TESTNET");
        }
        filter.network = network;
    }
    auto [queries, total] = services.proofs.queries().list(caller.projectId, filter);
    return HttpResponse::json(200, {{"coreQueries", queriesJson(queries, view)}, {"total", total}});
}

HttpResponse getCoreQueries(const ProofRouteServices& services, const HttpRequest& request) {
    return listCoreQueries(services, request, api::QueryView::Full);
}

HttpResponse getDocsCoreQueries(const ProofRouteServices& services, const HttpRequest& request) {
    return listCoreQueries(services, request, api::QueryView::Docs);
}

// The hot read path: the stored record's body as it is, not parsed again.
HttpResponse getCoreQuery(const ProofRouteServices& services, const HttpRequest& request) {
    HttpResponse response;
    response.status = 200;
    response.body = services.proofs.queries().coreQueryBody(request.pathParams.at(0));
    return response;
}

HttpResponse getDocsCoreQuery(const ProofRouteServices& services, const HttpRequest& request) {
    return coreQueryResponse(services.proofs.queries().coreQuery(request.pathParams.at(0)),
                             api::QueryView::Docs);
}

HttpResponse readByDedupId(const ProofRouteServices& services, const HttpRequest& request,
                           api::QueryView view) {
    const auto dedupId = request.queryParam("dedupId");
    const auto projectId = request.queryParam("projectId");
    if (!dedupId || dedupId->empty()) {
        badRequest("MISSING_DEDUP_ID", "dedupId is required");
    }
    if (!projectId || projectId->empty()) {
        badRequest("MISSING_PROJECT_ID", "projectId is required");
    }
    return coreQueryResponse(services.proofs.queries().coreQueryByDedupId(*projectId, *dedupId),
                             view);
}

HttpResponse getCoreQueryByDedupId(const ProofRouteServices& services, const HttpRequest& request) {
    return readByDedupId(services, request, api::QueryView::Full);
}

HttpResponse getDocsCoreQueryByDedupId(const ProofRouteServices& services,
                                       const HttpRequest& request) {
    return readByDedupId(services, request, api::QueryView::Docs);
}

} // namespace

void addCoreQueryRoutes(Router& router, const ProofRouteServices& services) {
    const auto error = ErrorBody::ErrorField;
    const auto byId = ErrorBody::MessageExceptInternal;
    addNamedRoutes<ProofRouteServices>(
        router, RouteGroup::Proof, services,
        {{"POST", "/core-query", ErrorBody::MessageField, kUploadBodyLimit, postCoreQuery,
          Execution::ByKind, Access::ApiKey},
         {"GET", "/core-queries", error, kJsonBodyLimit, getCoreQueries, Execution::ByKind,
          Access::ApiKey},
         {"GET", "/docs/core-queries", error, kJsonBodyLimit, getDocsCoreQueries, Execution::ByKind,
          Access::ApiKey},
         {"GET", "/core-query/([^/]+)", byId, kJsonBodyLimit, getCoreQuery},
         {"GET", "/docs/core-query/([^/]+)", byId, kJsonBodyLimit, getDocsCoreQuery},
         {"GET", "/core-query-by-dedup-id", byId, kJsonBodyLimit, getCoreQueryByDedupId},
         {"GET", "/docs/core-query-by-dedup-id", byId, kJsonBodyLimit, getDocsCoreQueryByDedupId}});
}

} // namespace proofdesk::routes
