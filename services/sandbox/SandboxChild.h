#pragma once

#include "Confinement.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>

namespace proofdesk::sandbox {

// What a task function sees in the child: its options and its inputs (open descriptors).
class ChildContext {
public:
    ChildContext(nlohmann::json options, std::map<std::string, int> inputs, Confinement applied)
        : m_options(std::move(options)), m_inputs(std::move(inputs)),
          m_applied(std::move(applied)) {}
    const nlohmann::json& options() const { return m_options; }
    bool hasInput(const std::string& name) const { return m_inputs.count(name) != 0; }
    // The whole input; throws TaskError when it is missing or larger than `maxBytes`.
    std::string readInput(const std::string& name, std::uint64_t maxBytes) const;
    const Confinement& confinement() const { return m_applied; }

private:
    nlohmann::json m_options;
    std::map<std::string, int> m_inputs;
    Confinement m_applied;
};

// A task's failure the caller can act on: a code (the API's error code where there is one), a
// sentence, and whether running it again could help.
class TaskError : public std::runtime_error {
public:
    TaskError(std::string code, const std::string& message, bool permanent = true)
        : std::runtime_error(message), m_code(std::move(code)), m_permanent(permanent) {}
    const std::string& code() const { return m_code; }
    bool permanent() const { return m_permanent; }

private:
    std::string m_code;
    bool m_permanent;
};

using TaskFunction = std::function<nlohmann::json(const ChildContext&)>;

// Where a task reports how far it is (in its work directory; read by SandboxRunner::run).
inline constexpr const char* kProgressFile = "progress.json";
// Replaces the task's progress report (a small JSON object) with `report`; never throws.
void reportProgress(const nlohmann::json& report);

// The child's main: reads the launcher's arguments, confines this process (before reading any
// input), runs the named task and writes result.json in the work directory:
//   {"ok": true, "value": ...} or {"ok": false, "error": {"code", "message", "permanent"}}.
// The task "probe" is built in: its value says which protections were applied.
int runSandboxChild(int argc, char** argv, const std::map<std::string, TaskFunction>& tasks);

} // namespace proofdesk::sandbox
