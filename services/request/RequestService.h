#pragma once

#include "ActionExecutor.h"
#include "ChainDataStore.h"
#include "GrowOrderScheduler.h"
#include "RequestIntake.h"
#include "RequestQueries.h"
#include "RequestSettings.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <QString>

#include <map>
#include <vector>

namespace proofdesk::request {

// The request service (docs/api.md), as the units it is made of, wired together: intake (a
// request becomes one query per origin chain), the stored queries and actions, the action
// executor (their jobs, against the chains' JSON-RPC), the grow-order scheduler, and the store
// of what was proven. The routes reach each unit through it.
class RequestService {
public:
    RequestService(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                   RequestSettings settings, FactLookup facts);
    RequestService(const RequestService&) = delete;
    RequestService& operator=(const RequestService&) = delete;

    static std::vector<core::Migration> migrations();

    // After the job engine has started: settles actions whose job ran out of attempts while the
    // server was down, and starts the grow-order scheduler.
    void start();
    // Settles actions whose job the engine failed (out of attempts, its workers gone).
    void settleFailedJobs();
    void stop() { m_growOrders.stop(); }

    RequestIntake& intake() { return m_intake; }
    RequestQueries& queries() { return m_queries; }
    GrowOrderScheduler& growOrders() { return m_growOrders; }
    ChainDataStore& chainData() { return m_chainData; }

    const RequestSettings& settings() const { return m_settings; }
    // Replaces the chain RPC URLs of a running service (the console's Settings); jobs that start
    // afterwards use them.
    void setChainRpcUrls(std::map<QString, QString> urls) {
        m_settings.chains.replaceAll(std::move(urls));
    }

private:
    core::JobEngine& m_jobs;
    RequestSettings m_settings;
    RequestQueries m_queries;
    ChainDataStore m_chainData;
    RequestIntake m_intake;
    GrowOrderScheduler m_growOrders;
    ActionExecutor m_actions;
};

} // namespace proofdesk::request
