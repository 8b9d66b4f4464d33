#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace proofdesk::http {

// The memory request bodies may hold, across every connection of a listener, from their first
// byte until their handler is done: JSON bodies and the small parts of multipart bodies. Beyond
// it a multipart part goes to disk at once and a JSON body is refused (503), so clients sending
// at once cannot take the server's memory (docs/security.md).
class BodyMemory {
public:
    explicit BodyMemory(std::size_t limit) : m_limit(limit) {}
    // Takes `bytes` if they fit; false (nothing taken) if not.
    bool acquire(std::size_t bytes);
    void release(std::size_t bytes) { m_used.fetch_sub(bytes); }
    std::size_t used() const { return m_used.load(); }
    std::size_t limit() const { return m_limit; }

private:
    std::size_t m_limit;
    std::atomic<std::size_t> m_used{0};
};

// One request's share of BodyMemory, with a cap of its own; given back when the last holder (the
// connection reading the body, then the request its handler reads) lets go.
class BodyMemoryLease {
public:
    BodyMemoryLease(BodyMemory* memory, std::size_t requestLimit)
        : m_memory(memory), m_requestLimit(requestLimit) {}
    ~BodyMemoryLease();
    BodyMemoryLease(const BodyMemoryLease&) = delete;
    BodyMemoryLease& operator=(const BodyMemoryLease&) = delete;

    // False when the request's own cap or the listener's would be passed (nothing taken).
    bool take(std::size_t bytes);
    // Gives back what a part moved to disk held.
    void giveBack(std::size_t bytes);
    std::size_t held() const { return m_held; }

private:
    BodyMemory* m_memory;
    std::size_t m_requestLimit;
    std::size_t m_held = 0;
};

} // namespace proofdesk::http
