#include "ApiKeyGate.h"

namespace proofdesk::http {

std::string apiKeyOf(const HttpRequest& request) {
    for (const char* name : {"api-key", "x-api-key"}) {
        if (auto value = request.header(name); value && !value->empty()) {
            return *value;
        }
    }
    if (auto value = request.queryParam("apiKey"); value) {
        return *value;
    }
    return {};
}

auth::KeyIdentity requireApiKey(const HttpRequest& request, auth::ApiKeyRegistry& keys) {
    return keys.authenticate(QString::fromStdString(apiKeyOf(request)));
}

} // namespace proofdesk::http
