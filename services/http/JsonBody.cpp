#include "JsonBody.h"

#include "core/BoundedJson.h"
#include "core/ServiceError.h"

#include <charconv>

namespace proofdesk::http {

nlohmann::json parseJsonObject(const HttpRequest& request, const char* malformedCode) {
    std::string why;
    nlohmann::json value = core::parseJsonBounded(request.body, &why);
    if (value.is_discarded() || !value.is_object()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, malformedCode,
                                 why.empty() ? std::string("the body must be a JSON object")
                                             : "the body must be a JSON object; it is " + why);
    }
    return value;
}

std::string requireString(const nlohmann::json& object, const char* name) {
    if (!object.contains(name) || object[name].is_null()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, "MissingField", name);
    }
    if (!object[name].is_string()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, "InvalidField",
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
        throw core::ServiceError(core::ErrorKind::BadRequest, code,
                                 std::string(name) + " must be an integer");
    }
    return value;
}

} // namespace proofdesk::http
