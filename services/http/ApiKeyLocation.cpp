#include "ApiKeyLocation.h"

namespace proofdesk::http {

std::string apiKeyIn(const HttpRequest::HeaderMap& headers,
                     const std::multimap<std::string, std::string>& query) {
    for (const char* name : {"api-key", "x-api-key"}) {
        if (const auto it = headers.find(name); it != headers.end() && !it->second.empty()) {
            return it->second;
        }
    }
    if (const auto it = query.find("apiKey"); it != query.end()) {
        return it->second;
    }
    return {};
}

std::string apiKeyOf(const HttpRequest& request) {
    return apiKeyIn(request.headers, request.query);
}

} // namespace proofdesk::http
