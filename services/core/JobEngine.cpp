#include "JobEngine.h"

#include "ServiceError.h"
#include "Ulid.h"

#include <QCoreApplication>
#include <QSqlDriver>
#include <QSqlError>
#include <QSysInfo>
#include <QThread>
#include <QTimer>

#include <iostream>

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

[[noreturn]] void throwQuery(const QSqlQuery& query) {
    throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                       query.lastError().text().toStdString());
}

QSqlQuery run(QSqlDatabase& db, const QString& sql, const QVariantList& bindings) {
    QSqlQuery q(db);
    if (!q.prepare(sql)) {
        throwQuery(q);
    }
    for (const QVariant& value : bindings) {
        q.addBindValue(value);
    }
    if (!q.exec()) {
        throwQuery(q);
    }
    return q;
}

// The planner's figures of the jobs table. A claim walks the waiting jobs' index in its order
// and stops at the first; without figures (a new table that filled faster than autovacuum looks)
// PostgreSQL sorted every waiting job instead, on every claim (442 claims/s at 4,000 jobs).
void refreshJobStatistics(Store& store) {
    try {
        store.exec(QStringLiteral("ANALYZE jobs"));
    } catch (const std::exception&) {
        // Figures are an optimisation; autovacuum refreshes them too.
    }
}

constexpr int kBeatsBetweenStatistics = 30; // five minutes at the default heartbeat

// The channel on which enqueues wake idle workers of every process on a PostgreSQL store.
const QString kJobChannel = QStringLiteral("proofdesk_jobs");

} // namespace

// Listens for the store's job notifications on a connection of its own, in a thread with an event
// loop (the driver reads notifications from its socket there), and wakes the engine's workers.
class JobEngine::Notifications : public QThread {
public:
    Notifications(Store& store, JobEngine& engine) : m_store(store), m_engine(engine) {}
    ~Notifications() override {
        m_leaving = true;
        wait();
    }

protected:
    void run() override {
        while (!m_leaving.load()) {
            listenUntilLost();
            m_engine.m_hearsOthers = false;
            m_engine.wake(); // a job enqueued while this was deaf is found by a claim
            for (int i = 0; i < 10 && !m_leaving.load(); ++i) {
                QThread::msleep(100); // before connecting again
            }
        }
    }

private:
    // Subscribes on this thread's connection and serves its notifications until the engine
    // stops or the connection is found lost (a ping every few seconds); then drops it.
    void listenUntilLost() {
        try {
            QSqlDatabase db = m_store.connection();
            QSqlDriver* driver = db.driver();
            QObject::connect(driver, &QSqlDriver::notification, driver,
                             [this](const QString&) { m_engine.wake(); });
            if (driver->subscribeToNotification(kJobChannel)) {
                m_engine.m_hearsOthers = true;
                QTimer check;
                int ticks = 0;
                QObject::connect(&check, &QTimer::timeout, [&] {
                    if (m_leaving.load()) {
                        exit();
                    } else if (++ticks % 25 == 0 &&
                               !QSqlQuery(db).exec(QStringLiteral("SELECT 1"))) {
                        exit(); // lost (the server restarted, the network broke)
                    }
                });
                check.start(200);
                exec();
                driver->unsubscribeFromNotification(kJobChannel);
            }
            db.close(); // in the thread it belongs to
        } catch (const std::exception&) {
            // The store is unreachable now; the workers' fallback poll finds new jobs meanwhile.
        }
        m_store.dropConnectionOfThisThread();
    }

    Store& m_store;
    JobEngine& m_engine;
    std::atomic<bool> m_leaving{false};
};

void JobContext::confirmHeldIn(QSqlDatabase& db) const {
    if (m_lease.isEmpty()) {
        return; // not a claimed job (a handler called directly)
    }
    QSqlQuery held = run(db,
                         QStringLiteral("SELECT 1 FROM jobs WHERE id = ? AND lease = ? AND state "
                                        "= 'running'"),
                         {m_jobId, m_lease});
    if (!held.next()) {
        throw ServiceError(ErrorKind::Conflict, "JOB_LEASE_LOST",
                           "this worker no longer holds the job: its result is not recorded");
    }
}

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

