#include "RequestInternal.h"

#include <map>
#include <set>

namespace proofdesk::request::detail {
namespace {

// What one query asks of its origin chain.
struct ChainWork {
    std::string chainId;
    std::vector<api::BlockSelector> selectors;
    std::map<std::string, std::vector<std::string>> headerFields;
    std::set<chain::HashingFunction> hashing;
    std::map<std::string, std::vector<AccountItem>> accounts; // by address
    std::vector<api::FactHashRequest> facts;
};

std::vector<PlannedAction> plan(ChainWork work, DeliverInputs delivery) {
    std::vector<PlannedAction> actions;
    std::vector<int> all;
    auto add = [&](ActionInputs inputs, std::vector<int> dependsOn) {
        actions.push_back({std::move(inputs), std::move(dependsOn)});
        all.push_back(int(actions.size()) - 1);
        return int(actions.size()) - 1;
    };
    if (!work.selectors.empty()) {
        const int resolve = add(ResolveBlocksInputs{work.chainId, std::move(work.selectors)}, {});
        const int headers =
            add(ProveHeadersInputs{work.chainId, std::move(work.headerFields)}, {resolve});
        for (const chain::HashingFunction function : work.hashing) {
            add(AccumulateMmrInputs{work.chainId, function}, {headers});
        }
        for (auto& [address, items] : work.accounts) {
            add(ProveAccountInputs{work.chainId, address, std::move(items)}, {headers});
        }
    }
    if (!work.facts.empty()) {
        add(CheckFactsInputs{std::move(work.facts)}, {});
    }
    add(std::move(delivery), all);
    return actions;
}

std::set<chain::HashingFunction> hashingFunctions(const std::vector<std::string>& names) {
    std::set<chain::HashingFunction> functions;
    for (const std::string& name : names) {
        // Names were checked where the request or the order was read.
        if (const auto function = chain::parseHashingFunction(core::qstr(name))) {
            functions.insert(*function);
        }
    }
    return functions;
}

} // namespace

std::vector<PlannedAction> planChainQuery(const api::ChainRequest& chainRequest,
                                          const std::string& destinationChainId) {
    ChainWork work;
    work.chainId = chainRequest.chainId;
    for (const api::ProvingRequest& proving : chainRequest.provings) {
        work.selectors.push_back(proving.selector);
        if (!proving.header.empty()) {
            work.headerFields[proving.selector.text] = proving.header;
        }
        work.hashing.merge(hashingFunctions(proving.hashingFunctions));
        for (const api::AccountRequest& account : proving.accounts) {
            work.accounts[account.address].push_back(
                {proving.selector.text, account.props, account.storageSlots});
        }
    }
    work.facts = chainRequest.factHashes;
    return plan(std::move(work), {chainRequest.chainId, destinationChainId, false});
}

std::vector<PlannedAction> planGrowBatch(const std::string& chainId,
                                         const std::string& settleChainId,
                                         const std::vector<std::string>& hashingFunctionNames,
                                         std::int64_t from, std::int64_t to) {
    ChainWork work;
    work.chainId = chainId;
    api::BlockSelector batch;
    batch.kind = api::BlockSelector::Kind::Ranges;
    batch.text = "block_ranges:" + std::to_string(from) + "-" + std::to_string(to);
    batch.ranges = {{from, to}};
    work.selectors.push_back(std::move(batch));
    work.hashing = hashingFunctions(hashingFunctionNames);
    return plan(std::move(work), {chainId, settleChainId, true});
}

} // namespace proofdesk::request::detail
