#pragma once

#include "HttpTypes.h"

#include <nlohmann/json.hpp>

#include <string>

namespace proofdesk::http {

// Parses a request body as a JSON object; throws ServiceError(BadRequest, MalformedJson).
nlohmann::json parseJsonObject(const HttpRequest& request,
                               const char* malformedCode = "MalformedJson");

// A required string member; throws MissingField / InvalidField (400) naming the member.
std::string requireString(const nlohmann::json& object, const char* name);

// A query parameter that must be an integer when present; throws `code` (400) otherwise.
int intQueryParam(const HttpRequest& request, const char* name, int fallback, const char* code);

} // namespace proofdesk::http
