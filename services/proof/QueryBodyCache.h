#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace proofdesk::proof {

// The answers of GET /core-query/{id} (the hot read path), kept until the query changes. A reader
// notes version() before it reads the store and put()s its answer only if no query changed in
// between, so an answer read from a snapshot older than a write never outlives that write.
class QueryBodyCache {
public:
    explicit QueryBodyCache(std::size_t capacity = 8192) : m_capacity(capacity) {}

    std::uint64_t version() const { return m_version.load(); }

    std::optional<std::string> get(const std::string& id) const {
        std::lock_guard lock(m_mutex);
        auto it = m_bodies.find(id);
        return it == m_bodies.end() ? std::nullopt : std::optional<std::string>(it->second);
    }

    void put(const std::string& id, const std::string& body, std::uint64_t readAt) {
        std::lock_guard lock(m_mutex);
        if (m_version.load() != readAt) {
            return; // something changed meanwhile: the answer may be stale
        }
        if (m_bodies.size() >= m_capacity) {
            m_bodies.clear();
        }
        m_bodies[id] = body;
    }

    // Call when a query changes: before its write commits and again after.
    void invalidate(const std::string& id) {
        std::lock_guard lock(m_mutex);
        ++m_version;
        m_bodies.erase(id);
    }

private:
    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::atomic<std::uint64_t> m_version{0};
    std::unordered_map<std::string, std::string> m_bodies;
};

} // namespace proofdesk::proof
