#pragma once

#include "api/RequestWire.h"
#include "core/Store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::request {

// GET /proven-values' filters.
struct ProvenValueFilter {
    std::string destinationChainId;
    std::optional<std::string> originChainId;
    std::optional<std::int64_t> blockNumber;
    std::optional<std::string> queryId;
    int limit = 50;
    int offset = 0;
};

// One MMR's state, as GET /mmrs answers it.
struct MmrStateView {
    std::string chainId;
    std::string hashingFunction;
    std::uint64_t leaves = 0;
    std::uint64_t size = 0;
    std::string root;
    std::vector<std::string> peaks;
    std::string updatedAt;
};

// The reads of what the actions proved and delivered: proven values and the MMRs' states.
class ProvenData {
public:
    explicit ProvenData(core::Store& store) : m_store(store) {}

    std::pair<std::vector<api::ProvenValue>, int> values(const ProvenValueFilter& filter);
    std::vector<MmrStateView> mmrStates(const std::optional<std::string>& chainId);

private:
    core::Store& m_store;
};

} // namespace proofdesk::request
