#pragma once

#include <QString>

#include <map>
#include <mutex>

namespace proofdesk::auth {

// A token bucket per key (a client address): `burst` requests at once, then `perMinute`. The
// table forgets full buckets when it grows past a bound, so many addresses cost little memory.
class RateLimiter {
public:
    RateLimiter(int burst, int perMinute) : m_burst(burst), m_perMinute(perMinute) {}

    // Takes one token for `key` at `nowMs`; false when its bucket is empty.
    bool allow(const QString& key, qint64 nowMs);

private:
    struct Bucket {
        double tokens = 0;
        qint64 atMs = 0;
    };
    int m_burst;
    int m_perMinute;
    std::mutex m_mutex;
    std::map<QString, Bucket> m_buckets;
};

} // namespace proofdesk::auth
