#pragma once

#include "HttpTypes.h"

#include <map>
#include <string>

namespace proofdesk::http {

// The API key of a request, wherever the caller put it: header `api-key`, header `x-api-key`,
// or query parameter `apiKey` (real clients mix them; docs/architecture.md). Empty if none.
std::string apiKeyOf(const HttpRequest& request);
// The same from a request's head (the listener's header-stage check).
std::string apiKeyIn(const HttpRequest::HeaderMap& headers,
                     const std::multimap<std::string, std::string>& query);

} // namespace proofdesk::http