JobEngine::JobEngine(Store& store, const Clock& clock, int workerCount, int maxAttempts,
                     JobLeases leases)
    : m_store(store), m_clock(clock), m_workerCount(std::max(1, workerCount)),
      m_maxAttempts(std::max(1, maxAttempts)), m_leases(leases),
      m_perLaneLimit(m_workerCount > 1 ? m_workerCount - 1 : 1),
      m_workerName(QSysInfo::machineHostName() + QLatin1Char('/') +
                   QString::number(QCoreApplication::applicationPid())) {
    m_store.migrate(QStringLiteral("jobs"), migrations());
}

void JobEngine::setWorkKinds(const QStringList& workKinds) {
    m_workKinds = workKinds;
    // Those kinds, and jobs queued before kinds existed (the claim binds one value per mark).
    m_workKindFilter.clear();
    if (!m_workKinds.isEmpty()) {
        QStringList marks;
        for (qsizetype i = 0; i < m_workKinds.size(); ++i) {
            marks << QStringLiteral("?");
        }
        m_workKindFilter = QStringLiteral(" AND (work_kind = '' OR work_kind IN (") +
                           marks.join(QLatin1Char(',')) + QStringLiteral("))");
    }
}

void JobEngine::setWorkerName(const QString& name) {
    if (!name.isEmpty()) {
        m_workerName = name;
    }
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
              QStringLiteral("CREATE INDEX jobs_by_lane ON jobs(state, lane, created_at, id)")}},
            {3,
             QStringLiteral("leases of running jobs, and the workers that hold them"),
             {QStringLiteral("ALTER TABLE jobs ADD COLUMN lease TEXT"),
              QStringLiteral("ALTER TABLE jobs ADD COLUMN lease_expires_ms INTEGER"),
              QStringLiteral("ALTER TABLE jobs ADD COLUMN worker TEXT"),
              QStringLiteral("CREATE INDEX jobs_by_lease ON jobs(state, lease_expires_ms)"),
              QStringLiteral("CREATE TABLE job_workers (name TEXT PRIMARY KEY, host TEXT NOT "
                             "NULL, pid INTEGER NOT NULL, threads INTEGER NOT NULL, started_at "
                             "TEXT NOT NULL, heartbeat_ms INTEGER NOT NULL)")}},
            // A claim reads only waiting and running rows (the waiting in the claim's order).
            {4,
             QStringLiteral("indexes of the waiting and the running jobs alone"),
             {QStringLiteral("CREATE INDEX jobs_waiting ON jobs(lane, created_at, id) WHERE "
                             "state = 'queued'"),
              QStringLiteral("CREATE INDEX jobs_running ON jobs(lane) WHERE state = 'running'")}},
            // Jobs queued before have none: any worker takes them.
            {5,
             QStringLiteral("the kind of work of each job, for workers that take only some"),
             {QStringLiteral("ALTER TABLE jobs ADD COLUMN work_kind TEXT NOT NULL DEFAULT ''")}}};
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
                             const QString& lane, const QString& workKind) {
    const qint64 now = m_clock.nowMs();
    const QString id = newUlid(now);
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO jobs (id, kind, payload, state, attempts, "
                                  "created_at, updated_at, lane, work_kind) VALUES (?, ?, ?, "
                                  "'queued', 0, ?, ?, ?, ?)"));
    insert.addBindValue(id);
    insert.addBindValue(kind);
    insert.addBindValue(dumpJson(payload));
    insert.addBindValue(toIsoTimestampMs(now));
    insert.addBindValue(toIsoTimestampMs(now));
    insert.addBindValue(lane.isNull() ? QStringLiteral("") : lane);
    insert.addBindValue(workKind.isNull() ? QStringLiteral("") : workKind);
    if (!insert.exec()) {
        throwQuery(insert);
    }
    if (m_store.isShared()) {
        // Delivered when the transaction commits, to every listening worker of every process.
        run(db, QStringLiteral("SELECT pg_notify(?, ?)"), {kJobChannel, kind});
    }
    return id;
}

