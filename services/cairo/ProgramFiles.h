#pragma once

#include "cairo/vm/Program.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace proofdesk::cairo {

// A program file of either Cairo, told apart by its shape: cairo-compile's JSON (Cairo 0) or
// Scarb's <name>.executable.json (Cairo 1, see cairo1/Executable.h). A Sierra file, JSON or
// text, is refused with what to build instead. Throws ProgramError naming what is wrong.
Program programFromJson(const nlohmann::json& json);
Program programFromText(const std::string& text);
Program programFromFile(const std::string& path);

// Whether the text is a Cairo 1 executable (a cheap look at its shape, for labels and routing).
bool isCairo1Executable(const nlohmann::json& json);

// A Cairo 1 program's arguments as Scarb takes them, the flat Serde felts of its parameters:
// "1,2,0x3" (--arguments), or a JSON array of numbers and decimal or hex strings
// (--arguments-file, the proof service's inputFile). Throws std::invalid_argument naming the item
// that is not a felt.
std::vector<Felt> argumentsFromList(const std::string& list);
std::vector<Felt> argumentsFromJson(const nlohmann::json& json);
std::vector<Felt> argumentsFromJsonText(const std::string& text);

} // namespace proofdesk::cairo
