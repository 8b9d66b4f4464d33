#pragma once

#include "sandbox/SandboxRunner.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::proof {

struct ProverSettings;

// The proof service's side of its untrusted work: every program, input, PIE and proof a
// submitter sends is read, hashed and run only inside a sandboxed child (SandboxTasks.h), one per
// run, and what comes back is checked here before the service uses it.
class SandboxedWork {
public:
    SandboxedWork(const ProverSettings& settings, std::string workRoot);

    const sandbox::SandboxRunner& runner() const { return m_runner; }

    // A submission's files, read in a child. Returns {"program": {...}, "pie": {...}, "proof":
    // {...}} for those given (SandboxTasks.cpp says what each holds). Throws ServiceError:
    // BadRequest with the API's code when a file is not what it should be (also when reading it
    // crashed, ran out of memory or time: `fallbackCode` names the file's kind), Unavailable when
    // the sandbox cannot run at all.
    nlohmann::json inspect(const std::vector<sandbox::SandboxInput>& inputs, bool checkNativeHints,
                           const char* fallbackCode) const;

    // The same for a pipeline stage: throws StageFailure (permanent for the file's faults).
    nlohmann::json inspectForStage(const std::vector<sandbox::SandboxInput>& inputs,
                                   const nlohmann::json& options = nlohmann::json::object()) const;

    struct Run {
        nlohmann::json facts;                      // the task's value
        std::shared_ptr<sandbox::WorkDir> workDir; // the files the child wrote
    };
    // Runs a program (non-proof mode) and returns its facts with pie.zip in the work directory.
    // Throws StageFailure: permanent for the program's faults (including a crash, a limit or a
    // time-out in its run), transient when the sandbox itself failed to start.
    Run trace(const std::vector<sandbox::SandboxInput>& inputs, const nlohmann::json& options,
              const std::function<bool()>& cancelled) const;
    // Runs a program in proof mode: trace.bin, memory.bin, public_input.json and
    // private_input.json in the work directory.
    Run proofModeRun(const std::vector<sandbox::SandboxInput>& inputs,
                     const nlohmann::json& options, const std::function<bool()>& cancelled) const;

    // Proves a program's proof-mode run with our prover (proof.json in the work directory);
    // options: a run's, channel, securityBits. `progress` gets the child's reports ({"phase",
    // "fraction"}). Limits: the prover's (ProverSettings::proverLimits).
    Run prove(const std::vector<sandbox::SandboxInput>& inputs, const nlohmann::json& options,
              const std::function<bool()>& cancelled,
              const std::function<void(const nlohmann::json&)>& progress) const;

    // Verifies a Stone proof (input "proof") with our verifier; options: stoneVersion,
    // memoryVerification. Returns the verdict (stark/verifier/VerdictJson.h); a rejected proof is
    // a verdict, not a failure. Throws StageFailure when the child cannot finish.
    nlohmann::json verifyProof(const std::vector<sandbox::SandboxInput>& inputs,
                               const nlohmann::json& options,
                               const std::function<bool()>& cancelled) const;

    // The options a run takes from the server's settings (layout and cairoVm are the query's).
    nlohmann::json runOptions(const std::string& layout, const std::string& cairoVm) const;

private:
    Run runStage(const std::string& task, const std::vector<sandbox::SandboxInput>& inputs,
                 const nlohmann::json& options, const std::function<bool()>& cancelled,
                 const sandbox::Limits& limits,
                 const std::function<void(const nlohmann::json&)>& progress = nullptr) const;

    sandbox::SandboxRunner m_runner;
    sandbox::Limits m_limits;
    sandbox::Limits m_proverLimits;
    std::uint64_t m_maxSteps;
    std::int64_t m_pythonTimeLimitMs;
};

} // namespace proofdesk::proof
