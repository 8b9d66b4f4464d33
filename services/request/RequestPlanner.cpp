#include "RequestInternal.h"

#include <set>

namespace proofdesk::request::detail {
namespace {

using nlohmann::json;

std::vector<PlannedAction> plan(const std::string& chainId, const json& selectors,
                                const json& headerFields, const std::set<std::string>& hashing,
                                const json& accounts, const json& facts,
                                const std::string& destination, const std::string& destinationKey) {
    std::vector<PlannedAction> actions;
    std::vector<int> all;
    auto add = [&](std::string name, json inputs, std::vector<int> dependsOn) {
        actions.push_back({std::move(name), std::move(inputs), std::move(dependsOn)});
        all.push_back(int(actions.size()) - 1);
        return int(actions.size()) - 1;
    };
    if (!selectors.empty()) {
        const int resolve =
            add(kResolveBlocks, {{"chain_id", chainId}, {"selectors", selectors}}, {});
        const int headers =
            add(kProveHeaders, {{"chain_id", chainId}, {"header_fields", headerFields}}, {resolve});
        for (const std::string& function : hashing) {
            add(kAccumulateMmr, {{"chain_id", chainId}, {"hashing_function", function}}, {headers});
        }
        for (const auto& [address, items] : accounts.items()) {
            add(kProveAccount, {{"chain_id", chainId}, {"account", address}, {"items", items}},
                {headers});
        }
    }
    if (!facts.empty()) {
        add(kCheckFacts, {{"fact_hashes", facts}}, {});
    }
    add(kDeliver, {{"origin_chain_id", chainId}, {destinationKey, destination}}, all);
    return actions;
}

} // namespace

std::vector<PlannedAction> planChainQuery(const ChainRequest& chainRequest,
                                          const std::string& destinationChainId) {
    json selectors = json::array();
    json headerFields = json::object();
    std::set<std::string> hashing;
    json accounts = json::object();
    for (const ProvingRequest& proving : chainRequest.provings) {
        selectors.push_back(proving.selector.text);
        if (!proving.header.empty()) {
            headerFields[proving.selector.text] = proving.header;
        }
        hashing.insert(proving.hashingFunctions.begin(), proving.hashingFunctions.end());
        for (const AccountRequest& account : proving.accounts) {
            if (!accounts.contains(account.address)) {
                accounts[account.address] = json::array();
            }
            accounts[account.address].push_back({{"selector", proving.selector.text},
                                                 {"props", account.props},
                                                 {"slots", account.storageSlots}});
        }
    }
    json facts = json::array();
    for (const FactHashRequest& fact : chainRequest.factHashes) {
        facts.push_back({{"fact_hash", fact.factHash}, {"is_mocked", fact.isMocked}});
    }
    return plan(chainRequest.chainId, selectors, headerFields, hashing, accounts, facts,
                destinationChainId, "destination_chain_id");
}

std::vector<PlannedAction> planGrowBatch(const std::string& chainId,
                                         const std::string& settleChainId,
                                         const std::vector<std::string>& hashingFunctions,
                                         std::int64_t from, std::int64_t to) {
    const std::string selector = "block_ranges:" + std::to_string(from) + "-" + std::to_string(to);
    return plan(chainId, json::array({selector}), json::object(),
                std::set<std::string>(hashingFunctions.begin(), hashingFunctions.end()),
                json::object(), json::array(), settleChainId, "settle_chain_id");
}

} // namespace proofdesk::request::detail
