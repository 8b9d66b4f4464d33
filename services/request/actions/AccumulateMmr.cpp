// accumulate_mmr: the proven headers appended to the chain's MMR of one hashing function, newest
// first (trust flows from the newest verified hash down the parent links); a block already in the
// MMR is not appended twice.
#include "ActionWork.h"

#include "core/QtText.h"

#include <algorithm>
#include <memory>

namespace proofdesk::request {

using nlohmann::json;

ActionOutcome perform(const ActionRun& run, const AccumulateMmrInputs& inputs) {
    const std::string chainId = inputs.chainId;
    const chain::HashingFunction function = inputs.function;
    // Leaves are computed here, outside the write lock; appended in commit.
    auto leaves = std::make_shared<std::vector<std::pair<std::int64_t, chain::MmrHash>>>();
    for (const auto& [start, end] : run.resolvedBlocks().all()) {
        run.chainData.forEachVerifiedHeader(
            chainId, start, end,
            [&](std::int64_t number, const QByteArray& hash, const QByteArray& rlp) {
                leaves->emplace_back(number, chain::Mmr::blockLeaf(function, rlp, hash));
            });
    }
    std::reverse(leaves->begin(), leaves->end());
    ActionOutcome outcome;
    ChainDataStore& chainData = run.chainData;
    const core::Clock& clock = run.clock;
    outcome.commit = [&chainData, &clock, leaves, chainId, function](json& results) {
        chain::Mmr mmr = chainData.mmrIn(chainId, function);
        const std::set<std::int64_t> known =
            leaves->empty() ? std::set<std::int64_t>()
                            : chainData.accumulatedBlocksIn(chainId, function, leaves->back().first,
                                                            leaves->front().first);
        std::int64_t appended = 0;
        for (const auto& [number, leaf] : *leaves) {
            if (known.count(number)) {
                continue;
            }
            chainData.recordLeafIn(chainId, function, number, mmr.append(leaf), leaf);
            ++appended;
        }
        chainData.saveMmrIn(chainId, mmr, core::toIsoTimestamp(clock.now()));
        results = {{"hashing_function", core::str(chain::hashingFunctionName(function))},
                   {"appended", appended},
                   {"already_accumulated", std::int64_t(leaves->size()) - appended},
                   {"mmr_leaves", mmr.leaves()},
                   {"mmr_size", mmr.size()},
                   {"mmr_root", chain::toHex(mmr.root()).toStdString()},
                   {"newest_block", leaves->empty() ? json(nullptr) : json(leaves->front().first)}};
    };
    return outcome;
}

void provenMmrValue(const json& results, const ValueSink& add) {
    if (!results.at("newest_block").is_null()) {
        add(results.at("newest_block"), "mmr", std::nullopt, results.at("hashing_function"),
            results.at("mmr_root"));
    }
}

} // namespace proofdesk::request
