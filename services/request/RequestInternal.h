#pragma once

// Shared by the request service's translation units (intake, planner, actions, grow orders); not
// part of its interface.

#include "RequestQueries.h"
#include "UserRequest.h"
#include "core/QtText.h"

#include <QString>
#include <QVariant>

#include <string>

namespace proofdesk::request::detail {

using proofdesk::core::qstr;
using proofdesk::core::str;

// Action method names (the `name` of an action's method object; docs/api.md).
inline const std::string kResolveBlocks = "resolve_blocks";
inline const std::string kProveHeaders = "prove_headers";
inline const std::string kAccumulateMmr = "accumulate_mmr";
inline const std::string kProveAccount = "prove_account";
inline const std::string kCheckFacts = "check_facts";
inline const std::string kDeliver = "deliver";

// Inclusive block ranges, ascending.
using Ranges = std::vector<std::pair<std::int64_t, std::int64_t>>;

// What resolve_blocks found, read from its stored method object: the blocks of every selector,
// and all of them merged (ChainActions.cpp).
const nlohmann::json& resolvedBlocks(const nlohmann::json& resolveMethod);
Ranges allBlocks(const nlohmann::json& resolveMethod);

// The actions of one data-request query (one origin chain) or one grow-order batch.
std::vector<PlannedAction> planChainQuery(const ChainRequest& chainRequest,
                                          const std::string& destinationChainId);
std::vector<PlannedAction> planGrowBatch(const std::string& chainId,
                                         const std::string& settleChainId,
                                         const std::vector<std::string>& hashingFunctions,
                                         std::int64_t from, std::int64_t to);

} // namespace proofdesk::request::detail
