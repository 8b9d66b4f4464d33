#pragma once

#include "Confinement.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::sandbox {

// A file the child may read: opened read-only here and handed to it as an open descriptor, so the
// child needs no access to where it lives. Bytes without a path (a small upload held in memory)
// become a sealed in-memory file first.
struct SandboxInput {
    std::string name;
    std::string path;
    std::string bytes = {};
};

// One run of untrusted work in a child process of ours (docs/security.md).
struct SandboxTask {
    std::string task;                                  // the child's task name
    nlohmann::json options = nlohmann::json::object(); // written to task.json for the child
    std::vector<SandboxInput> inputs;                  // descriptors 3, 4, ... in this order
    Limits limits;
    // The child runs code a submitter wrote (Python hints): it gets sealed in-memory copies of
    // its input files instead of descriptors of the stored files.
    bool sealInputs = false;
};

// The child's private work directory; removed with everything in it when this object dies.
class WorkDir {
public:
    explicit WorkDir(std::string path) : m_path(std::move(path)) {}
    ~WorkDir();
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;
    const std::string& path() const { return m_path; }
    // The path of a file the child wrote, if it is a regular file no larger than `maxBytes`.
    std::string file(const std::string& name) const;

private:
    std::string m_path;
};

struct SandboxOutcome {
    enum class End {
        Finished,      // exited 0 and wrote result.json
        Failed,        // exited with another code, or 0 without a result
        Crashed,       // killed by a signal of its own (segfault, abort, CPU limit)
        TimedOut,      // killed at the wall-clock limit
        Cancelled,     // killed because the caller cancelled (server stopping)
        CouldNotStart, // no executable, no work directory, ...
    };
    End end = End::CouldNotStart;
    int exitCode = -1;
    int signal = 0;
    std::string stderrTail; // the last few KiB the child printed
    nlohmann::json result;  // result.json (Finished only)
    std::shared_ptr<WorkDir> workDir;

    bool finished() const { return end == End::Finished; }
    // A sentence saying how the run ended, for a query's errorReason.
    std::string describe(const Limits& limits) const;
};

// Starts sandboxed children (ChildLauncher.h): one process per run, never reused, in a fresh work
// directory under `workRoot`, with nothing inherited but /dev/null, one pipe (stdout and stderr)
// and the inputs.
class SandboxRunner {
public:
    SandboxRunner(std::string executable, std::string workRoot);

    const std::string& executable() const { return m_executable; }
    bool available(std::string* why = nullptr) const;

    // Runs the task to its end, its wall-clock limit, or until `cancelled` returns true (polled
    // every 50 ms); the child is killed in the last two cases, with everything it started (its
    // PID namespace), and the call returns at most two seconds later whatever the child does.
    // `progress` gets what the child last reported with reportProgress (SandboxChild.h), read about
    // 4 times a second.
    SandboxOutcome run(const SandboxTask& task, const std::function<bool()>& cancelled = nullptr,
                       const std::function<void(const nlohmann::json&)>& progress = nullptr) const;

    // Which protections a child actually gets on this host (a `probe` run); for the banner.
    Confinement probe() const;

private:
    std::string m_executable;
    std::string m_workRoot;
};

} // namespace proofdesk::sandbox
