#include "cairo/vm/ExecutionResources.h"

namespace proofdesk::cairo {

nlohmann::json ExecutionResources::toJson() const {
    nlohmann::json counter = nlohmann::json::object();
    for (const auto& [name, count] : builtinInstanceCounter) {
        counter[name] = count;
    }
    return {{"n_steps", nSteps},
            {"n_memory_holes", nMemoryHoles},
            {"builtin_instance_counter", counter}};
}

} // namespace proofdesk::cairo
