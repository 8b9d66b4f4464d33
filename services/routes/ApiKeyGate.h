#pragma once

#include "auth/ApiKeyRegistry.h"
#include "http/HttpTypes.h"

namespace proofdesk::routes {

// The project a request's key speaks for (the key found as http::apiKeyOf finds it); throws
// MISSING_API_KEY / INVALID_API_KEY (401).
auth::KeyIdentity requireApiKey(const http::HttpRequest& request, auth::ApiKeyRegistry& keys);

} // namespace proofdesk::routes
