#include "JobEngine.h"

#include "ServiceError.h"
#include "Ulid.h"

#include <QSqlError>

namespace proofdesk::core {
namespace {

JobState parseState(const QString& text) {
    if (text == QLatin1String("running")) {
        return JobState::Running;
    }
    if (text == QLatin1String("done")) {
        return JobState::Done;
    }
    if (text == QLatin1String("failed")) {
        return JobState::Failed;
    }
    return JobState::Queued;
}

nlohmann::json parseJson(const QString& text) {
    return text.isEmpty() ? nlohmann::json() : nlohmann::json::parse(text.toStdString());
}

QString dumpJson(const nlohmann::json& value) {
    return QString::fromStdString(value.dump());
}

} // namespace

QString jobStateName(JobState state) {
    switch (state) {
    case JobState::Queued:
        return QStringLiteral("queued");
    case JobState::Running:
        return QStringLiteral("running");
    case JobState::Done:
        return QStringLiteral("done");
    case JobState::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

JobEngine::JobEngine(Store& store, const Clock& clock, int workerCount, int maxAttempts)
    : m_store(store), m_clock(clock), m_workerCount(std::max(1, workerCount)),
      m_maxAttempts(std::max(1, maxAttempts)),
      m_perLaneLimit(m_workerCount > 1 ? m_workerCount - 1 : 1) {
    m_store.migrate(QStringLiteral("jobs"), migrations());
}

JobEngine::~JobEngine() {
    stop();
}

std::vector<Migration> JobEngine::migrations() {
    return {{1,
             QStringLiteral("jobs table"),
             {QStringLiteral("CREATE TABLE jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL,"
                             " payload TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT "
                             "NULL DEFAULT 0, error TEXT, result TEXT, created_at TEXT NOT NULL,"
                             " updated_at TEXT NOT NULL)"),
              QStringLiteral("CREATE INDEX jobs_by_state ON jobs(state, created_at, id)")}},
            {2,
             QStringLiteral("jobs in lanes (one per project), taken in turn"),
             {QStringLiteral("ALTER TABLE jobs ADD COLUMN lane TEXT NOT NULL DEFAULT ''"),
              QStringLiteral("CREATE INDEX jobs_by_lane ON jobs(state, lane, created_at, id)")}}};
}

void JobEngine::registerHandler(const QString& kind, JobHandler handler) {
    std::lock_guard lock(m_mutex);
    m_handlers[kind] = std::move(handler);
}

void JobEngine::setListener(JobListener listener) {
    std::lock_guard lock(m_mutex);
    m_listener = std::move(listener);
}

QString JobEngine::enqueueIn(QSqlDatabase& db, const QString& kind, const nlohmann::json& payload,
                             const QString& lane) {
    const qint64 now = m_clock.nowMs();
    const QString id = newUlid(now);
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO jobs (id, kind, payload, state, attempts, "
                                  "created_at, updated_at, lane) VALUES (?, ?, ?, 'queued', 0, ?, "
                                  "?, ?)"));
    insert.addBindValue(id);
    insert.addBindValue(kind);
    insert.addBindValue(dumpJson(payload));
    insert.addBindValue(toIsoTimestampMs(now));
    insert.addBindValue(toIsoTimestampMs(now));
    insert.addBindValue(lane.isNull() ? QStringLiteral("") : lane);
    if (!insert.exec()) {
        throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                           insert.lastError().text().toStdString());
    }
    return id;
}

QString JobEngine::enqueue(const QString& kind, const nlohmann::json& payload,
                           const QString& lane) {
    QString id;
    m_store.write([&](QSqlDatabase& db) { id = enqueueIn(db, kind, payload, lane); });
    wake();
    return id;
}

void JobEngine::wake() {
    {
        std::lock_guard lock(m_mutex);
        m_pendingWake = true;
    }
    m_wakeup.notify_all();
}

void JobEngine::start() {
    if (m_running.exchange(true)) {
        return;
    }
    m_stopping = false;
    recoverInterruptedJobs();
    m_pendingWake = true;
    for (int i = 0; i < m_workerCount; ++i) {
        m_workers.emplace_back([this] { workerLoop(); });
    }
}

void JobEngine::stop() {
    if (!m_running.load()) {
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wakeup.notify_all();
    for (std::thread& worker : m_workers) {
        worker.join();
    }
    m_workers.clear();
    m_running = false;
}

void JobEngine::recoverInterruptedJobs() {
    const QString now = toIsoTimestamp(m_clock.now());
    const QString reason = QStringLiteral("interrupted by a server stop or crash %1 times; "
                                          "no attempts left")
                               .arg(m_maxAttempts);
    m_store.write([&](QSqlDatabase& db) {
        QSqlQuery fail(db);
        fail.prepare(QStringLiteral("UPDATE jobs SET state='failed', error=?, updated_at=? "
                                    "WHERE state='running' AND attempts >= ?"));
        fail.addBindValue(reason);
        fail.addBindValue(now);
        fail.addBindValue(m_maxAttempts);
        QSqlQuery requeue(db);
        requeue.prepare(QStringLiteral("UPDATE jobs SET state='queued', updated_at=? "
                                       "WHERE state='running'"));
        requeue.addBindValue(now);
        if (!fail.exec() || !requeue.exec()) {
            throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                               "could not recover interrupted jobs");
        }
    });
}

std::optional<JobRecord> JobEngine::claimNext() {
    std::optional<JobRecord> claimed;
    m_store.write([&](QSqlDatabase& db) {
        // Round robin over lanes: the oldest job of the next lane after the last one served,
        // wrapping around to the first lane.
        QSqlQuery q(db);
        for (const bool wrapped : {false, true}) {
            q.prepare(QStringLiteral("UPDATE jobs SET state='running', attempts=attempts+1, "
                                     "updated_at=? WHERE id = (SELECT id FROM jobs WHERE "
                                     "state='queued' AND ") +
                      (wrapped ? QStringLiteral("lane >= ?") : QStringLiteral("lane > ?")) +
                      QStringLiteral(" AND (SELECT COUNT(*) FROM jobs AS busy WHERE busy.state = "
                                     "'running' AND busy.lane = jobs.lane) < ? ORDER BY lane, "
                                     "created_at, id LIMIT 1) "
                                     "RETURNING id, kind, payload, attempts, lane"));
            q.addBindValue(toIsoTimestamp(m_clock.now()));
            q.addBindValue(wrapped ? QStringLiteral("") : m_lastLane);
            q.addBindValue(m_perLaneLimit);
            if (!q.exec()) {
                throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                   q.lastError().text().toStdString());
            }
            if (q.next()) {
                break;
            }
        }
        if (q.isValid()) {
            JobRecord job;
            job.id = q.value(0).toString();
            job.kind = q.value(1).toString();
            job.payload = parseJson(q.value(2).toString());
            job.attempts = q.value(3).toInt();
            job.state = JobState::Running;
            m_lastLane = q.value(4).toString();
            claimed = std::move(job);
        }
    });
    return claimed;
}

