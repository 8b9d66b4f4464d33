#pragma once

#include "ChainDataStore.h"
#include "RequestQueries.h"
#include "RequestSettings.h"
#include "actions/ActionWork.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace proofdesk::request {

// Runs the actions of request queries (docs/api.md, "Queries and actions"), one job each, in the
// order of the query's DAG: resolve blocks, prove headers, accumulate MMRs, prove accounts and
// storage, check facts, deliver (each kind's work in actions/). An action's typed inputs are read
// once per run; what it proves is written with its completion, in one transaction.
class ActionExecutor {
public:
    ActionExecutor(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                   const RequestSettings& settings, FactLookup facts, RequestQueries& queries,
                   ChainDataStore& chainData);

    // Called, inside the write, when a query ends (COMPLETED, or FAILED).
    void onQueryEnded(std::function<void(const std::string& queryId, bool succeeded)> hook) {
        m_queryEnded = std::move(hook);
    }
    // After the job engine has started: fails actions whose job used its last attempt while the
    // server was down, with the job's reason.
    void settleInterrupted();

private:
    using Actions = std::vector<StoredAction>;

    core::JobOutcome runAction(const core::JobRecord& job, core::JobContext& context);
    void completeIn(const StoredQuery& query, const StoredAction& action, ActionOutcome& outcome);
    void failIn(const std::string& queryId, int index, const std::string& reason);

    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    const RequestSettings& m_settings;
    FactLookup m_facts;
    RequestQueries& m_queries;
    ChainDataStore& m_chainData;
    std::function<void(const std::string&, bool)> m_queryEnded;
    BlockTimestamps m_timestamps;
};

} // namespace proofdesk::request
