#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace proofdesk::http {

// Case-insensitive header-name ordering.
struct HeaderLess {
    bool operator()(const std::string& a, const std::string& b) const;
};

// A file the server wrote an upload to; removed when the last holder lets go of it.
class SpilledFile {
public:
    explicit SpilledFile(std::string path) : m_path(std::move(path)) {}
    ~SpilledFile();
    SpilledFile(const SpilledFile&) = delete;
    SpilledFile& operator=(const SpilledFile&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

// One part of a multipart/form-data body. Small parts are held in `content`; larger ones were
// streamed to `spilled` as they arrived (an upload costs no memory of its size).
struct UploadedPart {
    std::string name;
    std::string filename;
    std::string contentType;
    std::string content;
    std::shared_ptr<const SpilledFile> spilled = {};
    std::uint64_t size = 0;

    // The bytes, read from the file when the part was spilled.
    std::string bytes() const;
};

// A request as the routes see it: no server library types leak past services/http/HttpServer.
struct HttpRequest {
    std::string method;
    std::string path;
    using HeaderMap = std::multimap<std::string, std::string, HeaderLess>;
    HeaderMap headers;
    std::multimap<std::string, std::string> query;
    std::string body;
    std::vector<std::string> pathParams; // regex captures of the matched route
    std::multimap<std::string, UploadedPart> parts;
    std::string remoteAddress;
    // The body's share of the listener's body memory, given back with the request.
    std::shared_ptr<const void> memory;

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
    // When set, the body is this file's content, streamed from disk (artifact downloads).
    std::string filePath;

    static HttpResponse json(int status, const nlohmann::json& value);
};

} // namespace proofdesk::http
