#pragma once

#include "UniqueFd.h"

#include <sys/types.h>

#include <string>
#include <vector>

namespace proofdesk::sandbox {

// What starting a sandboxed child needs: the program and its arguments, and the descriptors it
// gets (everything else it inherits is closed when it executes).
struct LaunchRequest {
    std::string executable;
    std::vector<std::string> arguments; // argv, [0] included
    std::vector<std::string> environment;
    int workDirFd = -1;        // its working directory
    int outputFd = -1;         // its stdout and stderr
    std::vector<int> inputFds; // its descriptors 3, 4, ... in this order
};

// A started child. Signals and waits go through its pidfd, so they can never reach another
// process that happens to get the same pid.
struct LaunchedChild {
    pid_t pid = -1;
    UniqueFd pidfd;
    // In new user, PID, network and IPC namespaces: the child is its PID namespace's init, so
    // killing it kills every task it started, whatever process group or session they claim.
    bool namespaced = false;
    std::string error; // why it did not start (pid -1)
};

// Who a namespaced child is outside its namespaces: the server's own user, or `nobody` when the
// server runs as root (RLIMIT_NPROC does not bind root, and `nobody` owns none of the server's
// files, so it cannot change them through the descriptors it is given).
struct ChildIdentity {
    uid_t uid = 0;
    gid_t gid = 0;
};
ChildIdentity childIdentity();

// Starts the child: with clone3 in new namespaces where the host allows it (the server writes its
// uid and gid maps, then lets it execute), else with posix_spawn in a process group of its own.
LaunchedChild launchChild(const LaunchRequest& request);

// Sends SIGKILL to the child (its whole PID namespace when namespaced; its process group too when
// not).
void killChild(const LaunchedChild& child);

} // namespace proofdesk::sandbox
