#pragma once

#include "chain/ChainRegistry.h"
#include "chain/JsonRpcClient.h"
#include "core/JobEngine.h"
#include "core/SettingNames.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace proofdesk::request {

// Looks a fact hash (0x + 64 hex) up in the proof service's fact registry; the registry entry's
// id when it is there.
using FactLookup =
    std::function<std::optional<std::string>(const std::string& factHash, bool mocked)>;

struct RequestSettings {
    chain::ChainRegistry chains;
    chain::RpcSettings rpc;
    int growPollMs = 2000;             // how often grow orders look at the chain head
    std::int64_t maxBatchSize = 10000; // blocks per grow-order batch query
    // Blocks (headers) or proofs fetched, checked and let go at a time: bounds an action's memory.
    std::size_t chunkSize = 250;
    // How failure reasons name these settings (the flags of `proofdesk serve`, or the console's
    // Settings fields).
    core::SettingsSurface settingsSurface = core::SettingsSurface::CommandLine;
};

// A JSON-RPC client of a chain's configured URL, stopped when `context` (if any) is; throws
// chain::ChainError saying how to configure a chain that has none.
std::unique_ptr<chain::JsonRpcClient> rpcFor(const RequestSettings& settings,
                                             const std::string& chainId, core::JobContext* context);

} // namespace proofdesk::request
