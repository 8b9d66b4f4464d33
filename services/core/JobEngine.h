#pragma once

#include "Clock.h"
#include "Store.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
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
    explicit JobContext(const std::atomic<bool>& stopping) : m_stopping(stopping) {}
    // Long handlers poll this and return JobOutcome::interrupted() when it turns true.
    bool stopRequested() const { return m_stopping.load(); }

private:
    const std::atomic<bool>& m_stopping;
};

using JobHandler = std::function<JobOutcome(const JobRecord&, JobContext&)>;
using JobListener = std::function<void(const JobRecord&)>;

// Persisted jobs run by a pool of worker threads. A job is claimed (state running, attempts+1) in
// one transaction, so a crash leaves it `running`; start() puts such jobs back in the queue (the
// interrupted attempt counts) or fails them with a reason once they have used every attempt.
// Lanes (whose job it is) are served in turn, and with more than one worker a lane never holds
// them all: one worker is always left for the other lanes (a project's long jobs cannot hold up
// another project's).
class JobEngine {
public:
    JobEngine(Store& store, const Clock& clock, int workerCount = 3, int maxAttempts = 3);
    ~JobEngine();
    JobEngine(const JobEngine&) = delete;
    JobEngine& operator=(const JobEngine&) = delete;

    static std::vector<Migration> migrations();

    void registerHandler(const QString& kind, JobHandler handler);
    // Called on a worker thread after every state change that ends an attempt.
    void setListener(JobListener listener);

    // Durable enqueue in its own transaction; wakes a worker. `lane` is whose job it is (a
    // project): workers take lanes in turn, so one lane's many jobs cannot starve another's.
    QString enqueue(const QString& kind, const nlohmann::json& payload, const QString& lane = {});
    // Enqueue inside a caller's Store::write transaction; call wake() after it commits.
    QString enqueueIn(QSqlDatabase& db, const QString& kind, const nlohmann::json& payload,
                      const QString& lane = {});
    void wake();

    void start();
    void stop();
    bool isRunning() const { return m_running.load(); }

    std::optional<JobRecord> job(const QString& id);
    int maxAttempts() const { return m_maxAttempts; }

private:
    void recoverInterruptedJobs();
    void workerLoop();
    std::optional<JobRecord> claimNext();
    void finish(const JobRecord& job, const JobOutcome& outcome);

    Store& m_store;
    const Clock& m_clock;
    int m_workerCount;
    int m_maxAttempts;
    int m_perLaneLimit; // running jobs one lane may have at once

    std::mutex m_mutex;
    std::condition_variable m_wakeup;
    bool m_pendingWake = false;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_running{false};
    std::vector<std::thread> m_workers;
    std::map<QString, JobHandler> m_handlers;
    QString m_lastLane; // the lane of the latest claim (under the store's write lock)
    JobListener m_listener;
};

} // namespace proofdesk::core
