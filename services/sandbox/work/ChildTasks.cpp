#include "ChildTasks.h"

#include "sandbox/tasks/TaskTypes.h"

namespace proofdesk::work {

nlohmann::json inspectTask(const sandbox::ChildContext& context);
nlohmann::json runTask(const sandbox::ChildContext& context);
nlohmann::json proveTask(const sandbox::ChildContext& context);
nlohmann::json verifyTask(const sandbox::ChildContext& context);

std::map<std::string, sandbox::TaskFunction> childTasks() {
    return {{tasks::taskName(tasks::Task::Inspect), inspectTask},
            {tasks::taskName(tasks::Task::Run), runTask},
            {tasks::taskName(tasks::Task::Prove), proveTask},
            {tasks::taskName(tasks::Task::Verify), verifyTask}};
}

} // namespace proofdesk::work
