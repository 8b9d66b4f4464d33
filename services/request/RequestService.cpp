#include "RequestService.h"

namespace proofdesk::request {

RequestService::RequestService(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                               RequestSettings settings, FactLookup facts)
    : m_jobs(jobs), m_settings(std::move(settings)), m_queries(store, clock, jobs),
      m_chainData(store), m_intake(store, clock, jobs, m_queries),
      m_growOrders(store, clock, jobs, m_settings, m_queries, m_chainData),
      m_actions(store, clock, jobs, m_settings, std::move(facts), m_queries, m_chainData) {
    store.migrate(QStringLiteral("request"), migrations());
    m_actions.onQueryEnded([this](const std::string& queryId, bool succeeded) {
        m_growOrders.settleIn(queryId, succeeded);
    });
}

void RequestService::settleFailedJobs() {
    m_actions.settleInterrupted();
}

void RequestService::start() {
    m_actions.settleInterrupted();
    m_growOrders.start();
    m_jobs.wake();
}

} // namespace proofdesk::request
