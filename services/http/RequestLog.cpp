#include "RequestLog.h"

namespace proofdesk::http {

RequestLog::~RequestLog() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_pause.notify_all();
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
    if (m_idleWaiting) {
        m_wake.notify_one(); // otherwise the delivery thread takes it with its next batch
    }
}

std::vector<RequestLogEntry> RequestLog::recent() const {
    std::lock_guard lock(m_mutex);
    return {m_entries.begin(), m_entries.end()};
}

void RequestLog::setSink(std::function<void(const RequestLogEntry&)> sink,
                         std::function<void()> afterBatch) {
    std::lock_guard lock(m_mutex);
    m_sink = std::move(sink);
    m_afterBatch = std::move(afterBatch);
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
        m_idleWaiting = true;
        m_wake.wait(lock, [this] { return m_stopping || !m_pending.empty(); });
        m_idleWaiting = false;
        if (m_pending.empty()) {
            return; // stopping with nothing left to deliver
        }
        std::deque<RequestLogEntry> batch;
        batch.swap(m_pending);
        const auto sink = m_sink;
        const auto afterBatch = m_afterBatch;
        m_delivering = true;
        lock.unlock();
        for (const RequestLogEntry& entry : batch) {
            if (sink) {
                sink(entry);
            }
        }
        if (afterBatch) {
            afterBatch();
        }
        lock.lock();
        m_delivering = false;
        if (m_pending.empty()) {
            m_idle.notify_all();
        }
        // A busy server records entries faster than one wake-up each is worth: let them gather
        // for a moment (records made meanwhile do not wake this thread).
        if (!m_stopping && batch.size() < 64) {
            m_pause.wait_for(lock, std::chrono::milliseconds(20), [this] { return m_stopping; });
        }
    }
}

} // namespace proofdesk::http
