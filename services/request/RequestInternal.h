#pragma once

// Shared by the request service's translation units; not part of its interface.

#include "RequestService.h"
#include "core/QtText.h"

#include <QString>
#include <QVariant>

#include <string>

namespace proofdesk::request {

struct RequestService::QueryRow {
    std::string id;
    std::optional<std::string> requestId;
    std::optional<std::string> growOrderId;
    std::string status;
    nlohmann::json typ;
    std::optional<qint64> deadlineMs;
};

struct RequestService::ActionRow {
    int index = 0;
    std::string status;
    std::vector<int> dependsOn;
    std::vector<int> canTrigger;
    nlohmann::json method;
    std::optional<std::string> trackingId;
};

// What an action produced: its results, and what must be written with its completion (inside
// the completing transaction, so a crash keeps both or neither).
struct RequestService::Outcome {
    nlohmann::json results = nlohmann::json::object();
    std::function<void(nlohmann::json& results)> commit;
};

} // namespace proofdesk::request

namespace proofdesk::request::detail {

inline const QString kActionJob = QStringLiteral("request.action");

using proofdesk::qstr;
using proofdesk::str;

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

// A planned action before it is stored.
struct PlannedAction {
    std::string name;
    nlohmann::json inputs;
    std::vector<int> dependsOn;
};

// The actions of one data-request query (one origin chain) or one grow-order batch.
std::vector<PlannedAction> planChainQuery(const ChainRequest& chainRequest,
                                          const std::string& destinationChainId);
std::vector<PlannedAction> planGrowBatch(const std::string& chainId,
                                         const std::string& settleChainId,
                                         const std::vector<std::string>& hashingFunctions,
                                         std::int64_t from, std::int64_t to);

} // namespace proofdesk::request::detail
