#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace proofdesk::http {

// Case-insensitive header-name ordering.
struct HeaderLess {
    bool operator()(const std::string& a, const std::string& b) const;
};

struct UploadedPart {
    std::string name;
    std::string filename;
    std::string contentType;
    std::string content;
};

// A request as the routes see it: no server library types leak past services/http/HttpServer.
struct HttpRequest {
    std::string method;
    std::string path;
    std::multimap<std::string, std::string, HeaderLess> headers;
    std::multimap<std::string, std::string> query;
    std::string body;
    std::vector<std::string> pathParams; // regex captures of the matched route
    std::multimap<std::string, UploadedPart> parts;
    std::string remoteAddress;

    std::optional<std::string> header(const std::string& name) const;
    std::optional<std::string> queryParam(const std::string& name) const;
    std::optional<std::string> cookie(const std::string& name) const;
    // The token of "Authorization: Bearer <token>", if that header has that form.
    std::optional<std::string> bearerToken() const;
};

// Whether the bytes are well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
bool isValidUtf8(std::string_view text);

struct HttpResponse {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::multimap<std::string, std::string> headers;

    static HttpResponse json(int status, const nlohmann::json& value);
};

} // namespace proofdesk::http
