#include "HttpTypes.h"

#include "core/BoundedJson.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace proofdesk::http {

SpilledFile::~SpilledFile() {
    ::unlink(m_path.c_str());
}

std::string UploadedPart::bytes() const {
    if (!spilled) {
        return content;
    }
    std::string out;
    core::readFileBounded(spilled->path(), size, &out);
    return out;
}

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

bool isValidUtf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        int length = 0;
        std::uint32_t code = 0;
        if (lead < 0x80) {
            ++i;
            continue;
        }
        if ((lead & 0xe0) == 0xc0) {
            length = 2;
            code = lead & 0x1f;
        } else if ((lead & 0xf0) == 0xe0) {
            length = 3;
            code = lead & 0x0f;
        } else if ((lead & 0xf8) == 0xf0) {
            length = 4;
            code = lead & 0x07;
        } else {
            return false;
        }
        if (i + std::size_t(length) > text.size()) {
            return false;
        }
        for (int k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + std::size_t(k)]);
            if ((next & 0xc0) != 0x80) {
                return false;
            }
            code = (code << 6) | (next & 0x3f);
        }
        static constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < kSmallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
            return false;
        }
        i += std::size_t(length);
    }
    return true;
}

HttpResponse HttpResponse::json(int status, const nlohmann::json& value) {
    HttpResponse response;
    response.status = status;
    // A body may echo what a client sent (an error detail naming a file): bytes that are not
    // UTF-8 are replaced rather than failing the whole answer.
    response.body = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return response;
}

} // namespace proofdesk::http
