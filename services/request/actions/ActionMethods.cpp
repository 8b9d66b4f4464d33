#include "ActionMethods.h"

#include "core/QtText.h"

#include <array>
#include <stdexcept>

namespace proofdesk::request {

using nlohmann::json;

namespace {

const std::array<std::string, std::variant_size_v<ActionInputs>> kNames{
    "resolve_blocks", "prove_headers", "accumulate_mmr", "prove_account", "check_facts", "deliver"};

json inputsJson(const ResolveBlocksInputs& inputs) {
    json selectors = json::array();
    for (const api::BlockSelector& selector : inputs.selectors) {
        selectors.push_back(selector.text);
    }
    return {{"chain_id", inputs.chainId}, {"selectors", selectors}};
}

json inputsJson(const ProveHeadersInputs& inputs) {
    return {{"chain_id", inputs.chainId}, {"header_fields", inputs.headerFields}};
}

json inputsJson(const AccumulateMmrInputs& inputs) {
    return {{"chain_id", inputs.chainId},
            {"hashing_function", core::str(chain::hashingFunctionName(inputs.function))}};
}

json inputsJson(const ProveAccountInputs& inputs) {
    json items = json::array();
    for (const AccountItem& item : inputs.items) {
        items.push_back(
            {{"selector", item.selector}, {"props", item.props}, {"slots", item.storageSlots}});
    }
    return {{"chain_id", inputs.chainId}, {"account", inputs.account}, {"items", items}};
}

json inputsJson(const CheckFactsInputs& inputs) {
    json facts = json::array();
    for (const api::FactHashRequest& fact : inputs.facts) {
        facts.push_back({{"fact_hash", fact.factHash}, {"is_mocked", fact.isMocked}});
    }
    return {{"fact_hashes", facts}};
}

json inputsJson(const DeliverInputs& inputs) {
    return {
        {"origin_chain_id", inputs.originChainId},
        {inputs.growOrder ? "settle_chain_id" : "destination_chain_id", inputs.destinationChainId}};
}

ActionInputs inputsFromJson(ActionKind kind, const json& in) {
    switch (kind) {
    case ActionKind::ResolveBlocks: {
        ResolveBlocksInputs inputs{in.at("chain_id").get<std::string>(), {}};
        for (const json& text : in.at("selectors")) {
            inputs.selectors.push_back(api::parseBlockSelector(text.get<std::string>()));
        }
        return inputs;
    }
    case ActionKind::ProveHeaders:
        return ProveHeadersInputs{
            in.at("chain_id").get<std::string>(),
            in.at("header_fields").get<std::map<std::string, std::vector<std::string>>>()};
    case ActionKind::AccumulateMmr: {
        const auto function =
            chain::parseHashingFunction(core::qstr(in.at("hashing_function").get<std::string>()));
        if (!function) {
            throw std::invalid_argument("accumulate_mmr names an unknown hashing function");
        }
        return AccumulateMmrInputs{in.at("chain_id").get<std::string>(), *function};
    }
    case ActionKind::ProveAccount: {
        ProveAccountInputs inputs{
            in.at("chain_id").get<std::string>(), in.at("account").get<std::string>(), {}};
        for (const json& item : in.at("items")) {
            inputs.items.push_back({item.at("selector").get<std::string>(),
                                    item.at("props").get<std::vector<std::string>>(),
                                    item.at("slots").get<std::vector<std::string>>()});
        }
        return inputs;
    }
    case ActionKind::CheckFacts: {
        CheckFactsInputs inputs;
        for (const json& fact : in.at("fact_hashes")) {
            inputs.facts.push_back(
                {fact.at("fact_hash").get<std::string>(), fact.at("is_mocked").get<bool>()});
        }
        return inputs;
    }
    case ActionKind::Deliver: {
        const bool growOrder = !in.contains("destination_chain_id");
        return DeliverInputs{
            in.at("origin_chain_id").get<std::string>(),
            in.at(growOrder ? "settle_chain_id" : "destination_chain_id").get<std::string>(),
            growOrder};
    }
    }
    throw std::invalid_argument("unknown action kind");
}

Ranges rangesFrom(const json& value) {
    Ranges out;
    for (const json& range : value) {
        out.emplace_back(range.at(0).get<std::int64_t>(), range.at(1).get<std::int64_t>());
    }
    return out;
}

} // namespace

ActionKind kindOf(const ActionInputs& inputs) {
    return ActionKind(inputs.index());
}

const std::string& actionName(ActionKind kind) {
    return kNames.at(std::size_t(kind));
}

std::optional<ActionKind> actionKindNamed(const std::string& name) {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name) {
            return ActionKind(i);
        }
    }
    return std::nullopt;
}

json plannedMethod(const ActionInputs& inputs) {
    return {{"name", actionName(kindOf(inputs))},
            {"inputs", std::visit([](const auto& typed) { return inputsJson(typed); }, inputs)},
            {"results", nullptr},
            {"error", nullptr}};
}

ActionKind kindOfMethod(const json& method) {
    const std::string name = method.value("name", std::string());
    const std::optional<ActionKind> kind = actionKindNamed(name);
    if (!kind) {
        throw std::invalid_argument("unknown action method " + name);
    }
    return *kind;
}

ActionInputs inputsOfMethod(const json& method) {
    const ActionKind kind = kindOfMethod(method);
    const std::string& name = actionName(kind);
    try {
        return inputsFromJson(kind, method.at("inputs"));
    } catch (const json::exception& malformed) {
        throw std::invalid_argument("the stored inputs of " + name + " are malformed (" +
                                    malformed.what() + ")");
    }
}

const Ranges& ResolvedBlocks::of(const std::string& selector) const {
    const auto found = bySelector.find(selector);
    if (found == bySelector.end()) {
        throw std::out_of_range("resolve_blocks did not resolve selector " + selector);
    }
    return found->second;
}

Ranges ResolvedBlocks::all() const {
    Ranges ranges;
    for (const auto& [selector, part] : bySelector) {
        ranges.insert(ranges.end(), part.begin(), part.end());
    }
    return api::mergeRanges(ranges);
}

json ResolvedBlocks::toJson() const {
    json out = json::object();
    for (const auto& [selector, ranges] : bySelector) {
        out[selector] = rangesJson(ranges);
    }
    return out;
}

ResolvedBlocks ResolvedBlocks::fromResults(const json& results) {
    ResolvedBlocks resolved;
    for (const auto& [selector, list] : results.at("blocks").items()) {
        resolved.bySelector[selector] = rangesFrom(list);
    }
    return resolved;
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

} // namespace proofdesk::request
