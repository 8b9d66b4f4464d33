#pragma once

// What the proof service's route files share: the services their handlers use, the caller of a
// request, multipart parts, paging, and the JSON of query lists. The routes themselves are in
// BucketRoutes.cpp, CoreQueryRoutes.cpp, V1Routes.cpp and FactRoutes.cpp; ProofRoutes.cpp adds
// them all.

#include "HttpNames.h"
#include "api/ProofWire.h"
#include "core/ServiceError.h"
#include "proof/ProofService.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace proofdesk::auth {
class ApiKeyRegistry;
}

namespace proofdesk::routes {

// What a proof route's handler works with.
struct ProofRouteServices {
    proof::ProofService& proofs;
    auth::ApiKeyRegistry& keys;
};
using ProofRoute = NamedRoute<ProofRouteServices>;

[[noreturn]] void badRequest(const char* code, const std::string& detail = {});

// The API key's caller (401 without a valid key).
proof::Caller callerOf(const HttpRequest& request, auth::ApiKeyRegistry& keys);

// The parts of a multipart submission, each named at most once and all of them known to the route.
class Parts {
public:
    Parts(const HttpRequest& request, const std::set<std::string>& allowed);
    // A text part, checked to be UTF-8.
    std::optional<std::string> text(const std::string& name) const;
    std::optional<proof::UploadedFile> file(const std::string& name) const;
    // A non-empty text part, or 400 `code`.
    std::string required(const std::string& name, const char* code) const;

private:
    std::map<std::string, const UploadedPart*> m_parts;
};

// 201 {"coreQueryId": ...}.
HttpResponse created(const std::string& coreQueryId);

struct Page {
    int limit;
    int offset;
};
// ?limit (1..500, default 50) and ?offset (>= 0).
Page pageOf(const HttpRequest& request);

nlohmann::json queriesJson(const std::vector<api::ProofQuery>& queries, api::QueryView view);
HttpResponse coreQueryResponse(const api::CoreQueryResponse& found, api::QueryView view);

// The routes of each area, for addProofRoutes.
void addBucketRoutes(Router& router, const ProofRouteServices& services);
void addCoreQueryRoutes(Router& router, const ProofRouteServices& services);
void addV1Routes(Router& router, const ProofRouteServices& services);
void addFactRoutes(Router& router, const ProofRouteServices& services);

} // namespace proofdesk::routes
