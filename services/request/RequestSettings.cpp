#include "RequestSettings.h"

#include "chain/ChainError.h"
#include "core/QtText.h"

namespace proofdesk::request {

std::unique_ptr<chain::JsonRpcClient>
rpcFor(const RequestSettings& settings, const std::string& chainId, core::JobContext* context) {
    const auto url = settings.chains.rpcUrl(core::qstr(chainId));
    if (!url) {
        throw chain::ChainError(
            "no JSON-RPC URL is set for chain " + chainId + ": " +
            core::howToSet(settings.settingsSurface, core::Setting::ChainRpc, chainId) +
            ", then submit again");
    }
    auto client = std::make_unique<chain::JsonRpcClient>(*url, settings.rpc);
    if (context) {
        client->setCancelled([context] { return context->stopRequested(); });
    }
    return client;
}

} // namespace proofdesk::request
