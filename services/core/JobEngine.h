#pragma once

#include "Clock.h"
#include "Store.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace proofdesk::core {

enum class JobState { Queued, Running, Done, Failed };
QString jobStateName(JobState state);

struct JobRecord {
    QString id;
    QString kind;
    nlohmann::json payload;
    JobState state = JobState::Queued;
    int attempts = 0; // claims so far, including the current one while running
    QString error;
    nlohmann::json result;
};

// What a handler reports back.
struct JobOutcome {
    enum class Type {
        Done,        // finished; `result` is stored
        Transient,   // may succeed if tried again (prover crash, timeout); retried up to the limit
        Permanent,   // deterministic failure (bad input); never retried
        Interrupted, // the engine is stopping; put back without counting the attempt
    };
    Type type = Type::Done;
    QString reason;
    nlohmann::json result = nlohmann::json::object();

    static JobOutcome done(nlohmann::json result = nlohmann::json::object()) {
        return {Type::Done, {}, std::move(result)};
    }
    static JobOutcome transient(QString reason) { return {Type::Transient, std::move(reason), {}}; }
    static JobOutcome permanent(QString reason) { return {Type::Permanent, std::move(reason), {}}; }
    static JobOutcome interrupted() { return {Type::Interrupted, {}, {}}; }
};

class JobContext {
public:
    explicit JobContext(const std::atomic<bool>& stopping,
                        const std::atomic<bool>* leaseLost = nullptr, QString jobId = {},
                        QString lease = {})
        : m_stopping(stopping), m_leaseLost(leaseLost), m_jobId(std::move(jobId)),
          m_lease(std::move(lease)) {}
    // Long handlers poll this and return JobOutcome::interrupted() when it turns true: the
    // engine is stopping, or (on a shared store) this worker no longer holds the job's lease,
    // so another worker may have it by now.
    bool stopRequested() const { return m_stopping.load() || (m_leaseLost && m_leaseLost->load()); }

    // Call first in the transaction that records what the job did: throws
    // ServiceError(Conflict, "JOB_LEASE_LOST") when this claim no longer holds the job (its
    // lease ran out and another worker may have it), so nothing of a late run is recorded.
    void confirmHeldIn(QSqlDatabase& db) const;

private:
    const std::atomic<bool>& m_stopping;
    const std::atomic<bool>* m_leaseLost;
    QString m_jobId;
    QString m_lease;
};

// Leases of jobs on a shared store (PostgreSQL: several processes on several machines). A claim
// holds its job for `leaseMs`; the worker's heartbeat extends it every `heartbeatMs`; a job whose
// lease ran out (its worker was killed, its machine went away, its network was cut) is queued
// again by any other worker, the interrupted attempt counted. Idle workers wake on the store's
// notification of new jobs, and poll every `idlePollMs` in case one was missed. Workers' clocks
// are assumed to agree to well within a lease (NTP).
struct JobLeases {
    qint64 leaseMs = 60'000;
    qint64 heartbeatMs = 10'000;
    qint64 idlePollMs = 5'000;
    // A lease of `seconds`, renewed six times within it.
    static JobLeases ofSeconds(int seconds) {
        return {qint64(seconds) * 1000, qint64(seconds) * 1000 / 6, 5'000};
    }
};

// Jobs waiting and running of one kind of work in one lane: for `proofdesk store status`.
struct JobQueueDepth {
    QString kind; // the work kind, or the job kind of a job enqueued without one
    QString lane;
    int queued = 0;
    int running = 0;
    QString oldestQueuedAt; // ISO time of the oldest waiting job; empty when none waits
};

// A worker process seen by the store (job_workers): for `proofdesk store status`.
struct JobWorkerRecord {
    QString name;
    QString host;
    qint64 pid = 0;
    int threads = 0;
    qint64 heartbeatMs = 0;
    QString runningJob; // one of its running jobs, if any
};

using JobHandler = std::function<JobOutcome(const JobRecord&, JobContext&)>;
using JobListener = std::function<void(const JobRecord&)>;

// Persisted jobs run by a pool of worker threads. A job is claimed (state running, attempts+1) in
// one transaction, so a crash leaves it `running`; start() puts such jobs back in the queue (the
// interrupted attempt counts) or fails them with a reason once they have used every attempt.
// Lanes (whose job it is) are served in turn, and with more than one worker a lane never holds
// them all: one worker is always left for the other lanes (a project's long jobs cannot hold up
// another project's).
//
// On a shared store (Store::isShared) other processes claim from the same table: a claim skips
// rows another worker is claiming, holds a lease (JobLeases), and the result of a worker that no
// longer holds its job's lease is refused (its listener is not called), so no job is finished
// twice. start() then recovers only jobs whose lease ran out, never those of live workers.
class JobEngine {
public:
    JobEngine(Store& store, const Clock& clock, int workerCount = 3, int maxAttempts = 3,
              JobLeases leases = {});
    ~JobEngine();
    JobEngine(const JobEngine&) = delete;
    JobEngine& operator=(const JobEngine&) = delete;

