#pragma once

// Runs of Cairo 1 executables for the Cairo 1 suites (tst_cairo1, tst_cairo1_hints): a felt from
// its text, an executable run through its Bootloader entry (a PIE's run) or in proof mode through
// its Standalone one, and a body's cells after the run.

#include "Cairo1Programs.h"

#include "cairo/Runner.h"
#include "cairo/cairo1/Executable.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::test {

inline cairo::Felt felt(const std::string& text) {
    return *cairo::Felt::parse(text);
}

struct Cairo1Run {
    cairo::Program program;
    std::unique_ptr<cairo::CairoRunner> runner;
};

// Runs an executable: the Bootloader entry (a PIE's run), or in proof mode the Standalone one.
inline Cairo1Run runExecutable(const nlohmann::json& json, std::vector<cairo::Felt> arguments,
                               bool proofMode, const std::string& layout = "all_cairo") {
    Cairo1Run run{cairo::Executable::fromJson(json).program(), nullptr};
    cairo::RunOptions options;
    options.layout = layout;
    options.proofMode = proofMode;
    options.arguments = std::move(arguments);
    run.runner = std::make_unique<cairo::CairoRunner>(run.program, options);
    run.runner->run();
    return run;
}

// A body's cell [fp + offset] after a Bootloader-entry run (fp = execution + N + 2).
inline cairo::Value cellOf(const Cairo1Run& run, std::size_t builtinCount, int offset) {
    return run.runner->memory().get(
        {1, static_cast<std::uint64_t>(static_cast<int>(builtinCount) + 2 + offset)});
}

} // namespace proofdesk::test
