#include "ProofRouteSupport.h"

#include "ApiKeyGate.h"
#include "HttpNames.h"

namespace proofdesk::routes {

void badRequest(const char* code, const std::string& detail) {
    throw core::ServiceError(core::ErrorKind::BadRequest, code, detail);
}

proof::Caller callerOf(const HttpRequest& request, auth::ApiKeyRegistry& keys) {
    const auth::KeyIdentity identity = requireApiKey(request, keys);
    return {identity.keyId, identity.keyName, identity.projectId};
}

Parts::Parts(const HttpRequest& request, const std::set<std::string>& allowed) {
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

std::optional<std::string> Parts::text(const std::string& name) const {
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

std::optional<proof::UploadedFile> Parts::file(const std::string& name) const {
    auto it = m_parts.find(name);
    if (it == m_parts.end()) {
        return std::nullopt;
    }
    const UploadedPart& part = *it->second;
    return proof::UploadedFile{part.filename, part.content,
                               part.spilled ? part.spilled->path() : std::string(), part.size};
}

std::string Parts::required(const std::string& name, const char* code) const {
    auto value = text(name);
    if (!value || value->empty()) {
        badRequest(code, name + " is required");
    }
    return *value;
}

HttpResponse created(const std::string& coreQueryId) {
    return HttpResponse::json(201, {{"coreQueryId", coreQueryId}});
}

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

} // namespace proofdesk::routes
