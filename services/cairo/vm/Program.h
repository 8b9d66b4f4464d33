#pragma once

#include "cairo/vm/Value.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::cairo {

class ProgramError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ApTracking {
    int group = 0;
    int offset = 0;
};

// One hint site's hint: its exact code and where its `ids` come from.
struct HintSpec {
    std::string code;
    std::vector<std::string> accessibleScopes;
    ApTracking apTracking;
    std::map<std::string, int> referenceIds; // "full.name.of.var" -> reference_manager index
};

struct ReferenceDef {
    ApTracking apTracking;
    std::uint64_t pc = 0;
    std::string value; // e.g. "[cast(fp + (-3), felt*)]"
};

// The canonical builtin order; a program's builtins must be a subsequence of it.
const std::vector<std::string>& canonicalBuiltinOrder();

// A compiled Cairo 0 program (cairo-compile JSON).
struct Program {
    std::vector<Felt> data;
    std::vector<std::string> builtins;
    std::uint64_t main = 0;
    std::optional<std::uint64_t> start; // __main__.__start__ (proof-mode compilation)
    std::optional<std::uint64_t> end;   // __main__.__end__
    std::map<std::uint64_t, std::vector<HintSpec>> hints;
    std::vector<ReferenceDef> references;
    nlohmann::json identifiers = nlohmann::json::object();
    std::string compilerVersion;
    // A Cairo 1 program (cairo1/Executable.h) carries the compiler's structured hints by pc
    // instead of `hints`: each an object of one variant, {"AllocSegment": {"dst": ...}}.
    bool cairo1 = false;
    std::map<std::uint64_t, std::vector<nlohmann::json>> cairo1Hints;

    // Throws ProgramError with a message naming what is wrong.
    static Program fromJson(const nlohmann::json& json);
    static Program fromText(const std::string& text);
    static Program fromFile(const std::string& path);

    static Program parseProgram(const nlohmann::json& json);

    // An identifier by full name, following aliases; nullptr if absent.
    const nlohmann::json* identifier(const std::string& fullName) const;
    // The value of a `const` identifier reachable from the given scopes (innermost last).
    std::optional<Felt> constant(const std::string& name,
                                 const std::vector<std::string>& scopes) const;
};

} // namespace proofdesk::cairo
