#pragma once

#include "ArtifactStore.h"
#include "FactRegistry.h"
#include "ProofQueries.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "core/WorkKinds.h"

#include <QString>

#include <functional>
#include <string>

namespace proofdesk::proof {

// The job kind of one stage of one proof query (payload: queryId, stage).
inline const QString kStageJob = QStringLiteral("proof.stage");
// The work kind of a stage's job (core/WorkKinds.h): trace, prove or verify.
QString stageWorkKind(const std::string& stage);

// How a query moves along its steps. What a running stage produces (artifact files, a fact) is
// kept in its WorkingQuery and written together with the move to the next step (its job) or to
// DONE or FAILED, in one transaction, so a crash repeats at most the stage that was running. A
// bucket's member that ends tells the bucket (onMemberEnded).
class StageRecorder {
public:
    StageRecorder(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                  ArtifactStore& artifacts, ProofQueries& queries, FactRegistry& facts);

    // Called, inside the write, when a query of a bucket ends.
    void onMemberEnded(std::function<void(const std::string& bucketId)> hook) {
        m_memberEnded = std::move(hook);
    }

    // Stores `bytes` now; names it with the stage's end.
    void addArtifact(WorkingQuery& working, const std::string& name, const std::string& bytes);
    // Names an artifact already stored (an upload) with the stage's end.
    void addStoredArtifact(WorkingQuery& working, const std::string& name,
                           const std::string& sha256);
    // Stores a file a stage made (a run's file the query's inputs will name), held until the
    // stage's end commits; returns its digest.
    std::string storeFile(WorkingQuery& working, const std::string& path);

    // Within a write: records what the stage produced and enqueues the next step, or ends the
    // query DONE after its last.
    void finishStageIn(WorkingQuery& working);
    // Within a write: ends the query FAILED, dropping what the stage produced.
    void failIn(WorkingQuery& working, const std::string& reason, const char* blockedReason);

private:
    void writeProducedIn(WorkingQuery& working);
    void endedIn(WorkingQuery& working);

    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    ArtifactStore& m_artifacts;
    ProofQueries& m_queries;
    FactRegistry& m_facts;
    std::function<void(const std::string&)> m_memberEnded;
};

} // namespace proofdesk::proof
