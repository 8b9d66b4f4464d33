#pragma once

#include "ArtifactCollector.h"
#include "ArtifactStore.h"
#include "BucketAggregation.h"
#include "FactRegistry.h"
#include "ProgramRegistry.h"
#include "ProjectCredits.h"
#include "ProofCheck.h"
#include "ProofIntake.h"
#include "ProofPipeline.h"
#include "ProofQueries.h"
#include "Provers.h"
#include "SandboxedWork.h"
#include "StageRecorder.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <QString>

#include <string>
#include <vector>

namespace proofdesk::proof {

// The proof service (docs/api.md), as the units it is made of, wired together: intake
// (submissions become queries), the pipeline (their stages on the job engine), bucket
// aggregation, the stored queries, registered programs, the fact registry and project credits.
// The routes reach each unit through it.
class ProofService {
public:
    ProofService(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                 const QString& dataDir, ProverSettings provers);

    static std::vector<core::Migration> migrations();

    // The proof service's own base URL, for metadataUrls. Set before serving.
    void setPublicUrl(const QString& proofUrl) { m_queries.setPublicUrl(proofUrl.toStdString()); }
    // After the job engine has started: fails queries whose job ran out of attempts while the
    // server was down.
    void reconcile() { m_pipeline.reconcile(); }
    // Removes stored files nothing names (a crash between storing an upload and refusing it,
    // files of an older version). Before serving.
    ArtifactCollector::Collected collectArtifacts() { return m_collector.collect(); }
    const ProverSettings& provers() const { return m_provers; }
    // Which protections a sandboxed run gets on this host (a probe run, made once).
    sandbox::Confinement sandboxReport() const { return m_sandbox.runner().probe(); }

    ProofIntake& intake() { return m_intake; }
    ArtifactStore& artifacts() { return m_artifacts; }
    ProofQueries& queries() { return m_queries; }
    BucketAggregation& buckets() { return m_buckets; }
    // The local fact registry, where verified (and mocked) facts are registered.
    FactRegistry& facts() { return m_facts; }
    // The projects' credits, charged one per submission.
    ProjectCredits& credits() { return m_credits; }

private:
    ProverSettings m_provers;
    ArtifactStore m_artifacts;
    SandboxedWork m_sandbox;
    ProjectCredits m_credits;
    FactRegistry m_facts;
    ProofQueries m_queries;
    ProgramRegistry m_programs;
    ArtifactCollector m_collector;
    ProofCheck m_check;
    StageRecorder m_stages;
    BucketAggregation m_buckets;
    ProofIntake m_intake;
    ProofPipeline m_pipeline;
};

} // namespace proofdesk::proof
