#pragma once

#include "sandbox/SandboxChild.h"

#include <map>
#include <string>

namespace proofdesk::work {

// The implementations of the sandboxed tasks (tasks/TaskTypes.h), as they run inside the child
// (proofdesk-sandbox): each reads its typed request and its input descriptors, and returns its
// typed result as JSON.
std::map<std::string, sandbox::TaskFunction> childTasks();

} // namespace proofdesk::work
