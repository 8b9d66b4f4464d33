#pragma once

// What the hint differential reads from a hint's Python text to derive a case: whether it can be
// set up at all, which ids it writes, which it packs as secp values, and its own locals.

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace proofdesk::test::differential {

// Hints that touch what a derived case cannot set up (segments, memory, dicts, builtins, the
// bootloader's state, ...).
inline bool isUntouchable(const std::string& code) {
    static const char* const untouchable[] = {
        "segments", "memory.",       "memory[ids",   "memory[fp",  "vm_",
        "dict",     "keccak",        "sha256",       "blake2s",    "program_input",
        "syscall",  "task",          "builtin",      "positions",  "current_pos",
        "last_pos", "get_range",     "fact_topolog", "address_",   "globals()",
        "__",       "output_ptr",    "print(",       "bootloader", "simple_bootloader",
        "pie",      "packed_values", "data_ptr",     "n_words",    "import itertools"};
    for (const char* word : untouchable) {
        if (code.find(word) != std::string::npos) {
            return true;
        }
    }
    return code.find("memory[") != std::string::npos &&
           code.find("memory[ap]") == std::string::npos;
}

// Names assigned to (left of a lone '=') are outputs: the hint writes them.
inline std::set<std::string> assignedIdsNames(const std::string& code) {
    std::set<std::string> outputs;
    static const std::regex assignment(R"(^\s*([^=#]*[^=!<>])=[^=])");
    static const std::regex idsName(R"(ids\.([A-Za-z_][A-Za-z0-9_]*))");
    std::istringstream lines(code);
    for (std::string line; std::getline(lines, line);) {
        std::smatch match;
        if (std::regex_search(line, match, assignment)) {
            const std::string target = match[1];
            for (auto it = std::sregex_iterator(target.begin(), target.end(), idsName);
                 it != std::sregex_iterator(); ++it) {
                outputs.insert((*it)[1]);
            }
        }
    }
    return outputs;
}

// Names packed as secp BigInt3s (pack(ids.x, PRIME)) or EcPoints (pack(ids.p.x, PRIME)).
inline std::set<std::string> packedNames(const std::string& code) {
    std::set<std::string> packed;
    static const std::regex packedName(R"(pack\(ids\.([A-Za-z_][A-Za-z0-9_]*))");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), packedName);
         it != std::sregex_iterator(); ++it) {
        packed.insert((*it)[1]);
    }
    return packed;
}

// The hint's own locals (value, slope, q, r, ...), compared where the native hint keeps them.
inline std::vector<std::string> localsOf(const std::string& code) {
    std::vector<std::string> locals;
    static const std::regex localTargets(R"(^((?:\s*[A-Za-z_][A-Za-z0-9_]*\s*[,=])+)[^=])");
    static const std::regex localName(R"([A-Za-z_][A-Za-z0-9_]*)");
    std::istringstream localLines(code);
    for (std::string line; std::getline(localLines, line);) {
        std::smatch match;
        if (line.rfind("ids.", 0) != 0 && std::regex_search(line, match, localTargets)) {
            const std::string targets = match[1];
            for (auto it = std::sregex_iterator(targets.begin(), targets.end(), localName);
                 it != std::sregex_iterator(); ++it) {
                locals.push_back((*it)[0]);
            }
        }
    }
    return locals;
}

} // namespace proofdesk::test::differential
