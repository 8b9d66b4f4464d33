#include "RequestLog.h"

namespace proofdesk::http {

void RequestLog::record(RequestLogEntry entry) {
    std::function<void(const RequestLogEntry&)> sink;
    {
        std::lock_guard lock(m_mutex);
        m_entries.push_back(entry);
        while (m_entries.size() > m_capacity) {
            m_entries.pop_front();
        }
        sink = m_sink;
    }
    if (sink) {
        std::lock_guard lock(m_sinkMutex);
        sink(entry);
    }
}

std::vector<RequestLogEntry> RequestLog::recent() const {
    std::lock_guard lock(m_mutex);
    return {m_entries.begin(), m_entries.end()};
}

void RequestLog::setSink(std::function<void(const RequestLogEntry&)> sink) {
    std::lock_guard lock(m_mutex);
    m_sink = std::move(sink);
}

} // namespace proofdesk::http
