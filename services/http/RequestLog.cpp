#include "RequestLog.h"

namespace proofdesk::http {

RequestLog::~RequestLog() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_delivery.joinable()) {
        m_delivery.join();
    }
}

void RequestLog::record(RequestLogEntry entry) {
    std::lock_guard lock(m_mutex);
    m_entries.push_back(entry);
    while (m_entries.size() > m_capacity) {
        m_entries.pop_front();
    }
    if (!m_sink) {
        return;
    }
    if (m_pending.size() >= m_backlog) {
        ++m_dropped;
        return;
    }
    m_pending.push_back(std::move(entry));
    m_wake.notify_one();
}

std::vector<RequestLogEntry> RequestLog::recent() const {
    std::lock_guard lock(m_mutex);
    return {m_entries.begin(), m_entries.end()};
}

void RequestLog::setSink(std::function<void(const RequestLogEntry&)> sink) {
    std::lock_guard lock(m_mutex);
    m_sink = std::move(sink);
    if (m_sink && !m_delivery.joinable()) {
        m_delivery = std::thread([this] { deliver(); });
    }
}

void RequestLog::flush() {
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_pending.empty() && !m_delivering; });
}

std::uint64_t RequestLog::dropped() const {
    std::lock_guard lock(m_mutex);
    return m_dropped;
}

void RequestLog::deliver() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopping || !m_pending.empty(); });
        if (m_pending.empty()) {
            return; // stopping with nothing left to deliver
        }
        const RequestLogEntry entry = std::move(m_pending.front());
        m_pending.pop_front();
        const auto sink = m_sink;
        m_delivering = true;
        lock.unlock();
        if (sink) {
            sink(entry);
        }
        lock.lock();
        m_delivering = false;
        if (m_pending.empty()) {
            m_idle.notify_all();
        }
    }
}

} // namespace proofdesk::http
