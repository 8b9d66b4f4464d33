#pragma once

// Shared by the request service's translation units (intake, planner, actions, grow orders); not
// part of its interface.

#include "RequestQueries.h"
#include "actions/ActionMethods.h"
#include "api/RequestBodies.h"
#include "core/QtText.h"

#include <QString>
#include <QVariant>

#include <string>

namespace proofdesk::request::detail {

using proofdesk::core::qstr;
using proofdesk::core::str;

// The actions of one data-request query (one origin chain) or one grow-order batch.
std::vector<PlannedAction> planChainQuery(const api::ChainRequest& chainRequest,
                                          const std::string& destinationChainId);
std::vector<PlannedAction> planGrowBatch(const std::string& chainId,
                                         const std::string& settleChainId,
                                         const std::vector<std::string>& hashingFunctions,
                                         std::int64_t from, std::int64_t to);

} // namespace proofdesk::request::detail