QString JobEngine::enqueue(const QString& kind, const nlohmann::json& payload, const QString& lane,
                           const QString& workKind) {
    QString id;
    m_store.write([&](QSqlDatabase& db) { id = enqueueIn(db, kind, payload, lane, workKind); });
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
    if (m_store.isShared()) {
        refreshJobStatistics(m_store);
        heartbeat(); // registers this worker and recovers jobs of workers gone for a lease
        m_heartbeat = std::thread([this] { heartbeatLoop(); });
        m_notifications = std::make_unique<Notifications>(m_store, *this);
        m_notifications->start();
    } else {
        recoverInterruptedJobs();
    }
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
    m_heartbeatWakeup.notify_all();
    for (std::thread& worker : m_workers) {
        worker.join();
    }
    m_workers.clear();
    if (m_heartbeat.joinable()) {
        m_heartbeat.join();
    }
    m_notifications.reset();
    if (m_store.isShared()) {
        try {
            m_store.exec(QStringLiteral("DELETE FROM job_workers WHERE name = ?"), {m_workerName});
        } catch (const std::exception&) {
            // The row ages out of liveWorkers() by itself.
        }
    }
    m_running = false;
}

void JobEngine::heartbeatLoop() {
    std::unique_lock lock(m_mutex);
    int beats = 0;
    while (!m_stopping.load()) {
        m_heartbeatWakeup.wait_for(lock, std::chrono::milliseconds(m_leases.heartbeatMs),
                                   [this] { return m_stopping.load(); });
        if (m_stopping.load()) {
            break;
        }
        lock.unlock();
        if (++beats % kBeatsBetweenStatistics == 0) {
            refreshJobStatistics(m_store);
        }
        try {
            heartbeat();
        } catch (const std::exception&) {
            // The store is unreachable: leases run out and other workers take the jobs over;
            // a handler sees stopRequested() once its lease is found lost.
        }
        lock.lock();
    }
}

void JobEngine::heartbeat() {
    const qint64 now = m_clock.nowMs();
    std::map<QString, std::shared_ptr<std::atomic<bool>>> held;
    {
        std::lock_guard lock(m_mutex);
        held = m_heldLeases;
    }
    int liveThreads = 0;
    m_store.write(
        [&](QSqlDatabase& db) {
            for (const auto& [lease, lost] : held) {
                QSqlQuery renewed =
                    run(db,
                        QStringLiteral("UPDATE jobs SET lease_expires_ms = ? WHERE lease = ? "
                                       "AND state = 'running'"),
                        {now + m_leases.leaseMs, lease});
                if (renewed.numRowsAffected() == 0) {
                    lost->store(true);
                }
            }
            run(db,
                QStringLiteral("INSERT INTO job_workers (name, host, pid, threads, started_at, "
                               "heartbeat_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO "
                               "UPDATE SET host = excluded.host, pid = excluded.pid, threads = "
                               "excluded.threads, heartbeat_ms = excluded.heartbeat_ms"),
                {m_workerName, QSysInfo::machineHostName(),
                 qint64(QCoreApplication::applicationPid()), m_workerCount, toIsoTimestampMs(now),
                 now});
            QSqlQuery threads = run(db,
                                    QStringLiteral("SELECT COALESCE(SUM(threads), 0) FROM "
                                                   "job_workers WHERE heartbeat_ms > ?"),
                                    {now - 3 * m_leases.leaseMs});
            liveThreads = threads.next() ? threads.value(0).toInt() : 0;
        },
        Store::Isolation::ReadCommitted);
    // A lane never holds every worker thread of the whole team, as it never held all of one
    // process's.
    const int total = std::max(liveThreads, m_workerCount);
    m_perLaneLimit = total > 1 ? total - 1 : 1;
    requeueExpiredLeases();
}

