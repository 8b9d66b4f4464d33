#pragma once

#include "sandbox/SandboxRunner.h"
#include "sandbox/tasks/TaskTypes.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::proof {

struct ProverSettings;

// The proof service's side of its untrusted work: every program, input, PIE and proof a
// submitter sends is read, hashed and run only inside a sandboxed child, one per run, through the
// typed tasks of sandbox/tasks/TaskTypes.h. What comes back is parsed into those types here (a
// result that does not parse is a failure) and, where a child ran submitted code, trusted for
// nothing the server registers (docs/security.md).
//
// One limits policy: every task that reads or runs what a submitter sent (inspect, run, verify)
// runs within the sandbox limits (--sandbox-memory-mib, --sandbox-time-limit); only the prover,
// which runs no VM and no hint, gets the prover's limits.
class SandboxedWork {
public:
    SandboxedWork(const ProverSettings& settings, std::string workRoot);

    const sandbox::SandboxRunner& runner() const { return m_runner; }

    // A submission's files, read in a child. Throws ServiceError: BadRequest with the API's code
    // when a file is not what it should be (also when reading it crashed, ran out of memory or
    // time: `fallbackCode` names the file's kind), Unavailable when the sandbox cannot run at all.
    tasks::InspectResult inspect(const std::vector<sandbox::SandboxInput>& inputs,
                                 const tasks::InspectRequest& request,
                                 const char* fallbackCode) const;

    using Cancelled = std::function<bool()>;
    // The same for a pipeline stage: throws StageFailure (permanent for the file's faults).
    tasks::InspectResult inspectForStage(const std::vector<sandbox::SandboxInput>& inputs,
                                         const tasks::InspectRequest& request,
                                         const Cancelled& cancelled) const;

    // Where a task's written files are, with its result.
    template <typename Result> struct Output {
        Result result;
        std::shared_ptr<sandbox::WorkDir> workDir;
    };

    // The VM over a program (slots program, input) or the bootloader over a PIE (program, pie).
    // Throws StageFailure: permanent for the program's faults (including a crash, a limit or a
    // time-out in its run), transient when the sandbox itself failed to start.
    Output<tasks::RunClaims> run(const std::vector<sandbox::SandboxInput>& inputs,
                                 const tasks::RunRequest& request,
                                 const Cancelled& cancelled) const;
    // Our prover over a proof-mode run's files (slots trace, memory, public_input,
    // private_input): proof.json in the work directory. `progress` gets the child's reports.
    Output<tasks::ProveResult>
    prove(const std::vector<sandbox::SandboxInput>& inputs, const tasks::ProveRequest& request,
          const Cancelled& cancelled,
          const std::function<void(const tasks::Progress&)>& progress) const;
    // Our verifier over a proof (slot proof). A rejected proof is a result, not a failure.
    tasks::VerifyResult verify(const std::vector<sandbox::SandboxInput>& inputs,
                               const tasks::VerifyRequest& request,
                               const Cancelled& cancelled) const;

    // How a query's run is set up from the server's settings (layout and cairoVm are the query's).
    tasks::RunRequest runRequest(const std::string& layout, const std::string& cairoVm,
                                 bool proofMode) const;

private:
    sandbox::SandboxOutcome call(tasks::Task task, const nlohmann::json& request,
                                 const std::vector<sandbox::SandboxInput>& inputs,
                                 const sandbox::Limits& limits, bool sealInputs,
                                 const Cancelled& cancelled,
                                 const std::function<void(const nlohmann::json&)>& progress) const;
    // The task's value, or StageFailure as run() says.
    template <typename Result>
    Output<Result> stage(tasks::Task task, const nlohmann::json& request,
                         const std::vector<sandbox::SandboxInput>& inputs,
                         const sandbox::Limits& limits, bool sealInputs, const Cancelled& cancelled,
                         const std::function<void(const nlohmann::json&)>& progress = {}) const;

    sandbox::SandboxRunner m_runner;
    sandbox::Limits m_limits;
    sandbox::Limits m_proverLimits;
    std::uint64_t m_maxSteps;
    std::chrono::milliseconds m_pythonTimeLimit;
};

} // namespace proofdesk::proof
