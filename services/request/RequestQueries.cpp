#include "RequestQueries.h"

#include "core/QtText.h"
#include "core/Ulid.h"
#include "core/WorkKinds.h"

#include <QSqlQuery>

#include <algorithm>

namespace proofdesk::request {

using nlohmann::json;

RequestQueries::RequestQueries(core::Store& store, const core::Clock& clock, core::JobEngine& jobs)
    : m_store(store), m_clock(clock), m_jobs(jobs) {}

// --- writes -----------------------------------------------------------------------------------

void RequestQueries::insertRequestIn(const std::string& requestId, const QString& projectId,
                                     const json& body) {
    m_store.exec(QStringLiteral("INSERT INTO request_requests (id, project_id, body, "
                                "created_at) VALUES (?, ?, ?, ?)"),
                 {core::qstr(requestId), projectId, core::qstr(body.dump()),
                  core::toIsoTimestamp(m_clock.now())});
}

std::string RequestQueries::planQueryIn(const std::string& requestId,
                                        const std::optional<std::string>& growId, const json& typ,
                                        const std::vector<PlannedAction>& plan,
                                        const std::optional<qint64>& deadlineMs) {
    const QString now = core::toIsoTimestamp(m_clock.now());
    const std::string queryId = core::newUlid(m_clock.nowMs()).toStdString();
    m_store.exec(QStringLiteral("INSERT INTO request_queries (id, request_id, grow_order_id, "
                                "status, typ, created_at, deadline_ms) VALUES (?, ?, ?, "
                                "'PENDING', ?, ?, ?)"),
                 {core::qstr(queryId),
                  requestId.empty() ? QVariant() : QVariant(core::qstr(requestId)),
                  growId ? QVariant(core::qstr(*growId)) : QVariant(), core::qstr(typ.dump()), now,
                  deadlineMs ? QVariant(*deadlineMs) : QVariant()});
    std::vector<std::vector<int>> triggers(plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i) {
        for (int dependency : plan[i].dependsOn) {
            triggers[std::size_t(dependency)].push_back(int(i));
        }
    }
    QSqlDatabase db = m_store.connection();
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const PlannedAction& action = plan[i];
        const json method = plannedMethod(action.inputs);
        QVariant tracking;
        if (action.dependsOn.empty()) {
            // One lane per request query: a huge request cannot starve the others.
            tracking =
                m_jobs.enqueueIn(db, kActionJob, {{"query_id", queryId}, {"index", i}},
                                 QStringLiteral("request:") + QString::fromStdString(queryId),
                                 core::work_kinds::kRequest);
        }
        m_store.exec(QStringLiteral("INSERT INTO request_actions (query_id, idx, status, "
                                    "depends_on, can_trigger, method, created_at, tracking_id) "
                                    "VALUES (?, ?, 'PENDING', ?, ?, ?, ?, ?)"),
                     {core::qstr(queryId), int(i), core::qstr(json(action.dependsOn).dump()),
                      core::qstr(json(triggers[i]).dump()), core::qstr(method.dump()), now,
                      tracking});
    }
    return queryId;
}

void RequestQueries::startIn(const std::string& queryId, int index, const QString& jobId) {
    m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'IN_PROGRESS', "
                                "tracking_id = ? WHERE query_id = ? AND idx = ?"),
                 {jobId, core::qstr(queryId), index});
    m_store.exec(QStringLiteral("UPDATE request_queries SET status = 'IN_PROGRESS' WHERE id "
                                "= ? AND status = 'PENDING'"),
                 {core::qstr(queryId)});
}

std::optional<std::string> RequestQueries::actionStatus(const std::string& queryId, int index) {
    QSqlQuery current = m_store.exec(QStringLiteral("SELECT status FROM request_actions WHERE "
                                                    "query_id = ? AND idx = ?"),
                                     {core::qstr(queryId), index});
    return current.next() ? std::optional<std::string>(core::str(current.value(0))) : std::nullopt;
}

bool RequestQueries::completeIn(const std::string& queryId, const StoredAction& action,
                                const json& results) {
    const QString now = core::toIsoTimestamp(m_clock.now());
    json method = action.method;
    method["results"] = results;
    m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'COMPLETED', method = ?, "
                                "completed_at = ? WHERE query_id = ? AND idx = ?"),
                 {core::qstr(method.dump()), now, core::qstr(queryId), action.index});
    const std::vector<StoredAction> actions = loadActions(queryId);
    QSqlDatabase db = m_store.connection();
    for (int next : action.canTrigger) {
        const StoredAction& candidate = actions.at(std::size_t(next));
        const bool ready = std::all_of(
            candidate.dependsOn.begin(), candidate.dependsOn.end(), [&](int dependency) {
                return actions.at(std::size_t(dependency)).status == "COMPLETED";
            });
        if (ready && candidate.status == "PENDING" && !candidate.trackingId) {
            const QString jobId =
                m_jobs.enqueueIn(db, kActionJob, {{"query_id", queryId}, {"index", next}},
                                 QStringLiteral("request:") + QString::fromStdString(queryId),
                                 core::work_kinds::kRequest);
            m_store.exec(QStringLiteral("UPDATE request_actions SET tracking_id = ? WHERE "
                                        "query_id = ? AND idx = ?"),
                         {jobId, core::qstr(queryId), next});
        }
    }
    const bool finished = std::all_of(actions.begin(), actions.end(), [](const StoredAction& row) {
        return row.status == "COMPLETED";
    });
    if (finished) {
        m_store.exec(QStringLiteral("UPDATE request_queries SET status = 'COMPLETED', "
                                    "completed_at = ? WHERE id = ?"),
                     {now, core::qstr(queryId)});
    }
    return finished;
}