int JobEngine::requeueExpiredLeases() {
    const qint64 now = m_clock.nowMs();
    const QString stamp = toIsoTimestamp(m_clock.now());
    const QString reason = QStringLiteral("interrupted %1 times (its worker stopped, or stopped "
                                          "answering until its lease ran out); no attempts left")
                               .arg(m_maxAttempts);
    std::vector<JobRecord> failed;
    int requeued = 0;
    m_store.write(
        [&](QSqlDatabase& db) {
            failed.clear();
            QSqlQuery gone =
                run(db,
                    QStringLiteral("UPDATE jobs SET state = 'failed', error = ?, updated_at = ?, "
                                   "lease = NULL, lease_expires_ms = NULL WHERE state = 'running' "
                                   "AND COALESCE(lease_expires_ms, 0) < ? AND attempts >= ? "
                                   "RETURNING id, kind, payload, attempts"),
                    {reason, stamp, now, m_maxAttempts});
            while (gone.next()) {
                JobRecord job;
                job.id = gone.value(0).toString();
                job.kind = gone.value(1).toString();
                job.payload = parseJson(gone.value(2).toString());
                job.attempts = gone.value(3).toInt();
                job.state = JobState::Failed;
                job.error = reason;
                failed.push_back(std::move(job));
            }
            requeued = run(db,
                           QStringLiteral("UPDATE jobs SET state = 'queued', updated_at = ?, "
                                          "lease = NULL, lease_expires_ms = NULL WHERE state = "
                                          "'running' AND COALESCE(lease_expires_ms, 0) < ?"),
                           {stamp, now})
                           .numRowsAffected();
            if (requeued > 0 && m_store.isShared()) {
                run(db, QStringLiteral("SELECT pg_notify(?, ?)"),
                    {kJobChannel, QStringLiteral("requeued")});
            }
        },
        Store::Isolation::ReadCommitted);
    for (const JobRecord& job : failed) {
        notifyListener(job);
    }
    if (requeued > 0) {
        wake();
    }
    return requeued;
}

std::vector<JobQueueDepth> JobEngine::queueDepth() {
    QSqlQuery q = m_store.exec(QStringLiteral(
        "SELECT CASE WHEN work_kind = '' THEN kind ELSE work_kind END AS work, lane, SUM(CASE "
        "WHEN state = 'queued' THEN 1 ELSE 0 END), SUM(CASE WHEN state = 'running' THEN 1 ELSE 0 "
        "END), MIN(CASE WHEN state = 'queued' THEN created_at END) FROM jobs WHERE state IN "
        "('queued', 'running') GROUP BY work, lane ORDER BY work, lane"));
    std::vector<JobQueueDepth> depths;
    while (q.next()) {
        JobQueueDepth depth;
        depth.kind = q.value(0).toString();
        depth.lane = q.value(1).toString();
        depth.queued = q.value(2).toInt();
        depth.running = q.value(3).toInt();
        depth.oldestQueuedAt = q.value(4).toString();
        depths.push_back(std::move(depth));
    }
    return depths;
}

std::vector<JobWorkerRecord> JobEngine::liveWorkers() {
    const qint64 now = m_clock.nowMs();
    if (!m_store.isShared()) {
        // One process has the file: its workers are this engine's threads, while it runs.
        if (!m_running.load()) {
            return {};
        }
        QSqlQuery running =
            m_store.exec(QStringLiteral("SELECT MIN(id) FROM jobs WHERE state = 'running'"));
        return {{m_workerName, QSysInfo::machineHostName(),
                 qint64(QCoreApplication::applicationPid()), m_workerCount, now,
                 running.next() ? running.value(0).toString() : QString()}};
    }
    QSqlQuery q = m_store.exec(
        QStringLiteral("SELECT w.name, w.host, w.pid, w.threads, w.heartbeat_ms, (SELECT MIN(j.id) "
                       "FROM jobs AS j WHERE j.state = 'running' AND j.worker = w.name) FROM "
                       "job_workers AS w WHERE w.heartbeat_ms > ? ORDER BY w.name"),
        {now - 3 * m_leases.leaseMs});
    std::vector<JobWorkerRecord> workers;
    while (q.next()) {
        JobWorkerRecord worker;
        worker.name = q.value(0).toString();
        worker.host = q.value(1).toString();
        worker.pid = q.value(2).toLongLong();
        worker.threads = q.value(3).toInt();
        worker.heartbeatMs = q.value(4).toLongLong();
        worker.runningJob = q.value(5).toString();
        workers.push_back(std::move(worker));
    }
    return workers;
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
        requeue.prepare(QStringLiteral("UPDATE jobs SET state='queued', updated_at=?, "
                                       "lease=NULL, lease_expires_ms=NULL WHERE state='running'"));
        requeue.addBindValue(now);
        if (!fail.exec() || !requeue.exec()) {
            throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                               "could not recover interrupted jobs");
        }
    });
}

