#pragma once

#include "actions/ActionMethods.h"
#include "api/RequestWire.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::request {

// The job kind of one action of one request query (payload: query_id, index).
inline const QString kActionJob = QStringLiteral("request.action");

// A stored query as the actions read it.
struct StoredQuery {
    std::string id;
    std::optional<std::string> requestId;
    std::optional<std::string> growOrderId;
    std::string status;
    nlohmann::json typ;
    std::optional<qint64> deadlineMs;
};

// A stored action: its place in the query's DAG and its method object (name, inputs, results,
// error).
struct StoredAction {
    int index = 0;
    std::string status;
    std::vector<int> dependsOn;
    std::vector<int> canTrigger;
    nlohmann::json method;
    std::optional<std::string> trackingId;
};

// The stored requests, their queries and their actions, and the jobs that run the actions: the
// one unit that holds the SQL of `request_requests`, `request_queries` and `request_actions`.
// An action's job is enqueued in the same transaction as the row that names it. The writes (…In)
// run inside the caller's Store::write.
class RequestQueries {
public:
    RequestQueries(core::Store& store, const core::Clock& clock, core::JobEngine& jobs);

    void insertRequestIn(const std::string& requestId, const QString& projectId,
                         const nlohmann::json& body);
    // Stores a query and its actions, enqueuing those that wait for nothing (one job lane per
    // query, so a huge request cannot starve the others); returns the query's id.
    std::string planQueryIn(const std::string& requestId, const std::optional<std::string>& growId,
                            const nlohmann::json& typ, const std::vector<PlannedAction>& plan,
                            const std::optional<qint64>& deadlineMs);

    // GET /queries/{request_id}: a request's queries, or a grow-order batch query by its own id.
    std::vector<api::RequestQuery> queries(const std::string& requestId);
    // GET /actions/{query_id}.
    std::vector<api::RequestAction> actions(const std::string& queryId);

    std::optional<StoredQuery> load(const std::string& id);
    std::vector<StoredAction> loadActions(const std::string& queryId);
    // The unfinished actions that have a job: (query id, index) -> job id.
    std::map<std::pair<std::string, int>, std::string> trackedUnfinished();

    // An action's job has started it: the action and its query are IN_PROGRESS.
    void startIn(const std::string& queryId, int index, const QString& jobId);
    // An action's status now (it may have been cancelled while it ran).
    std::optional<std::string> actionStatus(const std::string& queryId, int index);
    // Records an action's results and enqueues the actions it makes ready; true when it was the
    // query's last action (the query is then COMPLETED).
    bool completeIn(const std::string& queryId, const StoredAction& action,
                    const nlohmann::json& results);
    // Fails an action with `reason`, cancels what can no longer run and fails the query; true
    // when the query was still unfinished.
    bool failIn(const std::string& queryId, int index, const std::string& reason);

private:
    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
};

} // namespace proofdesk::request
