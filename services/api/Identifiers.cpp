#include "Identifiers.h"

#include <cstdint>

namespace proofdesk::api {

std::optional<std::string> identifierProblem(std::string_view text, std::size_t maxChars) {
    std::size_t characters = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        std::uint32_t code = lead;
        std::size_t length = 1;
        if (lead >= 0x80) {
            length = (lead & 0xe0) == 0xc0   ? 2
                     : (lead & 0xf0) == 0xe0 ? 3
                     : (lead & 0xf8) == 0xf0 ? 4
                                             : 0;
            if (length == 0 || i + length > text.size()) {
                return "is not UTF-8 text";
            }
            code = lead & (0xff >> (length + 1));
            for (std::size_t k = 1; k < length; ++k) {
                const auto next = static_cast<unsigned char>(text[i + k]);
                if ((next & 0xc0) != 0x80) {
                    return "is not UTF-8 text";
                }
                code = (code << 6) | (next & 0x3f);
            }
            static constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
            if (code < kSmallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
                return "is not UTF-8 text";
            }
        }
        if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
            return "contains a control character";
        }
        if (code == 0x2028 || code == 0x2029 || (code >= 0x202a && code <= 0x202e) ||
            (code >= 0x2066 && code <= 0x2069) || code == 0x200e || code == 0x200f) {
            return "contains a line separator or a bidirectional control character";
        }
        i += length;
        if (++characters > maxChars) {
            return "is longer than " + std::to_string(maxChars) + " characters";
        }
    }
    return std::nullopt;
}

} // namespace proofdesk::api
