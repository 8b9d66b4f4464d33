// The proof service's buckets: POST /buckets, /docs/buckets, GET /buckets, /buckets/{id},
// /docs/buckets/{id}, POST /buckets/close.

#include "HttpNames.h"
#include "ProofRouteSupport.h"
#include "api/ProofBodies.h"

namespace proofdesk::routes {
namespace {

// POST /buckets and POST /docs/buckets bodies (/docs requires aggregatorVersion).
api::BucketCreation bucketCreationOf(const HttpRequest& request, bool docs) {
    nlohmann::json body = nlohmann::json::object();
    if (!request.body.empty()) {
        body = parseJsonObject(request, "MALFORMED_JSON");
    }
    try {
        return api::bucketCreationFromJson(body, docs);
    } catch (const api::BodyError& error) {
        badRequest(error.code().c_str(), error.what());
    }
}

HttpResponse createBucket(const ProofRouteServices& services, const HttpRequest& request,
                          bool docs) {
    const proof::Caller caller = callerOf(request, services.keys);
    const api::ProofBucket bucket =
        services.proofs.buckets().create(caller, bucketCreationOf(request, docs));
    return HttpResponse::json(201, {{"coreBucket", api::toJson(bucket, docs)}});
}

HttpResponse postBucket(const ProofRouteServices& services, const HttpRequest& request) {
    return createBucket(services, request, false);
}

HttpResponse postDocsBucket(const ProofRouteServices& services, const HttpRequest& request) {
    return createBucket(services, request, true);
}

HttpResponse getBuckets(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Page page = pageOf(request);
    auto [buckets, total] =
        services.proofs.buckets().list(caller.projectId, page.limit, page.offset);
    nlohmann::json data = nlohmann::json::array();
    for (const api::ProofBucket& bucket : buckets) {
        data.push_back(api::toJson(bucket));
    }
    return HttpResponse::json(200, {{"data", data}, {"total", total}});
}

HttpResponse closeBucket(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    std::optional<std::string> bucketId = request.queryParam("bucketId");
    if (bucketId && bucketId->empty()) {
        bucketId.reset();
    }
    return HttpResponse::json(
        200, {{"coreBucket", api::toJson(services.proofs.buckets().close(caller, bucketId))}});
}

// The owner's alone: another project's bucket is not found, as on every bucket route.
HttpResponse readBucket(const ProofRouteServices& services, const HttpRequest& request, bool docs) {
    const proof::Caller caller = callerOf(request, services.keys);
    auto [bucket, queries] = services.proofs.buckets().bucket(request.pathParams.at(0));
    if (bucket.projectId != caller.projectId.toStdString()) {
        throw core::ServiceError(core::ErrorKind::NotFound, "BUCKET_NOT_FOUND");
    }
    return HttpResponse::json(200, {{"bucket", api::toJson(bucket, docs)},
                                    {"queries", queriesJson(queries, api::QueryView::InBucket)}});
}

HttpResponse getBucket(const ProofRouteServices& services, const HttpRequest& request) {
    return readBucket(services, request, false);
}

HttpResponse getDocsBucket(const ProofRouteServices& services, const HttpRequest& request) {
    return readBucket(services, request, true);
}

} // namespace

void addBucketRoutes(Router& router, const ProofRouteServices& services) {
    const auto error = ErrorBody::ErrorField;
    addNamedRoutes<ProofRouteServices>(
        router, RouteGroup::Proof, services,
        {{"POST", "/buckets", error, kJsonBodyLimit, postBucket, Execution::ByKind, Access::ApiKey},
         {"POST", "/docs/buckets", error, kJsonBodyLimit, postDocsBucket, Execution::ByKind,
          Access::ApiKey},
         {"GET", "/buckets", error, kJsonBodyLimit, getBuckets, Execution::ByKind, Access::ApiKey},
         {"POST", "/buckets/close", error, kJsonBodyLimit, closeBucket, Execution::ByKind,
          Access::ApiKey},
         {"GET", "/buckets/([^/]+)", error, kJsonBodyLimit, getBucket, Execution::ByKind,
          Access::ApiKey},
         {"GET", "/docs/buckets/([^/]+)", error, kJsonBodyLimit, getDocsBucket, Execution::ByKind,
          Access::ApiKey}});
}

} // namespace proofdesk::routes
