#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace proofdesk::cairo {

// Parses JSON like nlohmann::json::parse, except that integer literals too large for 64 bits
// (Cairo constants, felts in PIE metadata) are kept exactly, as decimal strings, instead of
// being rounded to doubles. Returns a discarded value on a syntax error.
nlohmann::json parseExactJson(const std::string& text);

} // namespace proofdesk::cairo
