#include "RequestService.h"

#include "RequestInternal.h"
#include "chain/ChainError.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"

#include <QSqlQuery>

#include <set>

namespace proofdesk::request {

using namespace detail;
using nlohmann::json;

RequestService::RequestService(Store& store, const Clock& clock, JobEngine& jobs,
                               RequestSettings settings, FactLookup facts)
    : m_store(store), m_clock(clock), m_jobs(jobs), m_settings(std::move(settings)),
      m_facts(std::move(facts)) {
    m_store.migrate(QStringLiteral("request"), migrations());
    m_jobs.registerHandler(kActionJob, [this](const JobRecord& job, JobContext& context) {
        return runAction(job, context);
    });
}

RequestService::~RequestService() {
    stop();
}

void RequestService::start() {
    // Actions whose job used its last attempt while the server was down fail now, with the
    // job's reason.
    std::vector<std::pair<std::string, int>> waiting;
    std::map<std::pair<std::string, int>, std::string> jobs;
    {
        QSqlQuery rows = m_store.exec(
            QStringLiteral("SELECT query_id, idx, tracking_id FROM request_actions WHERE status "
                           "IN ('PENDING', 'IN_PROGRESS') AND tracking_id IS NOT NULL"));
        while (rows.next()) {
            jobs[{str(rows.value(0)), rows.value(1).toInt()}] = str(rows.value(2));
        }
    }
    for (const auto& entry : jobs) {
        const std::string& queryId = entry.first.first;
        const int index = entry.first.second;
        const std::optional<JobRecord> job = m_jobs.job(qstr(entry.second));
        if (job && job->state == JobState::Failed) {
            const std::string reason = job->error.toStdString();
            m_store.write([&](QSqlDatabase&) { failIn(queryId, index, reason); });
        }
    }
    m_stopping = false;
    if (!m_scheduler.joinable()) {
        m_scheduler = std::thread([this] { schedulerLoop(); });
    }
    m_jobs.wake();
}

void RequestService::stop() {
    {
        std::lock_guard lock(m_schedulerMutex);
        m_stopping = true;
        m_schedulerPending = true;
    }
    m_schedulerWake.notify_all();
    if (m_scheduler.joinable()) {
        m_scheduler.join();
    }
}

std::unique_ptr<chain::JsonRpcClient> RequestService::rpcFor(const std::string& chainId,
                                                             JobContext* context) const {
    const auto url = m_settings.chains.rpcUrl(qstr(chainId));
    if (!url) {
        throw chain::ChainError(
            "no JSON-RPC URL is set for chain " + chainId + ": start the server with --chain-rpc " +
            chainId + "=http://HOST:PORT (or set it in the console's Settings), then submit again");
    }
    auto client = std::make_unique<chain::JsonRpcClient>(*url, m_settings.rpc);
    if (context) {
        client->setCancelled([context] { return context->stopRequested(); });
    }
    return client;
}

// --- submission and reads -------------------------------------------------------------------

std::string RequestService::planQueryIn(const std::string& requestId,
                                        const std::optional<std::string>& growId, const json& typ,
                                        const json& plan, const std::optional<qint64>& deadlineMs) {
    const QString now = toIsoTimestamp(m_clock.now());
    const std::string queryId = newUlid(m_clock.nowMs()).toStdString();
    m_store.exec(QStringLiteral("INSERT INTO request_queries (id, request_id, grow_order_id, "
                                "status, typ, created_at, deadline_ms) VALUES (?, ?, ?, "
                                "'PENDING', ?, ?, ?)"),
                 {qstr(queryId), requestId.empty() ? QVariant() : QVariant(qstr(requestId)),
                  growId ? QVariant(qstr(*growId)) : QVariant(), qstr(typ.dump()), now,
                  deadlineMs ? QVariant(*deadlineMs) : QVariant()});
    const auto& actions = plan.get_ref<const json::array_t&>();
    std::vector<std::vector<int>> triggers(actions.size());
    for (std::size_t i = 0; i < actions.size(); ++i) {
        for (int dependency : actions[i]["depends_on"]) {
            triggers[std::size_t(dependency)].push_back(int(i));
        }
    }
    QSqlDatabase db = m_store.connection();
    for (std::size_t i = 0; i < actions.size(); ++i) {
        const json& action = actions[i];
        const json method{{"name", action["name"]},
                          {"inputs", action["inputs"]},
                          {"results", nullptr},
                          {"error", nullptr}};
        QVariant tracking;
        if (action["depends_on"].empty()) {
            // One lane per request query: a huge request cannot starve the others.
            tracking =
                m_jobs.enqueueIn(db, kActionJob, {{"query_id", queryId}, {"index", i}},
                                 QStringLiteral("request:") + QString::fromStdString(queryId));
        }
        m_store.exec(QStringLiteral("INSERT INTO request_actions (query_id, idx, status, "
                                    "depends_on, can_trigger, method, created_at, tracking_id) "
                                    "VALUES (?, ?, 'PENDING', ?, ?, ?, ?, ?)"),
                     {qstr(queryId), int(i), qstr(action["depends_on"].dump()),
                      qstr(json(triggers[i]).dump()), qstr(method.dump()), now, tracking});
    }
    return queryId;
}

namespace {

json planJson(const std::vector<PlannedAction>& actions) {
    json out = json::array();
    for (const PlannedAction& action : actions) {
        out.push_back(
            {{"name", action.name}, {"inputs", action.inputs}, {"depends_on", action.dependsOn}});
    }
    return out;
}

} // namespace

std::string RequestService::submit(const QString& projectId, const json& body) {
    const UserRequest request = parseUserRequest(body);
    const std::string requestId = newUlid(m_clock.nowMs()).toStdString();
    const qint64 now = m_clock.nowMs();
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("INSERT INTO request_requests (id, project_id, body, "
                                    "created_at) VALUES (?, ?, ?, ?)"),
                     {qstr(requestId), projectId, qstr(canonicalJson(request).dump()),
                      toIsoTimestamp(m_clock.now())});
        for (const ChainRequest& chainRequest : request.chains) {
            json selectors = json::array();
            std::set<std::string> hashing;
            for (const ProvingRequest& proving : chainRequest.provings) {
                selectors.push_back(proving.selector.text);
                hashing.insert(proving.hashingFunctions.begin(), proving.hashingFunctions.end());
            }
            const json typ{{"kind", "DATA_REQUEST"},
                           {"request_id", requestId},
                           {"chain_id", chainRequest.chainId},
                           {"destination_chain_id", request.destinationChainId},
                           {"selectors", selectors},
                           {"hashing_functions", hashing},
                           {"fact_hashes", chainRequest.factHashes.size()}};
            std::optional<qint64> deadline;
            if (auto maxTime = maxTimeFor(request, chainRequest.chainId)) {
                deadline = now + qint64(*maxTime * 1000.0);
            }
            planQueryIn(requestId, std::nullopt, typ,
                        planJson(planChainQuery(chainRequest, request.destinationChainId)),
                        deadline);
        }
    });
    m_jobs.wake();
    return requestId;
}

