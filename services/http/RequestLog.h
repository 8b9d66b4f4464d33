#pragma once

#include <QString>

#include <deque>
#include <functional>
#include <mutex>
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
class RequestLog {
public:
    explicit RequestLog(std::size_t capacity = 1000) : m_capacity(capacity) {}

    void record(RequestLogEntry entry);
    std::vector<RequestLogEntry> recent() const;
    // Called on the serving thread after each request; calls are serialised (one at a time), so a
    // sink may write to a stream that is not thread-safe.
    void setSink(std::function<void(const RequestLogEntry&)> sink);

private:
    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::mutex m_sinkMutex;
    std::deque<RequestLogEntry> m_entries;
    std::function<void(const RequestLogEntry&)> m_sink;
};

} // namespace proofdesk::http
