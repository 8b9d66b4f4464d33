#pragma once

// The typed methods of request actions (docs/api.md, "Queries and actions"): each kind's inputs
// as a struct, and the one JSON form they are stored and answered in (an action's `method`:
// {name, inputs, results, error}). The planner writes them, the executor reads them once per run.

#include "api/RequestBodies.h"

#include "chain/Mmr.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace proofdesk::request {

// Inclusive block ranges, ascending.
using Ranges = std::vector<std::pair<std::int64_t, std::int64_t>>;

// resolve_blocks: the blocks each selector names on the origin chain.
struct ResolveBlocksInputs {
    std::string chainId;
    std::vector<api::BlockSelector> selectors;
};

// prove_headers: every resolved block's header, checked; the header fields each selector asks
// for (selector text -> canonical BlockHeaderField values).
struct ProveHeadersInputs {
    std::string chainId;
    std::map<std::string, std::vector<std::string>> headerFields;
};

// accumulate_mmr: the proven headers appended to the chain's MMR of one hashing function.
struct AccumulateMmrInputs {
    std::string chainId;
    chain::HashingFunction function = chain::HashingFunction::Keccak;
};

// One selector's part of prove_account: the account fields and storage slots it asks for.
struct AccountItem {
    std::string selector;
    std::vector<std::string> props;
    std::vector<std::string> storageSlots;
};

// prove_account: one account's fields and slots at the blocks of its selectors.
struct ProveAccountInputs {
    std::string chainId;
    std::string account;
    std::vector<AccountItem> items;
};

// check_facts: facts the proof service's registry must hold.
struct CheckFactsInputs {
    std::vector<api::FactHashRequest> facts;
};

// deliver: what the query's other actions proved, written as proven values for the destination
// (a data request's destination_chain_id, or a grow order's settle_chain_id).
struct DeliverInputs {
    std::string originChainId;
    std::string destinationChainId;
    bool growOrder = false; // the destination is named settle_chain_id
};

// An action's inputs; the alternative is its kind (ActionKind's order).
using ActionInputs = std::variant<ResolveBlocksInputs, ProveHeadersInputs, AccumulateMmrInputs,
                                  ProveAccountInputs, CheckFactsInputs, DeliverInputs>;

enum class ActionKind {
    ResolveBlocks,
    ProveHeaders,
    AccumulateMmr,
    ProveAccount,
    CheckFacts,
    Deliver
};

ActionKind kindOf(const ActionInputs& inputs);
// The method's `name` (resolve_blocks, prove_headers, ...).
const std::string& actionName(ActionKind kind);
std::optional<ActionKind> actionKindNamed(const std::string& name);
// The kind of a stored method object; throws std::invalid_argument for a name this server does
// not have.
ActionKind kindOfMethod(const nlohmann::json& method);

// A planned action before it is stored.
struct PlannedAction {
    ActionInputs inputs;
    std::vector<int> dependsOn;
};

// The method object a planned action is stored with: {name, inputs, results: null, error: null}.
nlohmann::json plannedMethod(const ActionInputs& inputs);
// The typed inputs of a stored method object; throws std::invalid_argument (naming the method)
// when the object is not one this server wrote.
ActionInputs inputsOfMethod(const nlohmann::json& method);

// What resolve_blocks found (its results' `blocks`): each selector's blocks.
struct ResolvedBlocks {
    std::map<std::string, Ranges> bySelector;

    // The blocks of one selector; throws std::out_of_range for a selector it did not resolve.
    const Ranges& of(const std::string& selector) const;
    // Every selector's blocks, merged.
    Ranges all() const;

    nlohmann::json toJson() const;
    static ResolvedBlocks fromResults(const nlohmann::json& results);
};

// Ranges as JSON: [[first, last], ...].
nlohmann::json rangesJson(const Ranges& ranges);
// The block numbers of ranges, in order.
std::vector<std::int64_t> numbersOf(const Ranges& ranges);

} // namespace proofdesk::request
