#pragma once

#include "ArtifactCollector.h"
#include "ArtifactStore.h"
#include "ProofCheck.h"
#include "ProofQueries.h"
#include "Provers.h"
#include "SandboxedWork.h"
#include "StageRecorder.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "crypto/Felt.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::proof {

// The stages of a proof query (docs/architecture.md), one job each on the job engine:
//  - trace generation runs the program once, in a sandboxed child: in proof mode when a real
//    proof follows (the run's files are what proof generation proves), else plainly (pie.zip);
//  - proof generation proves those files (our prover, which runs no VM and no hint, or Stone's),
//    or for a PIE first runs the bootloader over it; or makes the visible mock proof;
//  - proof verification checks the proof (ProofCheck) and registers the fact it proves.
// Nothing a child that ran submitted code reported is registered: a fact comes from what the
// verified proof proves, and a query whose run reported something else fails.
class ProofPipeline {
public:
    ProofPipeline(core::Store& store, core::JobEngine& jobs, ArtifactStore& artifacts,
                  ArtifactCollector& collector, const ProverSettings& provers,
                  SandboxedWork& sandbox, ProofCheck& check, ProofQueries& queries,
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
    // Whether the query's proof will be a real one (not mocked, a prover configured).
    bool provesForReal(const WorkingQuery& working) const;
    // A proof-mode run's four files, for the prover: the query's own (trace generation made
    // them), or for a PIE the bootloader's run over it, made here.
    struct RunFilePaths {
        std::string trace;
        std::string memory;
        std::string publicInput;
        std::string privateInput;
        std::uint64_t nSteps = 0;
        std::string layout;
        std::shared_ptr<sandbox::WorkDir> workDir; // keeps a run made here until it is proven
    };
    RunFilePaths runToProve(WorkingQuery& working, core::JobContext& context);
    void proveWithOurProver(WorkingQuery& working, core::JobContext& context,
                            const RunFilePaths& run);
    void proveWithStoneProver(WorkingQuery& working, core::JobContext& context,
                              const RunFilePaths& run);
    void proofVerification(WorkingQuery& working, core::JobContext& context);
    // The record's statement, as a run (or a PIE, or a proof) states it; `declared`: the
    // program's builtins, which its cheapest layout (metadata's optimal_layouts) must have.
    void describeStatement(WorkingQuery& working, const std::string& programHash,
                           const std::vector<crypto::Felt>& output, std::uint64_t nSteps,
                           const nlohmann::json& executionResources,
                           const std::vector<std::string>& declared, const std::string& layout);

    core::Store& m_store;
    core::JobEngine& m_jobs;
    ArtifactStore& m_artifacts;
    ArtifactCollector& m_collector;
    const ProverSettings& m_provers;
    SandboxedWork& m_sandbox;
    ProofCheck& m_check;
    ProofQueries& m_queries;
    StageRecorder& m_stages;
    QString m_workDir;
};

} // namespace proofdesk::proof
