#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

namespace proofdesk::sandbox {

// Resource limits of one sandboxed run (docs/security.md).
struct Limits {
    std::uint64_t memoryBytes = std::uint64_t{4} << 30; // address space (RLIMIT_AS)
    int cpuSeconds = 900;                               // RLIMIT_CPU
    int wallSeconds = 900; // enforced by the parent: the child's PID namespace is killed
    std::uint64_t fileBytes = std::uint64_t{2} << 30; // largest file the run may write
    int openFiles = 64;
    // Threads (and processes, which the seccomp filter refuses anyway) the run may have at once:
    // RLIMIT_NPROC, which counts only the run's own tasks inside its user namespace.
    int tasks = defaultTaskLimit();

    // Enough for a prover's thread per core and then some.
    static int defaultTaskLimit();
};

// What a child asks of confineThisProcess: its limits, the one directory it may read and write
// (its private work directory) and the directories it may only read (shared libraries and
// Python's standard library under /usr).
struct ConfineRequest {
    Limits limits;
    std::string workDir;
    std::vector<std::string> readOnlyDirs;
    pid_t parent = 0; // the child stops at once if this process is not (or no longer) its parent
    // The launcher started the child in new user, PID, network and IPC namespaces (SandboxRunner):
    // it enters none itself, and its task limit counts only its own tasks.
    bool namespaced = false;
};

// What was applied. A protection the host lacks (no Landlock, no unprivileged namespaces) is left
// out and named in `missing`; the server says so once in its banner.
struct Confinement {
    bool noNewPrivileges = false;
    bool resourceLimits = false;
    bool seccomp = false;
    bool networkNamespace = false;
    bool pidNamespace = false; // killed as a whole: everything it started dies with it
    bool taskLimit = false;    // RLIMIT_NPROC binds (a user namespace of its own, not root)
    int landlockAbi = 0;       // 0: no Landlock
    std::vector<std::string> missing;
};

// Confines the calling process, which must be single-threaded and must not have read any
// untrusted input yet. Irreversible. In order: parent-death signal, resource limits (the task
// limit among them), a new user and network namespace unless the launcher made them (no
// network), Landlock (files: `workDir` read-write, `readOnlyDirs` read, nothing else; no TCP; no
// signals or abstract sockets outside), no-new-privileges, and a seccomp filter refusing new
// processes, exec, sockets, ptrace, signals to others, leaving its process group or session,
// changing a file's owner, mode, times or attributes, mounts, namespaces, kernel keyrings, BPF,
// io_uring and the like.
Confinement confineThisProcess(const ConfineRequest& request);

// The Landlock ABI version the kernel offers (0: none).
int landlockAbiVersion();

} // namespace proofdesk::sandbox
