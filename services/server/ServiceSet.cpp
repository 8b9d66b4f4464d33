#include "ServiceSet.h"

#include "StoreStatus.h"

#include "core/DataDir.h"

namespace proofdesk::server {

ServiceSet::ServiceSet(const ServiceSettings& settings, const core::Clock& clock)
    : m_clock(clock), m_runJobs(settings.runJobs),
      m_store(settings.store.isEmpty() ? core::storePathIn(settings.dataDir) : settings.store),
      m_keys(m_store, clock), m_signIn(m_store, clock, m_keys, auth::SignInSettings{}),
      m_jobs(m_store, clock, settings.jobWorkers, 3, settings.jobLeases),
      m_proofs(m_store, clock, m_jobs, settings.dataDir, settings.provers),
      // The request service's check_facts reads the proof service's fact registry.
      m_requests(m_store, clock, m_jobs, settings.requests,
                 [this](const std::string& factHash, bool mocked) {
                     const auto entry = m_proofs.facts().findOnAnyChain(factHash, mocked);
                     return entry ? std::optional<std::string>(entry->id) : std::nullopt;
                 }) {
    m_jobs.setWorkKinds(settings.workKinds);
    // A job the engine itself fails (interrupted on every attempt: on a team store, its workers
    // died or were cut off) settles its query now, not at the next start of some process.
    m_jobs.setListener([this](const core::JobRecord& job) {
        if (job.state == core::JobState::Failed &&
            job.error.startsWith(QLatin1String("interrupted"))) {
            m_proofs.reconcile();
            m_requests.settleFailedJobs();
        }
    });
}

void ServiceSet::start(const QString& authUrl, const QString& proofUrl) {
    m_signIn.setServerUri(authUrl);
    m_proofs.setPublicUrl(proofUrl);
    m_proofs.collectArtifacts(); // before any submission can pin a file
    if (m_runJobs) {
        m_jobs.start();
    }
    m_proofs.reconcile();
    m_requests.start();
}

void ServiceSet::stop() {
    m_requests.stop();
    m_jobs.stop();
}

api::ServerStatus ServiceSet::status() {
    return storeStatus(m_store, m_jobs, m_clock);
}

} // namespace proofdesk::server
