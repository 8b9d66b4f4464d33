#include "ServiceSet.h"

#include "core/DataDir.h"

namespace proofdesk::server {

ServiceSet::ServiceSet(const ServiceSettings& settings, const core::Clock& clock)
    : m_store(core::storePathIn(settings.dataDir)), m_keys(m_store, clock),
      m_signIn(m_store, clock, m_keys, auth::SignInSettings{}),
      m_jobs(m_store, clock, settings.jobWorkers),
      m_proofs(m_store, clock, m_jobs, settings.dataDir, settings.provers),
      // The request service's check_facts reads the proof service's fact registry.
      m_requests(m_store, clock, m_jobs, settings.requests,
                 [this](const std::string& factHash, bool mocked) {
                     const auto entry = m_proofs.facts().findOnAnyChain(factHash, mocked);
                     return entry ? std::optional<std::string>(entry->id) : std::nullopt;
                 }) {}

void ServiceSet::start(const QString& authUrl, const QString& proofUrl) {
    m_signIn.setServerUri(authUrl);
    m_proofs.setPublicUrl(proofUrl);
    m_proofs.collectArtifacts(); // before any submission can pin a file
    m_jobs.start();
    m_proofs.reconcile();
    m_requests.start();
}

void ServiceSet::stop() {
    m_requests.stop();
    m_jobs.stop();
}

} // namespace proofdesk::server