void JobEngine::workerLoop() {
    while (!m_stopping.load()) {
        std::optional<JobRecord> job;
        try {
            job = claimNext();
        } catch (const std::exception&) {
            job.reset(); // the store is busy or failing; wait for the next wake-up
        }
        if (!job) {
            std::unique_lock lock(m_mutex);
            m_wakeup.wait(lock, [this] { return m_stopping.load() || m_pendingWake; });
            m_pendingWake = false;
            continue;
        }
        JobHandler handler;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_handlers.find(job->kind);
            if (it != m_handlers.end()) {
                handler = it->second;
            }
        }
        JobOutcome outcome;
        if (!handler) {
            outcome = JobOutcome::permanent(QStringLiteral("no handler for job kind ") + job->kind);
        } else {
            JobContext context(m_stopping);
            try {
                outcome = handler(*job, context);
            } catch (const std::exception& error) {
                outcome = JobOutcome::transient(QString::fromUtf8(error.what()));
            }
        }
        finish(*job, outcome);
    }
}

void JobEngine::finish(const JobRecord& claimed, const JobOutcome& outcome) {
    JobRecord job = claimed;
    QString sql;
    switch (outcome.type) {
    case JobOutcome::Type::Done:
        job.state = JobState::Done;
        job.result = outcome.result;
        break;
    case JobOutcome::Type::Transient:
        job.state = job.attempts >= m_maxAttempts ? JobState::Failed : JobState::Queued;
        job.error = outcome.reason;
        break;
    case JobOutcome::Type::Permanent:
        job.state = JobState::Failed;
        job.error = outcome.reason;
        break;
    case JobOutcome::Type::Interrupted:
        job.state = JobState::Queued;
        job.attempts -= 1;
        break;
    }
    m_store.write([&](QSqlDatabase& db) {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE jobs SET state=?, attempts=?, error=?, result=?, "
                                 "updated_at=? WHERE id=?"));
        q.addBindValue(jobStateName(job.state));
        q.addBindValue(job.attempts);
        q.addBindValue(job.error.isNull() ? QVariant() : QVariant(job.error));
        q.addBindValue(job.state == JobState::Done ? QVariant(dumpJson(job.result)) : QVariant());
        q.addBindValue(toIsoTimestamp(m_clock.now()));
        q.addBindValue(job.id);
        if (!q.exec()) {
            throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                               q.lastError().text().toStdString());
        }
    });
    if (job.state == JobState::Queued) {
        wake();
    }
    JobListener listener;
    {
        std::lock_guard lock(m_mutex);
        listener = m_listener;
    }
    if (listener) {
        listener(job);
    }
}

std::optional<JobRecord> JobEngine::job(const QString& id) {
    QSqlQuery q = m_store.exec(
        QStringLiteral("SELECT id, kind, payload, state, attempts, error, result FROM jobs "
                       "WHERE id = ?"),
        {id});
    if (!q.next()) {
        return std::nullopt;
    }
    JobRecord job;
    job.id = q.value(0).toString();
    job.kind = q.value(1).toString();
    job.payload = parseJson(q.value(2).toString());
    job.state = parseState(q.value(3).toString());
    job.attempts = q.value(4).toInt();
    job.error = q.value(5).toString();
    job.result = parseJson(q.value(6).toString());
    return job;
}

} // namespace proofdesk::core
