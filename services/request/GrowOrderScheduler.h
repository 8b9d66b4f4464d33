#pragma once

#include "ChainDataStore.h"
#include "RequestQueries.h"
#include "RequestSettings.h"
#include "api/RequestBodies.h"
#include "api/RequestWire.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <QString>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace proofdesk::request {

// Grow orders (docs/api.md): each extends a chain's MMRs in batches. A scheduler thread watches
// the chain heads and plans a batch query (RequestQueries) when enough new blocks are there; a
// batch's end (settleIn) moves its order on. The one unit that holds the SQL of `grow_orders`.
class GrowOrderScheduler {
public:
    GrowOrderScheduler(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                       const RequestSettings& settings, RequestQueries& queries,
                       ChainDataStore& chainData);
    ~GrowOrderScheduler();
    GrowOrderScheduler(const GrowOrderScheduler&) = delete;
    GrowOrderScheduler& operator=(const GrowOrderScheduler&) = delete;

    void start();
    void stop();
    // Wakes the scheduler now (tests, and after a create).
    void wake();

    api::GrowOrder create(const QString& projectId, const api::GrowOrderCreation& order);
    std::vector<api::GrowOrder> list(const QString& projectId);
    std::optional<api::GrowOrder> order(const QString& projectId, const std::string& id);
    std::optional<api::GrowOrder> cancel(const QString& projectId, const std::string& id);

    // Within a write, when a query ended: if it is a batch, its order moves on (or fails).
    void settleIn(const std::string& queryId, bool succeeded);

private:
    void loop();
    void scheduleBatches();

    core::Store& m_store;
    ChainDataStore& m_chainData;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    const RequestSettings& m_settings;
    RequestQueries& m_queries;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_pending = false;
    std::atomic<bool> m_stopping{false};
    std::thread m_thread;
};

} // namespace proofdesk::request
