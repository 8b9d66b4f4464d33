#pragma once

#include "proof/PublicInput.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace proofdesk::cairo {
class CairoRunner;
}

namespace proofdesk::stark {

struct RegisterState {
    std::uint64_t ap = 0;
    std::uint64_t fp = 0;
    std::uint64_t pc = 0;
};

// A Cairo run in proof mode as the VM writes it (cairo-run's --trace_file, --memory_file,
// --air_public_input, --air_private_input): what the prover builds the trace from.
struct CairoRun {
    nlohmann::json publicInputJson; // verbatim, for the proof's public_input
    PublicInput publicInput;
    nlohmann::json privateInput; // verbatim: trace_path, memory_path and the builtins' inputs
    std::vector<RegisterState> trace;
    // The relocated memory, dense from address 0; unset cells are absent.
    std::vector<Fp> memory;
    std::vector<bool> memorySet;

    std::optional<Fp> at(std::uint64_t address) const {
        if (address < memory.size() && memorySet[address]) {
            return memory[address];
        }
        return std::nullopt;
    }
};

// Reads a run from its four parts: the trace file (per step ap, fp, pc as little-endian u64), the
// memory file (address as little-endian u64, value as 32 little-endian bytes), and the AIR public
// and private inputs. Throws std::runtime_error naming what is malformed.
CairoRun readCairoRun(const nlohmann::json& publicInput, const nlohmann::json& privateInput,
                      std::span<const std::uint8_t> traceFile,
                      std::span<const std::uint8_t> memoryFile);

// The run a proof-mode CairoRunner just made (after run()), without files.
CairoRun cairoRunOf(const cairo::CairoRunner& runner);

// The same from files on disk: the private input's trace_path and memory_path are read relative
// to the private input's directory unless absolute (cairo-run writes them as given).
CairoRun readCairoRunFiles(const std::string& publicInputPath, const std::string& privateInputPath);

} // namespace proofdesk::stark
