#pragma once

#include "api/RequestWire.h"

#include <QString>
#include <QStringList>

#include <map>
#include <mutex>
#include <optional>

namespace proofdesk::chain {

// How a chain's state can be proven here (api/RequestWire's one definition).
using ChainKind = api::ChainKind;

// The spec's ChainId values, in its order.
const QStringList& knownChainIds();
std::optional<ChainKind> chainKind(const QString& chainId);
// Whether data can be requested from (accumulated on) this chain here.
bool canBeOrigin(const QString& chainId);

// Chain id -> JSON-RPC URL, from settings and --chain-rpc (docs/architecture.md). Jobs read it
// on worker threads while the console's Settings may replace every URL of a running server, so
// each access holds its lock; a copy takes the URLs of that moment.
class ChainRegistry {
public:
    ChainRegistry() = default;
    ChainRegistry(const ChainRegistry& other) : m_urls(other.all()) {}
    ChainRegistry& operator=(const ChainRegistry& other);

    void setRpcUrl(const QString& chainId, const QString& url);
    // Every URL at once (the console's Settings, applied to a running server).
    void replaceAll(std::map<QString, QString> urls);
    std::optional<QString> rpcUrl(const QString& chainId) const;
    std::map<QString, QString> all() const;

    // "11155111=http://127.0.0.1:8545"; false with a reason for anything else.
    bool addAssignment(const QString& assignment, QString* error);

private:
    mutable std::mutex m_mutex;
    std::map<QString, QString> m_urls;
};

} // namespace proofdesk::chain