namespace {

api::RequestQuery queryFrom(const QSqlQuery& row) {
    api::RequestQuery query;
    query.internalId = str(row.value(0));
    query.status = str(row.value(1));
    query.typ = json::parse(str(row.value(2)));
    query.createdAt = str(row.value(3));
    if (!row.value(4).isNull()) {
        query.completedAt = str(row.value(4));
    }
    return query;
}

} // namespace

std::vector<api::RequestQuery> RequestService::queries(const std::string& requestId) {
    std::vector<api::RequestQuery> out;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT id, status, typ, created_at, completed_at FROM request_queries "
                       "WHERE request_id = ? ORDER BY id"),
        {qstr(requestId)});
    while (rows.next()) {
        out.push_back(queryFrom(rows));
    }
    if (out.empty()) {
        // A grow order's batch query is read by its own id too.
        QSqlQuery row =
            m_store.exec(QStringLiteral("SELECT id, status, typ, created_at, completed_at FROM "
                                        "request_queries WHERE id = ?"),
                         {qstr(requestId)});
        if (row.next()) {
            out.push_back(queryFrom(row));
        }
    }
    return out;
}

std::vector<api::RequestAction> RequestService::actions(const std::string& queryId) {
    std::vector<api::RequestAction> out;
    for (const ActionRow& row : loadActions(queryId)) {
        api::RequestAction action;
        action.queryId = queryId;
        action.index = row.index;
        action.status = row.status;
        action.dependsOn = row.dependsOn;
        action.canTrigger = row.canTrigger;
        action.method = row.method;
        action.trackingId = row.trackingId;
        out.push_back(std::move(action));
    }
    // created_at and completed_at come from the same rows.
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT idx, created_at, completed_at FROM "
                                                 "request_actions WHERE query_id = ? ORDER BY "
                                                 "idx"),
                                  {qstr(queryId)});
    while (rows.next()) {
        const auto index = std::size_t(rows.value(0).toInt());
        if (index < out.size()) {
            out[index].createdAt = str(rows.value(1));
            if (!rows.value(2).isNull()) {
                out[index].completedAt = str(rows.value(2));
            }
        }
    }
    return out;
}

std::optional<RequestService::QueryRow> RequestService::loadQuery(const std::string& id) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT id, request_id, grow_order_id, status, "
                                                "typ, deadline_ms FROM request_queries WHERE "
                                                "id = ?"),
                                 {qstr(id)});
    if (!row.next()) {
        return std::nullopt;
    }
    QueryRow query;
    query.id = str(row.value(0));
    if (!row.value(1).isNull()) {
        query.requestId = str(row.value(1));
    }
    if (!row.value(2).isNull()) {
        query.growOrderId = str(row.value(2));
    }
    query.status = str(row.value(3));
    query.typ = json::parse(str(row.value(4)));
    if (!row.value(5).isNull()) {
        query.deadlineMs = row.value(5).toLongLong();
    }
    return query;
}

