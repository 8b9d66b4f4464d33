#pragma once

#include "core/Clock.h"
#include "core/Store.h"

#include <optional>
#include <string>

namespace proofdesk::proof {

// A local fact registry entry (docs/architecture.md): one namespace per chain for real facts, one
// for mocked.
struct FactEntry {
    std::string id; // the transactionId of the query that registered it
    std::string chain;
    std::string factHash;
    bool mocked = false;
    std::optional<std::string> queryId;
    std::optional<std::string> programHash;
    std::string createdAt;
};

// The local fact registry (table fact_registry, one of the proof service's migrations): the
// proof service registers the fact of a verified proof (real) or of a mocked one; GET /facts
// and the request service's check_facts read it.
class FactRegistry {
public:
    FactRegistry(core::Store& store, const core::Clock& clock);

    // Inside one of the store's write transactions: registers `factHash` in the namespace of
    // `chain` (real or mocked) unless it is there; returns the entry's id either way.
    std::string registerIn(const std::string& chain, const std::string& factHash, bool mocked,
                           const std::string& queryId, const std::string& programHash);
    // The entry of `factHash` (any 0x spelling of a 32-byte value) in one namespace.
    std::optional<FactEntry> find(const std::string& chain, const std::string& factHash,
                                  bool mocked);
    // The first entry of `factHash` in any chain's namespace (the request service's check_facts).
    std::optional<FactEntry> findOnAnyChain(const std::string& factHash, bool mocked);

private:
    core::Store& m_store;
    const core::Clock& m_clock;
};

} // namespace proofdesk::proof
