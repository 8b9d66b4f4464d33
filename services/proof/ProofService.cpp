#include "ProofService.h"

#include "ProofSchema.h"

namespace proofdesk::proof {

ProofService::ProofService(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                           const QString& dataDir, ProverSettings provers)
    : m_provers(std::move(provers)), m_artifacts(dataDir + QStringLiteral("/artifacts"), &store),
      m_sandbox(m_provers, QString(dataDir + QStringLiteral("/work/sandbox")).toStdString()),
      m_credits(store), // applies the proof service's migrations (its tables are theirs)
      m_facts(store, clock), m_queries(store, m_artifacts), m_programs(store, clock, m_artifacts),
      m_collector(store, m_artifacts, m_queries, m_programs),
      m_check(m_provers, m_sandbox, dataDir + QStringLiteral("/work")),
      m_stages(store, clock, jobs, m_artifacts, m_queries, m_facts),
      m_buckets(store, clock, jobs, m_queries, m_stages, m_check),
      m_intake(store, clock, jobs, m_artifacts, m_collector, m_provers, m_sandbox, m_credits,
               m_programs, m_queries, m_buckets),
      m_pipeline(store, jobs, m_artifacts, m_collector, m_provers, m_sandbox, m_check, m_queries,
                 m_stages, dataDir + QStringLiteral("/work")) {
    m_stages.onMemberEnded(
        [this](const std::string& bucketId) { m_buckets.maybeAggregateIn(bucketId); });
}

std::vector<core::Migration> ProofService::migrations() {
    return proofMigrations();
}

} // namespace proofdesk::proof
