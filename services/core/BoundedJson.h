#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace proofdesk::core {

// Every JSON document that comes from outside (request bodies, programs, inputs, PIE members,
// proofs, settings, RPC answers, a sandboxed child's result) is parsed through here: nesting
// deeper than this is refused while parsing, before any recursive walk (dump, conversions, our
// own readers) can meet it.
constexpr int kMaxJsonDepth = 512;

struct JsonLimits {
    int maxDepth = kMaxJsonDepth;
    // Integers written without a fraction or exponent that do not fit 64 bits become their
    // decimal text (a string) instead of a lossy double: felts in Cairo inputs stay exact.
    bool exactIntegers = false;
};

// Parses `text`; on any error (syntax, depth) returns a discarded value and, when `error` is
// given, says what was wrong in a short sentence that never echoes the input.
nlohmann::json parseJsonBounded(std::string_view text, std::string* error = nullptr,
                                JsonLimits limits = {});

// Reads a whole file if it is a regular file of at most `maxBytes`; false otherwise.
bool readFileBounded(const std::string& path, std::uint64_t maxBytes, std::string* out);

// A JSON value's text cut to `maxChars` (with "..." when cut), for error messages.
std::string truncatedDump(const nlohmann::json& value, std::size_t maxChars = 200);

} // namespace proofdesk::core
