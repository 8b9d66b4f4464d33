#pragma once

#include "Runner.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::cairo {

struct CairoPie;

// How one run is set up, whoever asks for it (`proofdesk cairo-run`, `proofdesk prove`, the proof
// service's sandboxed run): the one place where these become the VM's RunOptions.
struct RunSetup {
    std::string layout = "plain"; // a named layout, "dynamic", or "auto"
    std::optional<nlohmann::json> dynamicLayoutParams;
    bool proofMode = false;
    HintExecution hints = HintExecution::NativeOnly; // cairoVm rust, or python
    std::chrono::milliseconds pythonTimeLimit{std::chrono::minutes(5)};
    std::optional<std::uint64_t> maxSteps;
    std::optional<std::uint64_t> steps;
    std::optional<std::uint64_t> minSteps;
    std::optional<bool> allowMissingBuiltins;
    bool traceEnabled = true;
    // Whether hints may read and write the files a program input names (the bootloader's
    // CairoPiePath tasks, its fact_topologies_path): on the command line, never in a server's run.
    bool fileAccess = true;
    // A Cairo 1 executable's arguments (its WriteRunParam input); empty for Cairo 0.
    std::vector<Felt> arguments;
};

// cairoVm's spellings: "rust" (native hints only) and "python" (native, then Python).
std::optional<HintExecution> hintExecutionNamed(const std::string& cairoVm);
const char* cairoVmName(HintExecution execution);

// The options of a run of `setup` whose program_input is `programInputText` (JSON, read exactly:
// integers beyond 64 bits stay exact; empty: an empty object). Throws std::invalid_argument when
// the text is not JSON.
RunOptions runOptionsOf(const RunSetup& setup, const std::string& programInputText = {});

// The options of the bootloader's run proving one Cairo PIE as its only task, the way SHARP proves
// a PIE: the PIE given (named `piePath` in the bootloader's input), or, when `pie` is null, the
// file at `piePath`.
RunOptions runOptionsForPie(const RunSetup& setup, std::shared_ptr<const CairoPie> pie,
                            const std::string& piePath);

} // namespace proofdesk::cairo