    static std::vector<Migration> migrations();

    void registerHandler(const QString& kind, JobHandler handler);
    // Called on a worker thread after every state change that ends an attempt.
    void setListener(JobListener listener);

    // Durable enqueue in its own transaction; wakes a worker. `lane` is whose job it is (a
    // project): workers take lanes in turn, so one lane's many jobs cannot starve another's.
    // `workKind` is what a worker must be able to do to run it ("trace", "prove"...: see
    // setWorkKinds); empty: any worker.
    QString enqueue(const QString& kind, const nlohmann::json& payload, const QString& lane = {},
                    const QString& workKind = {});
    // Enqueue inside a caller's Store::write transaction; call wake() after it commits.
    QString enqueueIn(QSqlDatabase& db, const QString& kind, const nlohmann::json& payload,
                      const QString& lane = {}, const QString& workKind = {});
    void wake();

    // How this process appears in job_workers and in a job's `worker` (default host/pid).
    void setWorkerName(const QString& name);
    // Before start(): claim only jobs of these kinds of work (and jobs enqueued without one), as
    // `proofdesk worker --kinds` asks; empty (the default): every job.
    void setWorkKinds(const QStringList& workKinds);

    void start();
    void stop();
    bool isRunning() const { return m_running.load(); }

    std::optional<JobRecord> job(const QString& id);
    int maxAttempts() const { return m_maxAttempts; }

    // On a shared store: whether new jobs of other processes wake this one now (its
    // notification listener is subscribed); otherwise it finds them by polling.
    bool hearsOtherProcesses() const { return m_hearsOthers.load(); }
    // Workers whose heartbeat is younger than three leases; on a store of one process (SQLite),
    // this engine while it runs.
    std::vector<JobWorkerRecord> liveWorkers();
    // Unfinished jobs per kind and lane.
    std::vector<JobQueueDepth> queueDepth();
    // Queues again the running jobs whose lease has run out (or fails those without attempts
    // left, calling the listener); returns how many were queued again. The heartbeat does this.
    int requeueExpiredLeases();

private:
    struct Claim {
        JobRecord job;
        QString lease;
        std::shared_ptr<std::atomic<bool>> lost;
    };
    void recoverInterruptedJobs();
    void workerLoop();
    void heartbeatLoop();
    void heartbeat();
    std::optional<Claim> claimNext();
    void finish(const Claim& claim, const JobOutcome& outcome);
    void notifyListener(const JobRecord& job);

    Store& m_store;
    const Clock& m_clock;
    int m_workerCount;
    int m_maxAttempts;
    JobLeases m_leases;
    std::atomic<int> m_perLaneLimit; // running jobs one lane may have at once
    QString m_workerName;
    QStringList m_workKinds;
    QString m_workKindFilter; // the claim's condition on them (empty: every job)

    std::mutex m_mutex;
    std::condition_variable m_wakeup;
    bool m_pendingWake = false;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_hearsOthers{false};
    std::vector<std::thread> m_workers;
    std::thread m_heartbeat;
    std::condition_variable m_heartbeatWakeup;
    std::map<QString, std::shared_ptr<std::atomic<bool>>> m_heldLeases; // lease -> lost
    class Notifications;
    std::unique_ptr<Notifications> m_notifications;
    std::map<QString, JobHandler> m_handlers;
    QString m_lastLane; // the lane of the latest claim (SQLite: under the store's write lock; else
                        // m_mutex)
    JobListener m_listener;
};

} // namespace proofdesk::core