std::vector<RequestService::ActionRow> RequestService::loadActions(const std::string& queryId) {
    std::vector<ActionRow> out;
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT idx, status, depends_on, can_trigger, "
                                                 "method, tracking_id FROM request_actions "
                                                 "WHERE query_id = ? ORDER BY idx"),
                                  {qstr(queryId)});
    while (rows.next()) {
        ActionRow action;
        action.index = rows.value(0).toInt();
        action.status = str(rows.value(1));
        action.dependsOn = json::parse(str(rows.value(2))).get<std::vector<int>>();
        action.canTrigger = json::parse(str(rows.value(3))).get<std::vector<int>>();
        action.method = json::parse(str(rows.value(4)));
        if (!rows.value(5).isNull()) {
            action.trackingId = str(rows.value(5));
        }
        out.push_back(std::move(action));
    }
    return out;
}

// --- running actions ----------------------------------------------------------------------

JobOutcome RequestService::runAction(const JobRecord& job, JobContext& context) {
    const std::string queryId = job.payload.value("query_id", "");
    const int index = job.payload.value("index", -1);
    const std::optional<QueryRow> query = loadQuery(queryId);
    if (!query) {
        return JobOutcome::permanent(
            QStringLiteral("query %1 does not exist").arg(QString::fromStdString(queryId)));
    }
    std::vector<ActionRow> actions = loadActions(queryId);
    if (index < 0 || std::size_t(index) >= actions.size()) {
        return JobOutcome::permanent(QStringLiteral("action %1 does not exist").arg(index));
    }
    ActionRow& action = actions[std::size_t(index)];
    if (action.status != "PENDING" && action.status != "IN_PROGRESS") {
        return JobOutcome::done({{"skipped", action.status}}); // cancelled meanwhile
    }
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'IN_PROGRESS', "
                                    "tracking_id = ? WHERE query_id = ? AND idx = ?"),
                     {job.id, qstr(queryId), index});
        m_store.exec(QStringLiteral("UPDATE request_queries SET status = 'IN_PROGRESS' WHERE id "
                                    "= ? AND status = 'PENDING'"),
                     {qstr(queryId)});
    });
    if (query->deadlineMs && m_clock.nowMs() > *query->deadlineMs) {
        m_store.write([&](QSqlDatabase&) {
            failIn(queryId, index,
                   "the request's settings.max_time ran out before " +
                       action.method["name"].get<std::string>() + " could start");
        });
        return JobOutcome::done({{"failed", "deadline"}});
    }
    try {
        Outcome outcome = perform(*query, action, context);
        m_store.write([&](QSqlDatabase&) { completeIn(*query, action, outcome); });
        m_jobs.wake();
        return JobOutcome::done();
    } catch (const chain::ChainError& failure) {
        if (context.stopRequested()) {
            return JobOutcome::interrupted();
        }
        if (failure.transient() && job.attempts < m_jobs.maxAttempts()) {
            return JobOutcome::transient(QString::fromUtf8(failure.what()));
        }
        std::string reason = failure.what();
        if (failure.transient()) {
            reason += " (gave up after " + std::to_string(job.attempts) + " attempts)";
        }
        m_store.write([&](QSqlDatabase&) { failIn(queryId, index, reason); });
        return JobOutcome::done({{"failed", reason}});
    } catch (const ServiceError& failure) {
        m_store.write([&](QSqlDatabase&) { failIn(queryId, index, failure.what()); });
        return JobOutcome::done({{"failed", failure.what()}});
    } catch (const std::exception& failure) {
        // A defect here or an answer of a shape nothing checked: the action fails visibly
        // instead of staying IN_PROGRESS behind a failed job.
        const std::string reason = std::string("internal error in ") +
                                   action.method.value("name", std::string("action")) + ": " +
                                   failure.what();
        m_store.write([&](QSqlDatabase&) { failIn(queryId, index, reason); });
        return JobOutcome::done({{"failed", reason}});
    }
}

void RequestService::failIn(const std::string& queryId, int index, const std::string& reason) {
    const QString now = toIsoTimestamp(m_clock.now());
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT method, status FROM request_actions "
                                                "WHERE query_id = ? AND idx = ?"),
                                 {qstr(queryId), index});
    if (!row.next()) {
        return;
    }
    json method = json::parse(str(row.value(0)));
    method["error"] = reason;
    m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'FAILED', method = ?, "
                                "completed_at = ? WHERE query_id = ? AND idx = ?"),
                 {qstr(method.dump()), now, qstr(queryId), index});
    // Everything that can no longer run is cancelled; the query fails.
    m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'CANCELLED', completed_at "
                                "= ? WHERE query_id = ? AND status IN ('PENDING', "
                                "'IN_PROGRESS')"),
                 {now, qstr(queryId)});
    QSqlQuery updated = m_store.exec(QStringLiteral("UPDATE request_queries SET status = "
                                                    "'FAILED', completed_at = ? WHERE id = ? "
                                                    "AND status IN ('PENDING', 'IN_PROGRESS')"),
                                     {now, qstr(queryId)});
    if (updated.numRowsAffected() > 0) {
        settleGrowOrderIn(queryId, false);
    }
}

} // namespace proofdesk::request
