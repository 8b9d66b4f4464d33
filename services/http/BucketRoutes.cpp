// The proof service's buckets: POST /buckets, /docs/buckets, GET /buckets, /buckets/{id},
// /docs/buckets/{id}, POST /buckets/close.

#include "JsonBody.h"
#include "ProofRouteSupport.h"
#include "api/Identifiers.h"

#include <limits>
#include <tuple>

namespace proofdesk::http {
namespace {

// POST /buckets and POST /docs/buckets bodies (/docs requires aggregatorVersion).
proof::BucketRequest bucketRequestOf(const HttpRequest& request, bool docs) {
    nlohmann::json body = nlohmann::json::object();
    if (!request.body.empty()) {
        body = parseJsonObject(request, "MALFORMED_JSON");
    }
    static const std::set<std::string> known = {"externalId", "nodeWidth", "aggregatorParams",
                                                "mockProof", "aggregatorVersion"};
    for (const auto& [name, value] : body.items()) {
        if (!known.count(name)) {
            badRequest("UNKNOWN_FIELD", "\"" + name + "\" is not a bucket field");
        }
    }
    proof::BucketRequest out;
    const auto optionalString = [&](const char* name) -> std::optional<std::string> {
        auto it = body.find(name);
        if (it == body.end() || it->is_null()) {
            return std::nullopt;
        }
        if (!it->is_string()) {
            badRequest("INVALID_FIELD", std::string(name) + " is a string or null");
        }
        return it->get<std::string>();
    };
    out.externalId = optionalString("externalId");
    out.aggregatorVersion = optionalString("aggregatorVersion");
    if (auto it = body.find("aggregatorParams"); it != body.end() && !it->is_null()) {
        out.aggregatorParams = it->is_string() ? it->get<std::string>() : it->dump();
        if (out.aggregatorParams->size() > api::kMaxParamsLength) {
            badRequest("INVALID_FIELD", "aggregatorParams is longer than 4096 bytes");
        }
    }
    for (const auto& [value, name, limit] :
         {std::tuple{&out.externalId, "externalId", api::kMaxIdLength},
          std::tuple{&out.aggregatorVersion, "aggregatorVersion", api::kMaxNameLength}}) {
        if (*value) {
            if (const auto problem = api::identifierProblem(**value, limit)) {
                badRequest("INVALID_FIELD", std::string(name) + " " + *problem);
            }
        }
    }
    if (auto it = body.find("nodeWidth"); it != body.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<long long>() > std::numeric_limits<int>::max() ||
            it->get<long long>() < std::numeric_limits<int>::min()) {
            badRequest("INVALID_FIELD", "nodeWidth is a 32-bit integer or null");
        }
        out.nodeWidth = it->get<int>();
    }
    if (auto it = body.find("mockProof"); it != body.end() && !it->is_null()) {
        if (!it->is_boolean()) {
            badRequest("INVALID_FIELD", "mockProof is a boolean");
        }
        out.mockProof = it->get<bool>();
    }
    if (docs && !out.aggregatorVersion) {
        badRequest("MISSING_FIELD", "aggregatorVersion is required");
    }
    return out;
}

HttpResponse createBucket(const ProofRouteServices& services, const HttpRequest& request,
                          bool docs) {
    const proof::Caller caller = callerOf(request, services.keys);
    const api::ProofBucket bucket =
        services.proofs.buckets().create(caller, bucketRequestOf(request, docs));
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

HttpResponse readBucket(const ProofRouteServices& services, const HttpRequest& request, bool docs) {
    auto [bucket, queries] = services.proofs.buckets().bucket(request.pathParams.at(0));
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
        {{"POST", "/buckets", error, kJsonBodyLimit, postBucket},
         {"POST", "/docs/buckets", error, kJsonBodyLimit, postDocsBucket},
         {"GET", "/buckets", error, kJsonBodyLimit, getBuckets},
         {"POST", "/buckets/close", error, kJsonBodyLimit, closeBucket},
         {"GET", "/buckets/([^/]+)", error, kJsonBodyLimit, getBucket},
         {"GET", "/docs/buckets/([^/]+)", error, kJsonBodyLimit, getDocsBucket}});
}

} // namespace proofdesk::http
