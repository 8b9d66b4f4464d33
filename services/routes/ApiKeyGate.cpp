#include "ApiKeyGate.h"

#include "http/ApiKeyLocation.h"

namespace proofdesk::routes {

auth::KeyIdentity requireApiKey(const http::HttpRequest& request, auth::ApiKeyRegistry& keys) {
    return keys.authenticate(QString::fromStdString(http::apiKeyOf(request)));
}

} // namespace proofdesk::routes
