// prove_account: one account's fields and storage slots at each block of its selectors, from
// eth_getProof, each checked against the verified header's state root (the account's Merkle-
// Patricia proof) and the account's storage root (each slot's proof).
#include "ActionWork.h"

#include "chain/BlockHeader.h"
#include "chain/ChainError.h"
#include "chain/ChainRegistry.h"
#include "chain/MerkleProof.h"
#include "chain/Rlp.h"
#include "core/QtText.h"
#include "crypto/Hex.h"

#include <algorithm>

namespace proofdesk::request {

using chain::ChainError;
using nlohmann::json;

namespace {

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

// One block's proof of one selector's item.
struct ProofRequest {
    const AccountItem* item;
    std::int64_t block;
};

} // namespace

ActionOutcome perform(const ActionRun& run, const ProveAccountInputs& inputs) {
    const std::string& chainId = inputs.chainId;
    const std::string& address = inputs.account;
    const bool apeChain = chain::chainKind(core::qstr(chainId)) == chain::ChainKind::ApeChain;
    const ResolvedBlocks resolved = run.resolvedBlocks();
    auto rpc = rpcFor(run.settings, chainId, &run.context);
    std::vector<ProofRequest> requests;
    std::vector<chain::RpcCall> calls;
    for (const AccountItem& item : inputs.items) {
        for (std::int64_t number : numbersOf(resolved.of(item.selector))) {
            requests.push_back({&item, number});
            calls.push_back({"eth_getProof", {address, item.storageSlots, hexNumber(number)}});
        }
    }
    const QByteArray addressBytes = *crypto::fromHex(QString::fromStdString(address));
    json values = json::array();
    // In chunks, so the proofs of a long range are never all in memory at once.
    const std::size_t chunk = std::max<std::size_t>(1, run.settings.chunkSize);
    std::vector<json> proofs;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        if (i % chunk == 0) {
            const std::size_t end = std::min(requests.size(), i + chunk);
            proofs = rpc->batch(
                std::vector<chain::RpcCall>(calls.begin() + long(i), calls.begin() + long(end)));
        }
        const AccountItem& item = *requests[i].item;
        const std::int64_t block = requests[i].block;
        const json& proof = proofs[i % chunk];
        if (!proof.is_object()) {
            throw ChainError("eth_getProof for " + address + " at block " + std::to_string(block) +
                             " returned no proof");
        }
        const chain::BlockHeader header = run.chainData.verifiedHeader(chainId, block);
        const chain::AccountState state = chain::verifyAccountProof(
            header.stateRoot(), addressBytes,
            proofNodes(proof.value("accountProof", json()), "accountProof"), apeChain);
        json entry{{"block", block},
                   {"selector", item.selector},
                   {"block_hash", hex0x(header.hash)},
                   {"state_root", hex0x(header.stateRoot())},
                   {"account_exists", state.exists},
                   {"storage_hash", hex0x(state.storageRoot)},
                   {"account_proof_nodes", proof.value("accountProof", json::array()).size()}};
        json props = json::object();
        for (const std::string& prop : item.props) {
            props[prop] = accountFieldValue(state, prop);
        }
        json slotValues = json::object();
        const json storageProofs = proof.value("storageProof", json::array());
        for (const std::string& slot : item.storageSlots) {
            const QByteArray slotBytes = *crypto::fromHex(QString::fromStdString(slot));
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
                                 std::to_string(block) + " has no proof of slot " + slot);
            }
            const QByteArray value = chain::verifyStorageProof(
                state.storageRoot, slotBytes,
                proofNodes(match->value("proof", json()), "storageProof"));
            slotValues[slot] = chain::quantityHex(value).toStdString();
        }
        entry["props"] = props;
        entry["slots"] = slotValues;
        values.push_back(entry);
    }
    ActionOutcome outcome;
    outcome.results = {{"account", address}, {"values", values}};
    return outcome;
}

void provenAccountValues(const json& results, const ValueSink& add) {
    const std::string account = results.at("account");
    for (const json& entry : results.at("values")) {
        const std::int64_t block = entry.at("block");
        for (const auto& [field, value] : entry.at("props").items()) {
            add(block, "account", account, field, value);
        }
        for (const auto& [slot, value] : entry.at("slots").items()) {
            add(block, "storage", account, slot, value);
        }
    }
}

} // namespace proofdesk::request
