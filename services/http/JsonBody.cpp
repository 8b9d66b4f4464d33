#include "JsonBody.h"

#include "core/ServiceError.h"

#include <charconv>

namespace proofdesk::http {

nlohmann::json parseJsonObject(const HttpRequest& request, const char* malformedCode) {
    nlohmann::json value = nlohmann::json::parse(request.body, nullptr, false);
    if (value.is_discarded() || !value.is_object()) {
        throw ServiceError(ErrorKind::BadRequest, malformedCode, "the body must be a JSON object");
    }
    return value;
}

std::string requireString(const nlohmann::json& object, const char* name) {
    if (!object.contains(name) || object[name].is_null()) {
        throw ServiceError(ErrorKind::BadRequest, "MissingField", name);
    }
    if (!object[name].is_string()) {
        throw ServiceError(ErrorKind::BadRequest, "InvalidField",
                           std::string(name) + " must be a string");
    }
    return object[name].get<std::string>();
}

int intQueryParam(const HttpRequest& request, const char* name, int fallback, const char* code) {
    const auto text = request.queryParam(name);
    if (!text) {
        return fallback;
    }
    int value = 0;
    const char* begin = text->data();
    const char* end = begin + text->size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || text->empty()) {
        throw ServiceError(ErrorKind::BadRequest, code, std::string(name) + " must be an integer");
    }
    return value;
}

} // namespace proofdesk::http
