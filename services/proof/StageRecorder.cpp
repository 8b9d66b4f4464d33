#include "StageRecorder.h"

#include "core/QtText.h"

#include <QFileInfo>

#include <algorithm>

namespace proofdesk::proof {

QString stageWorkKind(const std::string& stage) {
    if (stage == "TRACE_GENERATION") {
        return core::work_kinds::kTrace;
    }
    if (stage == "PROOF_GENERATION") {
        return core::work_kinds::kProve;
    }
    return core::work_kinds::kVerify; // PROOF_VERIFICATION
}

StageRecorder::StageRecorder(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                             ArtifactStore& artifacts, ProofQueries& queries, FactRegistry& facts)
    : m_store(store), m_clock(clock), m_jobs(jobs), m_artifacts(artifacts), m_queries(queries),
      m_facts(facts) {}

void StageRecorder::addArtifact(WorkingQuery& working, const std::string& name,
                                const std::string& bytes) {
    const std::string digest = ArtifactStore::sha256Of(bytes);
    working.pins.push_back(m_artifacts.pin(digest));
    m_artifacts.put(bytes, digest);
    working.newArtifacts.push_back({name, digest, bytes.size()});
}

std::string StageRecorder::storeFile(WorkingQuery& working, const std::string& path) {
    const std::string digest = ArtifactStore::sha256OfFile(path);
    working.pins.push_back(m_artifacts.pin(digest));
    m_artifacts.putFile(path, digest);
    return digest;
}

void StageRecorder::addStoredArtifact(WorkingQuery& working, const std::string& name,
                                      const std::string& sha256) {
    const auto size = QFileInfo(m_artifacts.pathOf(sha256)).size();
    working.newArtifacts.push_back(
        {name, sha256, static_cast<std::size_t>(std::max<qint64>(0, size))});
}

void StageRecorder::writeProducedIn(WorkingQuery& working) {
    m_queries.recordArtifactsIn(working.query.id, working.newArtifacts);
    working.newArtifacts.clear();
    if (working.newFact) {
        const std::string entry = m_facts.registerIn(
            working.newFact->chain, working.newFact->factHash, working.newFact->mocked,
            working.query.id, working.query.programHash.value_or(""));
        working.query.transactionId = entry;
        working.query.isFactMocked = working.newFact->mocked;
        working.newFact.reset();
    }
}

void StageRecorder::endedIn(WorkingQuery& working) {
    m_queries.saveIn(working);
    if (working.query.bucketId && m_memberEnded) {
        m_memberEnded(*working.query.bucketId);
    }
}

void StageRecorder::failIn(WorkingQuery& working, const std::string& reason,
                           const char* blockedReason) {
    working.newArtifacts.clear();
    working.newFact.reset();
    working.inputs.run.reset(); // never to be proven: its files are released
    working.query.status = api::nameOf(api::QueryStatus::Failed);
    working.query.errorReason = reason;
    working.query.completedAt = core::toIsoTimestamp(m_clock.now()).toStdString();
    working.query.isRetriable = false;
    working.query.retryBlockedReason = blockedReason;
    endedIn(working);
}

void StageRecorder::finishStageIn(WorkingQuery& working) {
    writeProducedIn(working);
    const auto& steps = working.query.steps;
    auto at = std::find(steps.begin(), steps.end(), working.query.step.value_or(""));
    if (at != steps.end() && at + 1 != steps.end()) {
        working.query.step = *(at + 1);
        QSqlDatabase db = m_store.connection();
        const QString job =
            m_jobs.enqueueIn(db, kStageJob, {{"queryId", working.query.id}, {"stage", *(at + 1)}},
                             core::qstr(working.query.projectId), stageWorkKind(*(at + 1)));
        working.inputs.job = job.toStdString();
        m_queries.saveIn(working);
        return;
    }
    working.query.status = api::nameOf(api::QueryStatus::Done);
    working.query.errorReason.reset();
    working.query.completedAt = core::toIsoTimestamp(m_clock.now()).toStdString();
    working.query.isRetriable = false;
    endedIn(working);
}

} // namespace proofdesk::proof
