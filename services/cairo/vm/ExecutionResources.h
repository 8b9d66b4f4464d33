#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::cairo {

// What a run used (cairo-run's execution resources): steps, memory holes, each builtin's
// instances ("<name>_builtin").
struct ExecutionResources {
    std::uint64_t nSteps = 0;
    std::uint64_t nMemoryHoles = 0;
    std::vector<std::pair<std::string, std::uint64_t>> builtinInstanceCounter; // "<name>_builtin"
    nlohmann::json toJson() const;
};

} // namespace proofdesk::cairo
