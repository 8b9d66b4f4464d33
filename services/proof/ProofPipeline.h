#pragma once

#include "ArtifactStore.h"
#include "ProofQueries.h"
#include "Provers.h"
#include "SandboxedWork.h"
#include "StageRecorder.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "crypto/Felt.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::proof {

// The stages of a proof query (docs/architecture.md), one job each on the job engine: trace
// generation (the program run in a sandboxed child), proof generation (our prover, Stone's, or
// the visible mock), and proof verification (our verifier or Stone's), which registers the fact.
// Whether a bootloader's output (hex felts, continuous pages included) carries one task, the
// program `programHash` with output `taskOutput` (hex felts): the bootloader config's two words,
// the task count 1, then the task's size (2 + its output), program hash and output.
bool bootloaderOutputCarriesTask(const nlohmann::json& outputCells, const std::string& programHash,
                                 const nlohmann::json& taskOutput);

class ProofPipeline {
public:
    ProofPipeline(core::Store& store, core::JobEngine& jobs, ArtifactStore& artifacts,
                  const ProverSettings& provers, SandboxedWork& sandbox, ProofQueries& queries,
                  StageRecorder& stages, const QString& workDir);

    // After the job engine has started: fails queries whose job ran out of attempts while the
    // server was down.
    void reconcile();

private:
    core::JobOutcome runStage(const core::JobRecord& job, core::JobContext& context);
    // The program file and input file of a query, for a sandboxed run.
    std::vector<sandbox::SandboxInput> programInputs(const WorkingQuery& working) const;
    void traceGeneration(WorkingQuery& working, core::JobContext& context);
    void proofGeneration(WorkingQuery& working, core::JobContext& context);
    // What a proof-mode run is given: the program and its input, or for a PIE the bootloader
    // program and the PIE as its task; and the layout it runs on.
    struct ProofRun {
        std::vector<sandbox::SandboxInput> files;
        std::string layout;
    };
    ProofRun proofRun(const WorkingQuery& working) const;
    void proveWithOurProver(WorkingQuery& working, core::JobContext& context,
                            const ProofRun& proofRun);
    void proofVerification(WorkingQuery& working, core::JobContext& context);
    // Our own verifier, in a sandboxed child: the verdict, or StageFailure (permanent) naming the
    // failed check, a stoneVersion the proof was not made with, or a memoryVerification its
    // public memory does not meet.
    nlohmann::json verifyBuiltin(const std::string& proofPath, const nlohmann::json& parts,
                                 core::JobContext& context);
    // Stone's cpu_air_verifier (--verifier stone): the verdict, only that it verified, with the
    // verifier's path and what it printed, or StageFailure as verifyWithStone throws it.
    nlohmann::json verifyWithStoneVerifier(const std::string& proofPath, const std::string& queryId,
                                           core::JobContext& context);
    void describeStatement(WorkingQuery& working, const std::string& programHash,
                           const std::vector<crypto::Felt>& output, std::uint64_t nSteps,
                           const nlohmann::json& executionResources,
                           const std::vector<std::string>& builtins, const std::string& layout);

    core::Store& m_store;
    core::JobEngine& m_jobs;
    ArtifactStore& m_artifacts;
    const ProverSettings& m_provers;
    SandboxedWork& m_sandbox;
    ProofQueries& m_queries;
    StageRecorder& m_stages;
    QString m_workDir;
};

} // namespace proofdesk::proof
