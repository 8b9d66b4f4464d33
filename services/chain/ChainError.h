#pragma once

#include <stdexcept>
#include <string>

namespace proofdesk::chain {

// Something about chain data that does not hold: malformed RLP, a header whose hash does not
// match, a proof that does not lead to the root, an RPC answer that cannot be used. `transient`
// marks failures that may pass when tried again (a node that is down or overloaded).
class ChainError : public std::runtime_error {
public:
    explicit ChainError(const std::string& reason, bool transient = false)
        : std::runtime_error(reason), m_transient(transient) {}
    bool transient() const { return m_transient; }

private:
    bool m_transient;
};

} // namespace proofdesk::chain
