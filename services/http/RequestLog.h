#pragma once

#include <QString>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace proofdesk::http {

struct RequestLogEntry {
    qint64 atMs = 0;
    QString method;
    QString path;
    int status = 0;
    double milliseconds = 0;
};

// The last N requests served (method, path, status, ms), for the console and `serve`'s output.
// A sink gets every entry on a delivery thread of its own, one call at a time (so it may write to
// a stream that is not thread-safe), never on a serving thread: a sink that blocks (stderr into a
// pipe nobody reads) delays only the log. When its backlog is full, entries are dropped for the
// sink (and counted), never for the recent() list.
class RequestLog {
public:
    explicit RequestLog(std::size_t capacity = 1000, std::size_t backlog = 65536)
        : m_capacity(capacity), m_backlog(backlog) {}
    ~RequestLog();
    RequestLog(const RequestLog&) = delete;
    RequestLog& operator=(const RequestLog&) = delete;

    void record(RequestLogEntry entry);
    std::vector<RequestLogEntry> recent() const;
    // `afterBatch`, when given, runs after each batch of entries (a stream's flush): entries are
    // delivered in batches, so a busy server wakes the delivery thread rarely.
    void setSink(std::function<void(const RequestLogEntry&)> sink,
                 std::function<void()> afterBatch = {});
    // Waits until the sink has been given every entry recorded so far (or they were dropped).
    void flush();
    // Entries the sink never got because its backlog was full.
    std::uint64_t dropped() const;

private:
    void deliver();

    std::size_t m_capacity;
    std::size_t m_backlog;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::condition_variable m_pause; // the delivery thread's short gathering pause
    bool m_idleWaiting = false;      // the delivery thread waits for work (only then woken)
    std::deque<RequestLogEntry> m_entries;
    std::deque<RequestLogEntry> m_pending;
    std::function<void(const RequestLogEntry&)> m_sink;
    std::function<void()> m_afterBatch;
    std::uint64_t m_dropped = 0;
    bool m_delivering = false;
    bool m_stopping = false;
    std::thread m_delivery;
};

} // namespace proofdesk::http
