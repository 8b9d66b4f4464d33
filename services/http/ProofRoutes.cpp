#include "ProofRoutes.h"

#include "ApiKeyGate.h"
#include "JsonBody.h"
#include "api/Identifiers.h"
#include "auth/ApiKeyRegistry.h"
#include "core/ServiceError.h"
#include "proof/ProofService.h"

#include <algorithm>
#include <limits>
#include <set>

namespace proofdesk::http {
namespace {

using proof::Submission;
using proof::UploadedFile;

[[noreturn]] void badRequest(const char* code, const std::string& detail = {}) {
    throw ServiceError(ErrorKind::BadRequest, code, detail);
}

proof::Caller callerOf(const HttpRequest& request, auth::ApiKeyRegistry& keys) {
    const auth::KeyIdentity identity = requireApiKey(request, keys);
    return {identity.keyId, identity.keyName, identity.projectId};
}

// The parts of a multipart submission, each named at most once and all of them known to the route.
class Parts {
public:
    Parts(const HttpRequest& request, std::set<std::string> allowed) {
        if (request.parts.empty() && !request.body.empty()) {
            badRequest("EXPECTED_MULTIPART_FORM_DATA", "send the parts as multipart/form-data");
        }
        for (const auto& [name, part] : request.parts) {
            if (!allowed.count(name)) {
                std::string list;
                for (const std::string& known : allowed) {
                    list += (list.empty() ? "" : ", ") + known;
                }
                badRequest("UNKNOWN_PART",
                           "\"" + name + "\" is not a part of this route (" + list + ")");
            }
            if (request.parts.count(name) > 1) {
                badRequest("DUPLICATE_PART", "\"" + name + "\" is given more than once");
            }
            m_parts.emplace(name, &part);
        }
    }
    std::optional<std::string> text(const std::string& name) const {
        auto it = m_parts.find(name);
        if (it == m_parts.end()) {
            return std::nullopt;
        }
        std::string value = it->second->bytes();
        if (!isValidUtf8(value)) {
            badRequest("INVALID_UTF8", name + " is not UTF-8 text");
        }
        return value;
    }
    std::optional<UploadedFile> file(const std::string& name) const {
        auto it = m_parts.find(name);
        if (it == m_parts.end()) {
            return std::nullopt;
        }
        const UploadedPart& part = *it->second;
        return UploadedFile{part.filename, part.content,
                            part.spilled ? part.spilled->path() : std::string(), part.size};
    }
    std::string required(const std::string& name, const char* code) const {
        auto value = text(name);
        if (!value || value->empty()) {
            badRequest(code, name + " is required");
        }
        return *value;
    }

private:
    std::map<std::string, const UploadedPart*> m_parts;
};

// /v1 routes take cairoVersion "0" (the only one supported on trace routes, spec §8).
std::string traceCairoVersion(const Parts& parts) {
    const std::string version = parts.required("cairoVersion", "MISSING_CAIRO_VERSION");
    if (version != "0" && version != "cairo0") {
        badRequest("UNSUPPORTED_CAIRO_VERSION", "only cairoVersion 0 is supported here");
    }
    return "cairo0";
}

HttpResponse created(const std::string& coreQueryId) {
    return HttpResponse::json(201, {{"coreQueryId", coreQueryId}});
}

struct Page {
    int limit;
    int offset;
};

Page pageOf(const HttpRequest& request) {
    const int limit = intQueryParam(request, "limit", 50, "INVALID_LIMIT");
    const int offset = intQueryParam(request, "offset", 0, "INVALID_OFFSET");
    if (limit < 1 || limit > 500) {
        badRequest("INVALID_LIMIT", "limit is from 1 to 500");
    }
    if (offset < 0) {
        badRequest("INVALID_OFFSET", "offset is at least 0");
    }
    return {limit, offset};
}

nlohmann::json queriesJson(const std::vector<api::ProofQuery>& queries, api::QueryView view) {
    nlohmann::json list = nlohmann::json::array();
    for (const api::ProofQuery& query : queries) {
        list.push_back(api::toJson(query, view));
    }
    return list;
}

HttpResponse coreQueryResponse(const api::CoreQueryResponse& found, api::QueryView view) {
    return HttpResponse::json(200, {{"coreQuery", api::toJson(found.coreQuery, view)},
                                    {"metadataUrls", found.metadataUrls}});
}

// POST /buckets and POST /docs/buckets bodies.
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

const std::set<std::string> kCoreQueryParts = {
    "externalId",         "dedupId",        "sharpProver",     "layout",  "cairoVm",
    "cairoVersion",       "result",         "mockFactHash",    "network", "programHash",
    "bucketId",           "bucketJobIndex", "declaredJobSize", "hints",   "stoneVersion",
    "memoryVerification", "programFile",    "inputFile",       "pieFile", "proofFile"};

} // namespace

void addProofRoutes(Router& router, proof::ProofService& proofs, auth::ApiKeyRegistry& keys) {
    const auto group = RouteGroup::Proof;
    const auto error = ErrorBody::ErrorField;
    const auto message = ErrorBody::MessageField;
    const auto byId = ErrorBody::MessageExceptInternal;

    // --- buckets ---
    const auto createBucket = [&proofs, &keys](bool docs) {
        return [&proofs, &keys, docs](const HttpRequest& request) {
            const proof::Caller caller = callerOf(request, keys);
            const api::ProofBucket bucket =
                proofs.createBucket(caller, bucketRequestOf(request, docs));
            return HttpResponse::json(201, {{"coreBucket", api::toJson(bucket, docs)}});
        };
    };
    router.add({"POST", "/buckets", group, error, kJsonBodyLimit, createBucket(false)});
    router.add({"POST", "/docs/buckets", group, error, kJsonBodyLimit, createBucket(true)});
    router.add({"GET", "/buckets", group, error, kJsonBodyLimit,
                [&proofs, &keys](const HttpRequest& request) {
                    const proof::Caller caller = callerOf(request, keys);
                    const Page page = pageOf(request);
                    auto [buckets, total] =
                        proofs.listBuckets(caller.projectId, page.limit, page.offset);
                    nlohmann::json data = nlohmann::json::array();
                    for (const api::ProofBucket& bucket : buckets) {
                        data.push_back(api::toJson(bucket));
                    }
                    return HttpResponse::json(200, {{"data", data}, {"total", total}});
                }});
    router.add({"POST", "/buckets/close", group, error, kJsonBodyLimit,
                [&proofs, &keys](const HttpRequest& request) {
                    const proof::Caller caller = callerOf(request, keys);
                    std::optional<std::string> bucketId = request.queryParam("bucketId");
                    if (bucketId && bucketId->empty()) {
                        bucketId.reset();
                    }
                    return HttpResponse::json(
                        200, {{"coreBucket", api::toJson(proofs.closeBucket(caller, bucketId))}});
                }});
    const auto readBucket = [&proofs](bool docs) {
        return [&proofs, docs](const HttpRequest& request) {
            auto [bucket, queries] = proofs.bucket(request.pathParams.at(0));
            return HttpResponse::json(
                200, {{"bucket", api::toJson(bucket, docs)},
                      {"queries", queriesJson(queries, api::QueryView::InBucket)}});
        };
    };
    router.add({"GET", "/buckets/([^/]+)", group, error, kJsonBodyLimit, readBucket(false)});
    router.add({"GET", "/docs/buckets/([^/]+)", group, error, kJsonBodyLimit, readBucket(true)});

    // --- core queries ---
    router.add({"POST", "/core-query", group, message, kUploadBodyLimit,
                [&proofs, &keys](const HttpRequest& request) {
                    const proof::Caller caller = callerOf(request, keys);
                    const Parts parts(request, kCoreQueryParts);
                    Submission submission;
                    for (const auto& [name, target] :
                         std::initializer_list<std::pair<const char*, std::optional<std::string>*>>{
                             {"externalId", &submission.externalId},
                             {"dedupId", &submission.dedupId},
                             {"sharpProver", &submission.sharpProver},
                             {"layout", &submission.layout},
                             {"cairoVm", &submission.cairoVm},
                             {"cairoVersion", &submission.cairoVersion},
                             {"result", &submission.result},
                             {"mockFactHash", &submission.mockFactHash},
                             {"network", &submission.network},
                             {"programHash", &submission.programHash},
                             {"bucketId", &submission.bucketId},
                             {"bucketJobIndex", &submission.bucketJobIndex},
                             {"declaredJobSize", &submission.declaredJobSize},
                             {"hints", &submission.hints},
                             {"stoneVersion", &submission.stoneVersion},
                             {"memoryVerification", &submission.memoryVerification}}) {
                        *target = parts.text(name);
                    }
                    submission.programFile = parts.file("programFile");
                    submission.inputFile = parts.file("inputFile");
                    submission.pieFile = parts.file("pieFile");
                    submission.proofFile = parts.file("proofFile");
                    return created(proofs.submit(caller, submission));
                }});
    const auto listQueries = [&proofs, &keys](api::QueryView view) {
        return [&proofs, &keys, view](const HttpRequest& request) {
            const proof::Caller caller = callerOf(request, keys);
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
            auto [queries, total] = proofs.listQueries(caller.projectId, filter);
            return HttpResponse::json(
                200, {{"coreQueries", queriesJson(queries, view)}, {"total", total}});
        };
    };
    router.add(
        {"GET", "/core-queries", group, error, kJsonBodyLimit, listQueries(api::QueryView::Full)});
    router.add({"GET", "/docs/core-queries", group, error, kJsonBodyLimit,
                listQueries(api::QueryView::Docs)});
    const auto readQuery = [&proofs](api::QueryView view) {
        return [&proofs, view](const HttpRequest& request) {
            return coreQueryResponse(proofs.coreQuery(request.pathParams.at(0)), view);
        };
    };
    router.add({"GET", "/core-query/([^/]+)", group, byId, kJsonBodyLimit,
                [&proofs](const HttpRequest& request) {
                    HttpResponse response;
                    response.status = 200;
                    response.body = proofs.coreQueryBody(request.pathParams.at(0));
                    return response;
                }});
    router.add({"GET", "/docs/core-query/([^/]+)", group, byId, kJsonBodyLimit,
                readQuery(api::QueryView::Docs)});
    const auto readByDedup = [&proofs](api::QueryView view) {
        return [&proofs, view](const HttpRequest& request) {
            const auto dedupId = request.queryParam("dedupId");
            const auto projectId = request.queryParam("projectId");
            if (!dedupId || dedupId->empty()) {
                badRequest("MISSING_DEDUP_ID", "dedupId is required");
            }
            if (!projectId || projectId->empty()) {
                badRequest("MISSING_PROJECT_ID", "projectId is required");
            }
            return coreQueryResponse(proofs.coreQueryByDedupId(*projectId, *dedupId), view);
        };
    };
    router.add({"GET", "/core-query-by-dedup-id", group, byId, kJsonBodyLimit,
                readByDedup(api::QueryView::Full)});
    router.add({"GET", "/docs/core-query-by-dedup-id", group, byId, kJsonBodyLimit,
                readByDedup(api::QueryView::Docs)});

    // --- /v1 ---
    router.add({"POST", "/v1/trace-generation", group, message, kUploadBodyLimit,
                [&proofs, &keys](const HttpRequest& request) {
                    const proof::Caller caller = callerOf(request, keys);
                    const Parts parts(request,
                                      {"programFile", "programHash", "inputFile", "cairoVersion"});
                    Submission submission;
                    submission.cairoVersion = traceCairoVersion(parts);
                    submission.programFile = parts.file("programFile");
                    submission.programHash = parts.text("programHash");
                    submission.inputFile = parts.file("inputFile");
                    submission.result = "TRACE_GENERATION";
                    return created(proofs.submit(caller, submission));
                }});
    router.add({"POST", "/v1/l1/core-query/proof-generation-verification", group, message,
                kUploadBodyLimit, [&proofs, &keys](const HttpRequest& request) {
                    const proof::Caller caller = callerOf(request, keys);
                    const Parts parts(request, {"pieFile", "mockFactHash"});
                    Submission submission;
                    submission.pieFile = parts.file("pieFile");
                    if (!submission.pieFile) {
                        badRequest("MISSING_PIE_FILE", "pieFile is required");
                    }
                    submission.mockFactHash =
                        parts.required("mockFactHash", "MISSING_MOCK_FACT_HASH");
                    submission.result = "PROOF_VERIFICATION_ON_L1";
                    return created(proofs.submit(caller, submission));
                }});
    const auto traceAndProve = [&proofs, &keys](const HttpRequest& request) {
        const proof::Caller caller = callerOf(request, keys);
        const Parts parts(request, {"programFile", "programHash", "inputFile", "cairoVersion",
                                    "prover", "layout"});
        Submission submission;
        submission.cairoVersion = traceCairoVersion(parts);
        const std::string prover = parts.text("prover").value_or("vendor_sharp");
        if (prover != "vendor_sharp" && prover != "stone" && !prover.empty()) {
            badRequest("INVALID_PROVER", "prover is vendor_sharp (the server's configured prover)");
        }
        submission.programFile = parts.file("programFile");
        submission.programHash = parts.text("programHash");
        submission.inputFile = parts.file("inputFile");
        submission.layout = parts.text("layout");
        submission.result = "PROOF_GENERATION";
        return created(proofs.submit(caller, submission));
    };
    router.add({"POST", "/v1/trace-generation-proof-generation", group, message, kUploadBodyLimit,
                traceAndProve});
    router.add({"POST", "/trace-generation-proof-generation", group, message, kUploadBodyLimit,
                traceAndProve});
    router.add(
        {"POST", "/v1/l2/core-query/proof-verification", group, message, kUploadBodyLimit,
         [&proofs, &keys](const HttpRequest& request) {
             const proof::Caller caller = callerOf(request, keys);
             const Parts parts(request,
                               {"proofFile", "mockFactHash", "stoneVersion", "memoryVerification"});
             Submission submission;
             submission.proofFile = parts.file("proofFile");
             if (!submission.proofFile) {
                 badRequest("MISSING_PROOF_FILE", "proofFile is required");
             }
             submission.mockFactHash = parts.required("mockFactHash", "MISSING_MOCK_FACT_HASH");
             submission.stoneVersion = parts.required("stoneVersion", "MISSING_STONE_VERSION");
             submission.memoryVerification =
                 parts.required("memoryVerification", "MISSING_MEMORY_VERIFICATION");
             submission.result = "PROOF_VERIFICATION_ON_L2";
             return created(proofs.submit(caller, submission));
         }});
    router.add({"POST", "/v1/submit-program", group, message, kUploadBodyLimit,
                [&proofs, &keys](const HttpRequest& request) {
                    callerOf(request, keys);
                    const Parts parts(request, {"programFile", "cairoVersion"});
                    const auto programFile = parts.file("programFile");
                    if (!programFile) {
                        badRequest("MISSING_PROGRAM_FILE", "programFile is required");
                    }
                    const std::string version =
                        parts.required("cairoVersion", "MISSING_CAIRO_VERSION");
                    if (version == "1" || version == "cairo1") {
                        badRequest("CAIRO1_PROGRAMS_NOT_SUPPORTED",
                                   "this server registers Cairo 0 programs");
                    }
                    if (version != "0" && version != "cairo0") {
                        badRequest("INVALID_CAIRO_VERSION", "cairoVersion is 0");
                    }
                    return HttpResponse::json(
                        201, {{"programHash", proofs.submitProgram(*programFile, "cairo0")}});
                }});

    // --- ours: artifacts and the fact registry ---
    router.add({"GET", "/artifacts/([^/]+)/([^/]+)", group, message, kJsonBodyLimit,
                [&proofs](const HttpRequest& request) {
                    proof::Artifact artifact =
                        proofs.artifact(request.pathParams.at(0), request.pathParams.at(1), false);
                    HttpResponse response;
                    response.status = 200;
                    response.contentType = artifact.contentType;
                    response.filePath = artifact.path; // streamed from disk
                    response.headers.emplace("Content-Disposition",
                                             "attachment; filename=\"" + artifact.name + "\"");
                    return response;
                }});
    // Ours: the caller's project credits (null: unlimited), for the console.
    router.add(
        {"GET", "/credits", group, message, kJsonBodyLimit,
         [&proofs, &keys](const HttpRequest& request) {
             const proof::Caller caller = callerOf(request, keys);
             const auto credits = proofs.credits(caller.projectId);
             return HttpResponse::json(
                 200, {{"projectId", caller.projectId.toStdString()},
                       {"credits", credits ? nlohmann::json(*credits) : nlohmann::json(nullptr)}});
         }});
    router.add({"GET", "/fact-registry/([^/]+)/([^/]+)", group, message, kJsonBodyLimit,
                [&proofs](const HttpRequest& request) {
                    const std::string chain = request.pathParams.at(0);
                    if (chain == "OFFCHAIN" ||
                        !api::proof_enums::contains(api::proof_enums::kChains, chain)) {
                        badRequest("INVALID_CHAIN", "chain is L1, L2, APE_CHAIN or WORLD_CHAIN");
                    }
                    const std::string mockedText = request.queryParam("mocked").value_or("false");
                    if (mockedText != "true" && mockedText != "false") {
                        badRequest("INVALID_MOCKED", "mocked is true or false");
                    }
                    const bool mocked = mockedText == "true";
                    const auto entry = proofs.fact(chain, request.pathParams.at(1), mocked);
                    nlohmann::json body = {{"chain", chain},
                                           {"factHash", request.pathParams.at(1)},
                                           {"mocked", mocked},
                                           {"valid", entry.has_value()},
                                           {"entry", nullptr}};
                    if (entry) {
                        body["factHash"] = entry->factHash;
                        body["entry"] = {
                            {"transactionId", entry->id},
                            {"queryId", entry->queryId ? nlohmann::json(*entry->queryId)
                                                       : nlohmann::json(nullptr)},
                            {"programHash", entry->programHash ? nlohmann::json(*entry->programHash)
                                                               : nlohmann::json(nullptr)},
                            {"registeredAt", entry->createdAt}};
                    }
                    return HttpResponse::json(200, body);
                }});
}

} // namespace proofdesk::http