std::optional<JobEngine::Claim> JobEngine::claimNext() {
    std::optional<Claim> claimed;
    const qint64 now = m_clock.nowMs();
    const QString lease = newUlid(now);
    const auto claimBindings = [&](const QString& afterLane) {
        QVariantList bindings;
        bindings << toIsoTimestamp(m_clock.now()) << lease << now + m_leases.leaseMs << m_workerName
                 << afterLane;
        for (const QString& workKind : m_workKinds) {
            bindings << workKind;
        }
        bindings << m_perLaneLimit.load();
        return bindings;
    };
    // Round robin over lanes: the oldest job of the next lane after the last one served, wrapping
    // around to the first lane. `statement` runs one statement.
    const auto claimWith = [&](const auto& statement, const QString& lastLane) {
        claimed.reset();
        QSqlQuery q;
        for (const bool wrapped : {false, true}) {
            q = statement(
                QStringLiteral(
                    "UPDATE jobs SET state='running', attempts=attempts+1, updated_at=?, "
                    "lease=?, lease_expires_ms=?, worker=? WHERE id = (SELECT id FROM "
                    "jobs WHERE state='queued' AND ") +
                    (wrapped ? QStringLiteral("lane >= ?") : QStringLiteral("lane > ?")) +
                    m_workKindFilter +
                    // The full lanes once (not a count per candidate row: that made every
                    // claim scan the table once per waiting job).
                    QStringLiteral(" AND lane NOT IN (SELECT lane FROM jobs WHERE state = "
                                   "'running' GROUP BY lane HAVING COUNT(*) >= ?) ORDER BY lane, "
                                   "created_at, id LIMIT 1") +
                    m_store.skipLockedSuffix() +
                    QStringLiteral(") RETURNING id, kind, payload, attempts, lane"),
                claimBindings(wrapped ? QStringLiteral("") : lastLane));
            if (q.next()) {
                break;
            }
        }
        if (!q.isValid()) {
            return QString();
        }
        Claim claim;
        claim.job.id = q.value(0).toString();
        claim.job.kind = q.value(1).toString();
        claim.job.payload = parseJson(q.value(2).toString());
        claim.job.attempts = q.value(3).toInt();
        claim.job.state = JobState::Running;
        claim.lease = lease;
        claim.lost = std::make_shared<std::atomic<bool>>(false);
        claimed = std::move(claim);
        return q.value(4).toString();
    };
    if (m_store.isShared()) {
        // One statement, atomic by itself, in no transaction of ours: the inner SELECT locks the
        // row it picks and skips rows other workers are claiming at this moment.
        QString lastLane;
        {
            std::lock_guard lock(m_mutex);
            lastLane = m_lastLane;
        }
        const QString lane =
            claimWith([&](const QString& sql,
                          const QVariantList& bindings) { return m_store.exec(sql, bindings); },
                      lastLane);
        if (claimed) {
            std::lock_guard lock(m_mutex);
            m_lastLane = lane;
        }
    } else {
        // Under the store's write lock, which also orders the lanes' turns.
        m_store.write([&](QSqlDatabase& db) {
            const QString lane =
                claimWith([&](const QString& sql,
                              const QVariantList& bindings) { return run(db, sql, bindings); },
                          m_lastLane);
            if (claimed) {
                m_lastLane = lane;
            }
        });
    }
    if (claimed) {
        std::lock_guard lock(m_mutex);
        m_heldLeases[claimed->lease] = claimed->lost;
    }
    return claimed;
}

