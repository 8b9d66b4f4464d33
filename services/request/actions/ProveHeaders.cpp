// prove_headers: every resolved block's header from the origin chain, each checked (its hash is
// keccak of its RLP, consecutive blocks link by parentHash) and stored as verified; the header
// fields the request asks for.
#include "ActionWork.h"

#include "chain/BlockHeader.h"
#include "chain/ChainError.h"

#include <algorithm>

namespace proofdesk::request {

using chain::ChainError;
using nlohmann::json;

ActionOutcome perform(const ActionRun& run, const ProveHeadersInputs& inputs) {
    const std::string& chainId = inputs.chainId;
    const ResolvedBlocks resolved = run.resolvedBlocks();
    const Ranges ranges = resolved.all();
    const std::vector<std::int64_t> numbers = numbersOf(ranges);
    // The blocks whose fields the request names, and which fields.
    std::map<std::int64_t, std::vector<std::string>> wanted;
    for (const auto& [selector, fields] : inputs.headerFields) {
        for (const std::int64_t number : numbersOf(resolved.of(selector))) {
            auto& list = wanted[number];
            for (const std::string& field : fields) {
                if (std::find(list.begin(), list.end(), field) == list.end()) {
                    list.push_back(field);
                }
            }
        }
    }
    auto rpc = rpcFor(run.settings, chainId, &run.context);
    json perBlock = json::object();
    QByteArray previousHash;
    std::int64_t previousNumber = -1;
    // In chunks, so a 100,000-block request holds one chunk of JSON at a time: each chunk is
    // fetched in one batch, checked, and its verified headers stored (a cache of verified facts,
    // so storing them before the action completes is harmless).
    const std::size_t chunk = std::max<std::size_t>(1, run.settings.chunkSize);
    for (std::size_t first = 0; first < numbers.size(); first += chunk) {
        if (run.context.stopRequested()) {
            throw ChainError("the server is stopping", true);
        }
        const std::size_t end = std::min(numbers.size(), first + chunk);
        std::vector<chain::RpcCall> calls;
        calls.reserve(end - first);
        for (std::size_t i = first; i < end; ++i) {
            calls.push_back({"eth_getBlockByNumber", {hexNumber(numbers[i]), false}});
        }
        const std::vector<json> blocks = rpc->batch(calls);
        std::vector<chain::BlockHeader> headers;
        headers.reserve(blocks.size());
        for (std::size_t i = first; i < end; ++i) {
            const json& block = blocks[i - first];
            if (block.is_null()) {
                throw ChainError("chain " + chainId + " has no block " +
                                 std::to_string(numbers[i]));
            }
            chain::BlockHeader header = chain::headerFromRpc(block);
            if (std::int64_t(header.number) != numbers[i]) {
                throw ChainError("the RPC answered block " + std::to_string(numbers[i]) +
                                 " with block " + std::to_string(header.number));
            }
            if (!header.hashMatches()) {
                throw ChainError("block " + std::to_string(numbers[i]) + " of chain " + chainId +
                                 ": keccak(rlp(header)) is " + hex0x(header.hash) +
                                 " but the RPC gives its hash as " + hex0x(header.claimedHash) +
                                 "; the header is not trusted");
            }
            if (numbers[i] == previousNumber + 1 && header.parentHash() != previousHash) {
                throw ChainError("block " + std::to_string(numbers[i]) +
                                 "'s parentHash does not link to block " +
                                 std::to_string(previousNumber) +
                                 "'s hash (a reorganisation during the request?)");
            }
            previousHash = header.hash;
            previousNumber = numbers[i];
            if (const auto it = wanted.find(numbers[i]); it != wanted.end()) {
                json& entry = perBlock[std::to_string(numbers[i])];
                entry["block_hash"] = hex0x(header.hash);
                for (const std::string& field : it->second) {
                    entry["fields"][field] =
                        chain::headerFieldValue(header, QString::fromStdString(field))
                            .value_or(QString())
                            .toStdString();
                }
            }
            headers.push_back(std::move(header));
        }
        run.chainData.storeVerifiedHeaders(chainId, headers);
    }
    ActionOutcome outcome;
    outcome.results = {{"verified_blocks", numbers.size()},
                       {"ranges", rangesJson(ranges)},
                       {"newest_block_hash", hex0x(previousHash)},
                       {"headers", perBlock}};
    return outcome;
}

void provenHeaderValues(const json& results, const ValueSink& add) {
    for (const auto& [block, entry] : results.at("headers").items()) {
        const json fields = entry.value("fields", json::object());
        for (const auto& [field, value] : fields.items()) {
            add(std::stoll(block), "header", std::nullopt, field, value);
        }
    }
}

} // namespace proofdesk::request
