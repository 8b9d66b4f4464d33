#pragma once

#include "api/RequestWire.h"
#include "chain/BlockHeader.h"
#include "chain/Mmr.h"
#include "core/Store.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
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

// What the request service has proven about chains: the one unit that holds the SQL of
// `verified_headers` (headers whose hash was checked), `mmr_state` and `mmr_blocks` (the MMR
// accumulators and the blocks in them) and `proven_values` (what was delivered). The writes
// named …In run inside the caller's Store::write.
class ChainDataStore {
public:
    explicit ChainDataStore(core::Store& store) : m_store(store) {}

    // Verified headers: a cache of checked facts, so they are stored as they are checked (in one
    // write per call), before the action that checked them completes.
    void storeVerifiedHeaders(const std::string& chainId,
                              const std::vector<chain::BlockHeader>& headers);
    // Throws chain::ChainError when the block's header was not verified.
    chain::BlockHeader verifiedHeader(const std::string& chainId, std::int64_t number);
    // The verified headers of blocks first..last, ascending: (number, hash, rlp).
    void forEachVerifiedHeader(
        const std::string& chainId, std::int64_t first, std::int64_t last,
        const std::function<void(std::int64_t, const QByteArray&, const QByteArray&)>& visit);

    // The chain's MMR of one hashing function as stored (a new one, with its genesis leaf, when
    // there is none).
    chain::Mmr mmrIn(const std::string& chainId, chain::HashingFunction function);
    // The blocks among first..last already in that MMR.
    std::set<std::int64_t> accumulatedBlocksIn(const std::string& chainId,
                                               chain::HashingFunction function, std::int64_t first,
                                               std::int64_t last);
    void recordLeafIn(const std::string& chainId, chain::HashingFunction function,
                      std::int64_t blockNumber, std::uint64_t element, const chain::MmrHash& leaf);
    void saveMmrIn(const std::string& chainId, const chain::Mmr& mmr, const QString& updatedAt);
    // The newest block in any MMR of the chain.
    std::optional<std::int64_t> newestAccumulatedBlock(const std::string& chainId);
    std::vector<MmrStateView> mmrStates(const std::optional<std::string>& chainId);

    void insertProvenValuesIn(const std::vector<api::ProvenValue>& values);
    // A page of proven values, newest first, and how many match in all.
    std::pair<std::vector<api::ProvenValue>, int> values(const ProvenValueFilter& filter);

private:
    core::Store& m_store;
};

} // namespace proofdesk::request
