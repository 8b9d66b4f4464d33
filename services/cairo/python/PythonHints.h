#pragma once

// Hints without a native implementation, run as Python in an embedded CPython (cairoVm=python).
// The interpreter starts once per process, isolated from the environment: no site-packages, no
// user paths, and an audit hook that refuses network access and new processes. Hint code sees
// what cairo-lang's runner gives it (ids, memory, segments, ap/fp/pc, execution scopes,
// program_input, builtin runners) and can import the helper modules Proofdesk ships
// (resources/python: starkware.* helpers written from their documented behaviour).

#include "cairo/hints/HintProcessor.h"
#include "cairo/vm/Program.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::cairo {

// Whether the embedded interpreter is running (starting it on first use); if not, why.
bool pythonHintsAvailable(std::string* why = nullptr);

// One run's Python hints: their compiled code and the run's scope dictionaries.
class PythonHintEngine : public FallbackHintEngine {
public:
    // `timeLimit` bounds the total time the run may spend in Python hints. `programInputText`,
    // when given, is the input file as written: Python reads it again, so integers of any size
    // stay Python ints (programInput keeps those beyond 64 bits as decimal strings).
    PythonHintEngine(const nlohmann::json& programInput,
                     const std::vector<std::unique_ptr<BuiltinRunner>>& builtins,
                     std::chrono::milliseconds timeLimit, const std::string& programInputText = {});
    ~PythonHintEngine() override;
    PythonHintEngine(const PythonHintEngine&) = delete;
    PythonHintEngine& operator=(const PythonHintEngine&) = delete;

    // Compiles a hint's code once; throws VmError (with Python's message) if it does not compile.
    int compile(const HintSpec& spec, std::uint64_t pc) override;
    // Runs a compiled hint; throws VmError with the hint's Python traceback if it raises, or when
    // the run's time for Python hints is used up.
    void run(HintContext& context, int index, std::uint64_t pc) override;

    // The factory the runner gives its hint processor.
    static FallbackHintEngineFactory factory();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace proofdesk::cairo
