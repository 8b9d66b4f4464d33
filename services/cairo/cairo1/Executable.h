#pragma once

#include "cairo/vm/Program.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace proofdesk::cairo {

// A Cairo 1 program as Scarb builds it (`target/<profile>/<name>.executable.json`, the
// cairo-lang-executable format): CASM bytecode, the compiler's structured hints by pc, and its
// entry points (../shared/fixtures/cairo1/README.md has the facts).
struct Executable {
    enum class EntryKind { Standalone, Bootloader };
    struct Entrypoint {
        EntryKind kind = EntryKind::Standalone;
        std::uint64_t offset = 0;
        std::vector<std::string> builtins;
    };

    std::vector<Felt> bytecode;
    std::map<std::uint64_t, std::vector<nlohmann::json>> hints;
    std::vector<Entrypoint> entrypoints;

    // Throws ProgramError naming what is wrong (a Sierra file says to build the executable).
    static Executable fromJson(const nlohmann::json& json);
    static Executable fromText(const std::string& text);
    static Executable fromFile(const std::string& path);

    // The entry point of that kind; throws ProgramError when the executable has none.
    const Entrypoint& entrypoint(EntryKind kind) const;

    // The program its runs are: proof mode starts at the Standalone entry (its prologue's
    // `call`, ending at the `jmp rel 0` 4 words in), a plain run (a PIE) calls the Bootloader
    // entry as its main with the builtin pointers, as the bootloader runs its tasks. The builtins
    // are the entry points' (the two name the same). Its program hash is cairo-lang's hash chain
    // over the bytecode with main = the Bootloader entry, the hash the bootloader computes for
    // the program's PIE.
    Program program() const;
};

const char* entryKindName(Executable::EntryKind kind);

// What a JSON file is, by its shape, before it is read as one.
enum class ProgramFormat { Cairo0, Cairo1Executable, Sierra, Unknown };
ProgramFormat programFormatOf(const nlohmann::json& json);
// Whether a program's words and main are a Cairo 1 executable's run from its Bootloader entry (a
// Cairo 1 PIE's program): the Standalone prologue every executable starts with, main after it.
bool isCairo1ExecutableProgram(const std::vector<Felt>& data, std::uint64_t main);
// Why a Sierra program is not run, and what to give instead.
std::string sierraRefusal();

} // namespace proofdesk::cairo
