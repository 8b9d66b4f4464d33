#include "RateLimiter.h"

#include <algorithm>

namespace proofdesk::auth {

bool RateLimiter::allow(const QString& key, qint64 nowMs) {
    std::lock_guard lock(m_mutex);
    const auto refill = [this, nowMs](Bucket& bucket) {
        const double elapsedMinutes = double(std::max<qint64>(0, nowMs - bucket.atMs)) / 60000.0;
        bucket.tokens = std::min<double>(m_burst, bucket.tokens + elapsedMinutes * m_perMinute);
        bucket.atMs = nowMs;
    };
    if (m_buckets.size() > 10000) {
        for (auto it = m_buckets.begin(); it != m_buckets.end();) {
            refill(it->second);
            it = it->second.tokens >= m_burst ? m_buckets.erase(it) : std::next(it);
        }
    }
    auto [it, inserted] = m_buckets.try_emplace(key, Bucket{double(m_burst), nowMs});
    if (!inserted) {
        refill(it->second);
    }
    if (it->second.tokens < 1) {
        return false;
    }
    it->second.tokens -= 1;
    return true;
}

} // namespace proofdesk::auth
