#include "BodyMemory.h"

#include <algorithm>

namespace proofdesk::http {

bool BodyMemory::acquire(std::size_t bytes) {
    std::size_t used = m_used.load();
    do {
        if (used + bytes > m_limit) {
            return false;
        }
    } while (!m_used.compare_exchange_weak(used, used + bytes));
    return true;
}

BodyMemoryLease::~BodyMemoryLease() {
    if (m_memory && m_held > 0) {
        m_memory->release(m_held);
    }
}

bool BodyMemoryLease::take(std::size_t bytes) {
    if (m_held + bytes > m_requestLimit || (m_memory && !m_memory->acquire(bytes))) {
        return false;
    }
    m_held += bytes;
    return true;
}

void BodyMemoryLease::giveBack(std::size_t bytes) {
    bytes = std::min(bytes, m_held);
    m_held -= bytes;
    if (m_memory) {
        m_memory->release(bytes);
    }
}

} // namespace proofdesk::http
