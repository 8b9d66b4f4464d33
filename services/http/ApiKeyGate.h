#pragma once

#include "HttpTypes.h"
#include "auth/ApiKeyRegistry.h"

namespace proofdesk::http {

// The API key of a request, wherever the caller put it: header `api-key`, header `x-api-key`,
// or query parameter `apiKey` (real clients mix them; docs/architecture.md). Empty if none.
std::string apiKeyOf(const HttpRequest& request);
// The same from a request's head (the listener's header-stage check).
std::string apiKeyIn(const HttpRequest::HeaderMap& headers,
                     const std::multimap<std::string, std::string>& query);

// The project a request's key speaks for; throws MISSING_API_KEY / INVALID_API_KEY (401).
auth::KeyIdentity requireApiKey(const HttpRequest& request, auth::ApiKeyRegistry& keys);

} // namespace proofdesk::http
