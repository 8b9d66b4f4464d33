#pragma once

#include "RequestQueries.h"
#include "RequestSettings.h"
#include "chain/JsonRpcClient.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace proofdesk::request {

// Runs the actions of request queries (docs/api.md, "Queries and actions"), one job each, in the
// order of the query's DAG: resolve blocks, prove headers, accumulate MMRs, prove accounts and
// storage, check facts, deliver. Each fetches chain data over JSON-RPC and checks it against
// hashes it already trusts; what it proves is written with its completion, in one transaction.
class ActionExecutor {
public:
    ActionExecutor(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                   const RequestSettings& settings, FactLookup facts, RequestQueries& queries);

    // Called, inside the write, when a query ends (COMPLETED, or FAILED).
    void onQueryEnded(std::function<void(const std::string& queryId, bool succeeded)> hook) {
        m_queryEnded = std::move(hook);
    }
    // After the job engine has started: fails actions whose job used its last attempt while the
    // server was down, with the job's reason.
    void settleInterrupted();

private:
    // What an action produced: its results, and what must be written with its completion (inside
    // the completing transaction, so a crash keeps both or neither).
    struct Outcome {
        nlohmann::json results = nlohmann::json::object();
        std::function<void(nlohmann::json& results)> commit;
    };
    using Actions = std::vector<StoredAction>;

    core::JobOutcome runAction(const core::JobRecord& job, core::JobContext& context);
    // The action's work, by its method's name. `actions` are the query's actions as stored when
    // this one started (those it depends on have completed, so their results are there), read
    // once per run.
    Outcome perform(const StoredQuery& query, const StoredAction& action, const Actions& actions,
                    core::JobContext& context);
    Outcome resolveBlocks(const StoredQuery& query, const StoredAction& action,
                          const Actions& actions, core::JobContext& context);
    Outcome proveHeaders(const StoredQuery& query, const StoredAction& action,
                         const Actions& actions, core::JobContext& context);
    Outcome accumulateMmr(const StoredQuery& query, const StoredAction& action,
                          const Actions& actions, core::JobContext& context);
    Outcome proveAccount(const StoredQuery& query, const StoredAction& action,
                         const Actions& actions, core::JobContext& context);
    Outcome checkFacts(const StoredQuery& query, const StoredAction& action, const Actions& actions,
                       core::JobContext& context);
    Outcome deliver(const StoredQuery& query, const StoredAction& action, const Actions& actions,
                    core::JobContext& context);
    void completeIn(const StoredQuery& query, const StoredAction& action, Outcome& outcome);
    void failIn(const std::string& queryId, int index, const std::string& reason);
    std::int64_t resolveTimestamp(chain::JsonRpcClient& rpc, const std::string& chainId,
                                  std::int64_t timestamp, std::int64_t head);

    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    const RequestSettings& m_settings;
    FactLookup m_facts;
    RequestQueries& m_queries;
    std::function<void(const std::string&, bool)> m_queryEnded;

    std::mutex m_timestampMutex;
    std::map<std::string, std::map<std::int64_t, std::int64_t>> m_timestamps; // chain -> n -> t
};

} // namespace proofdesk::request
