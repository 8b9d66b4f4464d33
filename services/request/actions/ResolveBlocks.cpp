// resolve_blocks: the blocks each selector names, read from the origin chain (a timestamp is the
// newest block at or before it; ranges must not reach beyond the head).
#include "ActionWork.h"

#include "chain/ChainError.h"
#include "chain/Rlp.h"

namespace proofdesk::request {

using chain::ChainError;
using nlohmann::json;

std::int64_t BlockTimestamps::timeOf(chain::JsonRpcClient& rpc, const std::string& chainId,
                                     std::int64_t number) {
    {
        std::lock_guard lock(m_mutex);
        const auto& known = m_times[chainId];
        if (auto it = known.find(number); it != known.end()) {
            return it->second;
        }
    }
    const json block = rpc.call("eth_getBlockByNumber", {hexNumber(number), false});
    if (block.is_null()) {
        throw ChainError("chain " + chainId + " has no block " + std::to_string(number));
    }
    const auto time =
        std::int64_t(chain::parseQuantity(block.value("timestamp", json()), "timestamp"));
    std::lock_guard lock(m_mutex);
    m_times[chainId][number] = time;
    return time;
}

std::int64_t BlockTimestamps::timestampOf(const std::string& chainId, std::int64_t number) {
    std::lock_guard lock(m_mutex);
    return m_times[chainId].at(number);
}

std::int64_t BlockTimestamps::blockAt(chain::JsonRpcClient& rpc, const std::string& chainId,
                                      std::int64_t timestamp, std::int64_t head) {
    const std::int64_t headTime = timeOf(rpc, chainId, head);
    if (timestamp > headTime) {
        throw ChainError("timestamp " + std::to_string(timestamp) +
                         " is later than the newest block of chain " + chainId + " (block " +
                         std::to_string(head) + " at " + std::to_string(headTime) +
                         "): the block in force then is not known yet");
    }
    if (timeOf(rpc, chainId, 0) > timestamp) {
        throw ChainError("timestamp " + std::to_string(timestamp) +
                         " is before the first block of chain " + chainId);
    }
    // The newest block whose timestamp is at or before `timestamp`.
    std::int64_t low = 0;
    std::int64_t high = head;
    while (low < high) {
        const std::int64_t middle = low + (high - low + 1) / 2;
        if (timeOf(rpc, chainId, middle) <= timestamp) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    return low;
}

ActionOutcome perform(const ActionRun& run, const ResolveBlocksInputs& inputs) {
    const std::string& chainId = inputs.chainId;
    auto rpc = rpcFor(run.settings, chainId, &run.context);
    const auto head = std::int64_t(
        chain::parseQuantity(rpc->call("eth_blockNumber", json::array()), "eth_blockNumber"));
    ResolvedBlocks resolved;
    json timestamps = json::object();
    for (const api::BlockSelector& selector : inputs.selectors) {
        Ranges ranges;
        if (selector.kind == api::BlockSelector::Kind::Timestamp) {
            const std::int64_t number = run.timestamps.blockAt(*rpc, chainId, selector.value, head);
            ranges = {{number, number}};
            timestamps[selector.text] = {
                {"block", number},
                {"block_timestamp", run.timestamps.timestampOf(chainId, number)}};
        } else if (selector.kind == api::BlockSelector::Kind::Block) {
            ranges = {{selector.value, selector.value}};
        } else {
            ranges = selector.ranges;
        }
        for (const auto& range : ranges) {
            if (range.second > head) {
                throw ChainError("block " + std::to_string(range.second) +
                                 " is beyond the head of chain " + chainId + " (block " +
                                 std::to_string(head) + ")");
            }
        }
        resolved.bySelector[selector.text] = std::move(ranges);
    }
    ActionOutcome outcome;
    outcome.results = {{"head", head}, {"blocks", resolved.toJson()}, {"timestamps", timestamps}};
    return outcome;
}

} // namespace proofdesk::request
