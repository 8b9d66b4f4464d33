#include "HttpTypes.h"

#include <algorithm>
#include <cctype>

namespace proofdesk::http {

bool HeaderLess::operator()(const std::string& a, const std::string& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) <
               std::tolower(static_cast<unsigned char>(y));
    });
}

std::optional<std::string> HttpRequest::header(const std::string& name) const {
    auto it = headers.find(name);
    if (it == headers.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<std::string> HttpRequest::queryParam(const std::string& name) const {
    auto it = query.find(name);
    if (it == query.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<std::string> HttpRequest::cookie(const std::string& name) const {
    auto range = headers.equal_range("Cookie");
    for (auto it = range.first; it != range.second; ++it) {
        const std::string& line = it->second;
        size_t pos = 0;
        while (pos < line.size()) {
            size_t end = line.find(';', pos);
            if (end == std::string::npos) {
                end = line.size();
            }
            std::string pair = line.substr(pos, end - pos);
            const size_t first = pair.find_first_not_of(' ');
            pair = first == std::string::npos ? std::string() : pair.substr(first);
            const size_t eq = pair.find('=');
            if (eq != std::string::npos && pair.substr(0, eq) == name) {
                return pair.substr(eq + 1);
            }
            pos = end + 1;
        }
    }
    return std::nullopt;
}

std::optional<std::string> HttpRequest::bearerToken() const {
    const auto value = header("Authorization");
    if (!value || value->size() < 7) {
        return std::nullopt;
    }
    std::string scheme = value->substr(0, 7);
    std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (scheme != "bearer ") {
        return std::nullopt;
    }
    std::string token = value->substr(7);
    const size_t first = token.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : token.substr(first);
}

HttpResponse HttpResponse::json(int status, const nlohmann::json& value) {
    HttpResponse response;
    response.status = status;
    response.body = value.dump();
    return response;
}

} // namespace proofdesk::http