bool RequestQueries::failIn(const std::string& queryId, int index, const std::string& reason) {
    const QString now = core::toIsoTimestamp(m_clock.now());
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT method, status FROM request_actions "
                                                "WHERE query_id = ? AND idx = ?"),
                                 {core::qstr(queryId), index});
    if (!row.next()) {
        return false;
    }
    json method = json::parse(core::str(row.value(0)));
    method["error"] = reason;
    m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'FAILED', method = ?, "
                                "completed_at = ? WHERE query_id = ? AND idx = ?"),
                 {core::qstr(method.dump()), now, core::qstr(queryId), index});
    // Everything that can no longer run is cancelled; the query fails.
    m_store.exec(QStringLiteral("UPDATE request_actions SET status = 'CANCELLED', completed_at "
                                "= ? WHERE query_id = ? AND status IN ('PENDING', "
                                "'IN_PROGRESS')"),
                 {now, core::qstr(queryId)});
    QSqlQuery updated = m_store.exec(QStringLiteral("UPDATE request_queries SET status = "
                                                    "'FAILED', completed_at = ? WHERE id = ? "
                                                    "AND status IN ('PENDING', 'IN_PROGRESS')"),
                                     {now, core::qstr(queryId)});
    return updated.numRowsAffected() > 0;
}

// --- reads ------------------------------------------------------------------------------------

std::map<std::pair<std::string, int>, std::string> RequestQueries::trackedUnfinished() {
    std::map<std::pair<std::string, int>, std::string> jobs;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT query_id, idx, tracking_id FROM request_actions WHERE status "
                       "IN ('PENDING', 'IN_PROGRESS') AND tracking_id IS NOT NULL"));
    while (rows.next()) {
        jobs[{core::str(rows.value(0)), rows.value(1).toInt()}] = core::str(rows.value(2));
    }
    return jobs;
}

namespace {

api::RequestQuery queryFrom(const QSqlQuery& row) {
    api::RequestQuery query;
    query.internalId = core::str(row.value(0));
    query.status = core::str(row.value(1));
    query.typ = json::parse(core::str(row.value(2)));
    query.createdAt = core::str(row.value(3));
    if (!row.value(4).isNull()) {
        query.completedAt = core::str(row.value(4));
    }
    return query;
}

} // namespace

std::vector<api::RequestQuery> RequestQueries::queries(const std::string& requestId) {
    std::vector<api::RequestQuery> out;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT id, status, typ, created_at, completed_at FROM request_queries "
                       "WHERE request_id = ? ORDER BY id"),
        {core::qstr(requestId)});
    while (rows.next()) {
        out.push_back(queryFrom(rows));
    }
    if (out.empty()) {
        // A grow order's batch query is read by its own id too.
        QSqlQuery row =
            m_store.exec(QStringLiteral("SELECT id, status, typ, created_at, completed_at FROM "
                                        "request_queries WHERE id = ?"),
                         {core::qstr(requestId)});
        if (row.next()) {
            out.push_back(queryFrom(row));
        }
    }
    return out;
}

std::vector<api::RequestAction> RequestQueries::actions(const std::string& queryId) {
    std::vector<api::RequestAction> out;
    for (const StoredAction& row : loadActions(queryId)) {
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
                                  {core::qstr(queryId)});
    while (rows.next()) {
        const auto index = std::size_t(rows.value(0).toInt());
        if (index < out.size()) {
            out[index].createdAt = core::str(rows.value(1));
            if (!rows.value(2).isNull()) {
                out[index].completedAt = core::str(rows.value(2));
            }
        }
    }
    return out;
}

std::optional<StoredQuery> RequestQueries::load(const std::string& id) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT id, request_id, grow_order_id, status, "
                                                "typ, deadline_ms FROM request_queries WHERE "
                                                "id = ?"),
                                 {core::qstr(id)});
    if (!row.next()) {
        return std::nullopt;
    }
    StoredQuery query;
    query.id = core::str(row.value(0));
    if (!row.value(1).isNull()) {
        query.requestId = core::str(row.value(1));
    }
    if (!row.value(2).isNull()) {
        query.growOrderId = core::str(row.value(2));
    }
    query.status = core::str(row.value(3));
    query.typ = json::parse(core::str(row.value(4)));
    if (!row.value(5).isNull()) {
        query.deadlineMs = row.value(5).toLongLong();
    }
    return query;
}

std::vector<StoredAction> RequestQueries::loadActions(const std::string& queryId) {
    std::vector<StoredAction> out;
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT idx, status, depends_on, can_trigger, "
                                                 "method, tracking_id FROM request_actions "
                                                 "WHERE query_id = ? ORDER BY idx"),
                                  {core::qstr(queryId)});
    while (rows.next()) {
        StoredAction action;
        action.index = rows.value(0).toInt();
        action.status = core::str(rows.value(1));
        action.dependsOn = json::parse(core::str(rows.value(2))).get<std::vector<int>>();
        action.canTrigger = json::parse(core::str(rows.value(3))).get<std::vector<int>>();
        action.method = json::parse(core::str(rows.value(4)));
        if (!rows.value(5).isNull()) {
            action.trackingId = core::str(rows.value(5));
        }
        out.push_back(std::move(action));
    }
    return out;
}

} // namespace proofdesk::request
