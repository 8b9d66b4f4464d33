#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace proofdesk::api {

// The rules for identifiers and names clients choose (docs/api.md, "Identifiers and names"):
constexpr std::size_t kMaxIdLength = 128;      // dedupId, externalId, bucket externalId
constexpr std::size_t kMaxNameLength = 100;    // API key names, aggregatorVersion
constexpr std::size_t kMaxParamsLength = 4096; // a bucket's aggregatorParams

// Why `text` is not an acceptable identifier or name, or nullopt when it is: well-formed UTF-8 of
// at most `maxChars` characters, none of them a control character (C0, DEL, C1), a line or
// paragraph separator, or a bidirectional override or isolate (which make one id look like
// another).
std::optional<std::string> identifierProblem(std::string_view text, std::size_t maxChars);

} // namespace proofdesk::api
