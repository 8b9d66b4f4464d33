// The actions that read the origin chain: resolve_blocks, prove_headers and prove_account. Each
// checks what the RPC answers against hashes it already trusts (a header's hash, a state root).
#include "ActionExecutor.h"

#include "RequestInternal.h"
#include "chain/BlockHeader.h"
#include "chain/ChainError.h"
#include "chain/MerkleProof.h"
#include "chain/Mmr.h"
#include "chain/Rlp.h"
#include "crypto/Hex.h"

#include <QSqlQuery>

#include <algorithm>
#include <map>
#include <set>

namespace proofdesk::request {

using namespace detail;
using chain::ChainError;
using nlohmann::json;

namespace {

std::string hexNumber(std::int64_t number) {
    return chain::quantityHex(chain::minimalBigEndian(std::uint64_t(number))).toStdString();
}

std::string hex0x(const QByteArray& bytes) {
    return crypto::toHex0x(bytes).toStdString();
}

Ranges rangesFrom(const json& value) {
    Ranges out;
    for (const json& range : value) {
        out.emplace_back(range[0].get<std::int64_t>(), range[1].get<std::int64_t>());
    }
    return out;
}

json rangesJson(const Ranges& ranges) {
    json out = json::array();
    for (const auto& [start, end] : ranges) {
        out.push_back({start, end});
    }
    return out;
}

std::vector<std::int64_t> numbersOf(const Ranges& ranges) {
    std::vector<std::int64_t> out;
    for (const auto& [start, end] : ranges) {
        for (std::int64_t n = start; n <= end; ++n) {
            out.push_back(n);
        }
    }
    return out;
}

// A verified header from the store (prove_headers wrote it).
chain::BlockHeader storedHeader(core::Store& store, const std::string& chainId,
                                std::int64_t number) {
    QSqlQuery row = store.exec(QStringLiteral("SELECT rlp FROM verified_headers WHERE chain_id "
                                              "= ? AND number = ?"),
                               {core::qstr(chainId), qlonglong(number)});
    if (!row.next()) {
        throw ChainError("block " + std::to_string(number) + " of chain " + chainId +
                         " has no verified header");
    }
    return chain::headerFromRlp(row.value(0).toByteArray());
}

std::string accountFieldValue(const chain::AccountState& state, const std::string& field) {
    auto quantity = [](const QByteArray& bytes) { return chain::quantityHex(bytes).toStdString(); };
    if (field == "Nonce") {
        return quantity(state.nonce);
    }
    if (field == "Balance") {
        return quantity(state.balance);
    }
    if (field == "StorageRoot") {
        return hex0x(state.storageRoot);
    }
    if (field == "CodeHash") {
        return hex0x(state.codeHash);
    }
    if (field == "ApeFlags") {
        return quantity(state.apeFlags);
    }
    if (field == "ApeFixed") {
        return quantity(state.apeFixed);
    }
    if (field == "ApeShares") {
        return quantity(state.apeShares);
    }
    if (field == "ApeDebt") {
        return quantity(state.apeDebt);
    }
    return hex0x(state.apeDelegate);
}

std::vector<QByteArray> proofNodes(const json& list, const std::string& what) {
    if (!list.is_array()) {
        throw ChainError("eth_getProof: " + what + " is not an array");
    }
    std::vector<QByteArray> nodes;
    for (const json& node : list) {
        auto bytes = node.is_string()
                         ? crypto::fromHex(QString::fromStdString(node.get<std::string>()))
                         : std::nullopt;
        if (!bytes) {
            throw ChainError("eth_getProof: " + what + " holds something other than hex");
        }
        nodes.push_back(*bytes);
    }
    return nodes;
}

} // namespace

// The resolved blocks of every selector (the resolve_blocks action's results).
namespace detail {

const json& resolvedBlocks(const json& resolveMethod) {
    return resolveMethod.at("results").at("blocks");
}

Ranges allBlocks(const json& resolveMethod) {
    Ranges ranges;
    for (const auto& [selector, list] : resolvedBlocks(resolveMethod).items()) {
        const Ranges part = rangesFrom(list);
        ranges.insert(ranges.end(), part.begin(), part.end());
    }
    return mergeRanges(ranges);
}

} // namespace detail

std::int64_t ActionExecutor::resolveTimestamp(chain::JsonRpcClient& rpc, const std::string& chainId,
                                              std::int64_t timestamp, std::int64_t head) {
    auto timeOf = [&](std::int64_t number) {
        {
            std::lock_guard lock(m_timestampMutex);
            const auto& known = m_timestamps[chainId];
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
        std::lock_guard lock(m_timestampMutex);
        m_timestamps[chainId][number] = time;
        return time;
    };
    const std::int64_t headTime = timeOf(head);
    if (timestamp > headTime) {
        throw ChainError("timestamp " + std::to_string(timestamp) +
                         " is later than the newest block of chain " + chainId + " (block " +
                         std::to_string(head) + " at " + std::to_string(headTime) +
                         "): the block in force then is not known yet");
    }
    if (timeOf(0) > timestamp) {
        throw ChainError("timestamp " + std::to_string(timestamp) +
                         " is before the first block of chain " + chainId);
    }
    // The newest block whose timestamp is at or before `timestamp`.
    std::int64_t low = 0;
    std::int64_t high = head;
    while (low < high) {
        const std::int64_t middle = low + (high - low + 1) / 2;
        if (timeOf(middle) <= timestamp) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    return low;
}

// Each action's work. `actions` are the query's actions as stored when this one started (those it
// depends on have completed, so their results are there).
ActionExecutor::Outcome ActionExecutor::resolveBlocks(const StoredQuery& /*query*/,
                                                      const StoredAction& action,
                                                      const Actions& /*actions*/,
                                                      core::JobContext& context) {
    const json& inputs = action.method.at("inputs");
    Outcome outcome;
    const std::string chainId = inputs.at("chain_id");
    auto rpc = rpcFor(m_settings, chainId, &context);
    const auto head = std::int64_t(
        chain::parseQuantity(rpc->call("eth_blockNumber", json::array()), "eth_blockNumber"));
    json blocks = json::object();
    json timestamps = json::object();
    for (const json& text : inputs.at("selectors")) {
        const BlockSelector selector = parseBlockSelector(text.get<std::string>());
        Ranges ranges;
        if (selector.kind == BlockSelector::Kind::Timestamp) {
            const std::int64_t number = resolveTimestamp(*rpc, chainId, selector.value, head);
            ranges = {{number, number}};
            std::lock_guard lock(m_timestampMutex);
            timestamps[selector.text] = {{"block", number},
                                         {"block_timestamp", m_timestamps[chainId][number]}};
        } else if (selector.kind == BlockSelector::Kind::Block) {
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
        blocks[selector.text] = rangesJson(ranges);
    }
    outcome.results = {{"head", head}, {"blocks", blocks}, {"timestamps", timestamps}};
    return outcome;
}

ActionExecutor::Outcome ActionExecutor::proveHeaders(const StoredQuery& /*query*/,
                                                     const StoredAction& action,
                                                     const Actions& actions,
                                                     core::JobContext& context) {
    const json& inputs = action.method.at("inputs");
    Outcome outcome;
    const std::string chainId = inputs.at("chain_id");
    const json& resolve = actions.at(std::size_t(action.dependsOn.at(0))).method;
    const Ranges ranges = allBlocks(resolve);
    const std::vector<std::int64_t> numbers = numbersOf(ranges);
    // The blocks whose fields the request names, and which fields.
    std::map<std::int64_t, std::vector<std::string>> wanted;
    for (const auto& [selector, fields] : inputs.at("header_fields").items()) {
        for (const std::int64_t number : numbersOf(rangesFrom(resolvedBlocks(resolve)[selector]))) {
            auto& list = wanted[number];
            for (const json& field : fields) {
                if (std::find(list.begin(), list.end(), field.get<std::string>()) == list.end()) {
                    list.push_back(field.get<std::string>());
                }
            }
        }
    }
    auto rpc = rpcFor(m_settings, chainId, &context);
    json perBlock = json::object();
    QByteArray previousHash;
    std::int64_t previousNumber = -1;
    // In chunks, so a 100,000-block request holds one chunk of JSON at a time: each chunk is
    // fetched in one batch, checked, and its verified headers stored (a cache of verified
    // facts, so storing them before the action completes is harmless).
    const std::size_t chunk = std::max<std::size_t>(1, m_settings.chunkSize);
    for (std::size_t first = 0; first < numbers.size(); first += chunk) {
        if (context.stopRequested()) {
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
        m_store.write([&](QSqlDatabase&) {
            for (const chain::BlockHeader& header : headers) {
                m_store.exec(
                    QStringLiteral("INSERT INTO verified_headers (chain_id, number, hash, "
                                   "rlp) VALUES (?, ?, ?, ?) ON CONFLICT (chain_id, number) DO "
                                   "UPDATE SET hash = excluded.hash, rlp = excluded.rlp"),
                    {core::qstr(chainId), qulonglong(header.number), header.hash, header.rlp});
            }
        });
    }
    outcome.results = {{"verified_blocks", numbers.size()},
                       {"ranges", rangesJson(ranges)},
                       {"newest_block_hash", hex0x(previousHash)},
                       {"headers", perBlock}};
    return outcome;
}

ActionExecutor::Outcome ActionExecutor::proveAccount(const StoredQuery& /*query*/,
                                                     const StoredAction& action,
                                                     const Actions& actions,
                                                     core::JobContext& context) {
    const json& inputs = action.method.at("inputs");
    Outcome outcome;
    const std::string chainId = inputs.at("chain_id");
    const std::string address = inputs.at("account");
    const bool apeChain = chain::chainKind(core::qstr(chainId)) == chain::ChainKind::ApeChain;
    const json& resolve = actions.at(0).method;
    auto rpc = rpcFor(m_settings, chainId, &context);
    struct Item {
        std::string selector;
        std::int64_t block;
        json props;
        json slotKeys;
    };
    std::vector<Item> items;
    std::vector<chain::RpcCall> calls;
    for (const json& item : inputs.at("items")) {
        const std::string selector = item.at("selector");
        for (std::int64_t number : numbersOf(rangesFrom(resolvedBlocks(resolve)[selector]))) {
            items.push_back({selector, number, item.at("props"), item.at("slots")});
            calls.push_back({"eth_getProof", {address, item.at("slots"), hexNumber(number)}});
        }
    }
    const QByteArray addressBytes = *crypto::fromHex(QString::fromStdString(address));
    json values = json::array();
    // In chunks, so the proofs of a long range are never all in memory at once.
    const std::size_t chunk = std::max<std::size_t>(1, m_settings.chunkSize);
    std::vector<json> proofs;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i % chunk == 0) {
            const std::size_t end = std::min(items.size(), i + chunk);
            proofs = rpc->batch(
                std::vector<chain::RpcCall>(calls.begin() + long(i), calls.begin() + long(end)));
        }
        const Item& item = items[i];
        const json& proof = proofs[i % chunk];
        if (!proof.is_object()) {
            throw ChainError("eth_getProof for " + address + " at block " +
                             std::to_string(item.block) + " returned no proof");
        }
        const chain::BlockHeader header = storedHeader(m_store, chainId, item.block);
        const chain::AccountState state = chain::verifyAccountProof(
            header.stateRoot(), addressBytes,
            proofNodes(proof.value("accountProof", json()), "accountProof"), apeChain);
        json entry{{"block", item.block},
                   {"selector", item.selector},
                   {"block_hash", hex0x(header.hash)},
                   {"state_root", hex0x(header.stateRoot())},
                   {"account_exists", state.exists},
                   {"storage_hash", hex0x(state.storageRoot)},
                   {"account_proof_nodes", proof.value("accountProof", json::array()).size()}};
        json props = json::object();
        for (const json& prop : item.props) {
            props[prop.get<std::string>()] = accountFieldValue(state, prop);
        }
        json slotValues = json::object();
        const json storageProofs = proof.value("storageProof", json::array());
        for (const json& slot : item.slotKeys) {
            const QByteArray slotBytes =
                *crypto::fromHex(QString::fromStdString(slot.get<std::string>()));
            const json* match = nullptr;
            for (const json& candidate : storageProofs) {
                const auto key =
                    crypto::fromHex(QString::fromStdString(candidate.value("key", std::string())));
                if (key && chain::stripLeadingZeros(*key) == chain::stripLeadingZeros(slotBytes)) {
                    match = &candidate;
                    break;
                }
            }
            if (!match) {
                throw ChainError("eth_getProof for " + address + " at block " +
                                 std::to_string(item.block) + " has no proof of slot " +
                                 slot.get<std::string>());
            }
            const QByteArray value = chain::verifyStorageProof(
                state.storageRoot, slotBytes,
                proofNodes(match->value("proof", json()), "storageProof"));
            slotValues[slot.get<std::string>()] = chain::quantityHex(value).toStdString();
        }
        entry["props"] = props;
        entry["slots"] = slotValues;
        values.push_back(entry);
    }
    outcome.results = {{"account", address}, {"values", values}};
    return outcome;
}

} // namespace proofdesk::request
