#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace proofdesk::http {

// Header names and tokens compare case-insensitively (RFC 9110): the ASCII lowercase of `text`.
inline std::string lowerAscii(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// `text` without the spaces and tabs around it (optional whitespace in header fields).
inline std::string trimSpaces(const std::string& text) {
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace proofdesk::http