void JobEngine::workerLoop() {
    while (!m_stopping.load()) {
        std::optional<Claim> claim;
        try {
            claim = claimNext();
        } catch (const std::exception& failure) {
            // The store is busy or failing: said once per failure, then the next wake-up (or
            // poll) tries again.
            std::cerr << "job engine: claiming a job failed: " << failure.what() << std::endl;
            claim.reset();
        }
        if (!claim) {
            std::unique_lock lock(m_mutex);
            const auto woken = [this] { return m_stopping.load() || m_pendingWake; };
            if (m_store.isShared()) {
                // Another process may enqueue; its notification wakes us, this poll is the
                // fallback when one was missed (a reconnect, a listener that could not start).
                m_wakeup.wait_for(lock, std::chrono::milliseconds(m_leases.idlePollMs), woken);
            } else {
                m_wakeup.wait(lock, woken);
            }
            m_pendingWake = false;
            continue;
        }
        const JobRecord& job = claim->job;
        JobHandler handler;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_handlers.find(job.kind);
            if (it != m_handlers.end()) {
                handler = it->second;
            }
        }
        JobOutcome outcome;
        if (!handler) {
            outcome = JobOutcome::permanent(QStringLiteral("no handler for job kind ") + job.kind);
        } else {
            JobContext context(m_stopping, claim->lost.get(), job.id, claim->lease);
            try {
                outcome = handler(job, context);
            } catch (const ServiceError& error) {
                // A store that could not take the job's write (restarting, a lost connection, a
                // conflicting writer) is not the job failing: it runs again without spending an
                // attempt, so an outage cannot use up a job's attempts.
                outcome = isStoreBusy(error)
                              ? JobOutcome::interrupted()
                              : JobOutcome::transient(QString::fromUtf8(error.what()));
            } catch (const std::exception& error) {
                outcome = JobOutcome::transient(QString::fromUtf8(error.what()));
            }
        }
        try {
            finish(*claim, outcome);
        } catch (const std::exception&) {
            // The store failed to take the outcome: the lease runs out and the job is run again.
        }
        std::lock_guard lock(m_mutex);
        m_heldLeases.erase(claim->lease);
    }
}

void JobEngine::finish(const Claim& claim, const JobOutcome& outcome) {
    JobRecord job = claim.job;
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
    // Only while this claim still holds the job: after its lease ran out another worker may have
    // it, and a second result must not overwrite (or repeat) the first. One statement.
    const QString finishSql =
        QStringLiteral("UPDATE jobs SET state=?, attempts=?, error=?, result=?, updated_at=?, "
                       "lease=NULL, lease_expires_ms=NULL WHERE id=? AND lease=? AND "
                       "state='running'");
    const QVariantList bindings{jobStateName(job.state),
                                job.attempts,
                                job.error.isNull() ? QVariant() : QVariant(job.error),
                                job.state == JobState::Done ? QVariant(dumpJson(job.result))
                                                            : QVariant(),
                                toIsoTimestamp(m_clock.now()),
                                job.id,
                                claim.lease};
    bool held = false;
    if (m_store.isShared()) {
        // The statement may be run again: after a commit whose answer was lost it changes
        // nothing (and the claim counts as lost). A store restarting is given a few seconds.
        for (int attempt = 1;; ++attempt) {
            try {
                held = m_store.exec(finishSql, bindings).numRowsAffected() > 0;
                break;
            } catch (const std::exception&) {
                if (attempt == 5) {
                    throw;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(300 * attempt));
            }
        }
        if (held && job.state == JobState::Queued) {
            m_store.exec(QStringLiteral("SELECT pg_notify(?, ?)"), {kJobChannel, job.kind});
        }
    } else {
        m_store.write(
            [&](QSqlDatabase& db) { held = run(db, finishSql, bindings).numRowsAffected() > 0; });
    }
    if (!held) {
        claim.lost->store(true);
        return;
    }
    if (job.state == JobState::Queued) {
        wake();
    }
    notifyListener(job);
}

void JobEngine::notifyListener(const JobRecord& job) {
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
