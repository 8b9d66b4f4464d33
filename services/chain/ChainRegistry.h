#pragma once

#include <QString>
#include <QStringList>

#include <map>
#include <optional>

namespace proofdesk::chain {

// How a chain's state can be proven here.
enum class ChainKind {
    EvmMpt,   // Ethereum L1 and the EVM L2s: keccak(rlp(header)) block hashes, MPT state
    ApeChain, // EVM with 8-field accounts (ApeFlags .. ApeDelegate)
    Starknet, // not an EVM chain: a destination only
    ZkSync,   // no MPT state (sparse Merkle tree per L1 batch): a destination only
};

// The spec's ChainId values, in its order.
const QStringList& knownChainIds();
std::optional<ChainKind> chainKind(const QString& chainId);
// Whether data can be requested from (accumulated on) this chain here.
bool canBeOrigin(const QString& chainId);

// Chain id -> JSON-RPC URL, from settings and --chain-rpc (docs/architecture.md).
class ChainRegistry {
public:
    void setRpcUrl(const QString& chainId, const QString& url) { m_urls[chainId] = url; }
    std::optional<QString> rpcUrl(const QString& chainId) const;
    const std::map<QString, QString>& all() const { return m_urls; }

    // "11155111=http://127.0.0.1:8545"; false with a reason for anything else.
    bool addAssignment(const QString& assignment, QString* error);

private:
    std::map<QString, QString> m_urls;
};

} // namespace proofdesk::chain
