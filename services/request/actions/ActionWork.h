#pragma once

// What each kind of request action does, one file per kind (actions/<Kind>.cpp), reached through
// one overload set: `perform(run, inputs)` for each alternative of ActionInputs, so an action
// kind without its work does not compile. Each fetches chain data over JSON-RPC and checks it
// against hashes it already trusts.

#include "ActionMethods.h"
#include "request/ChainDataStore.h"
#include "request/RequestQueries.h"
#include "request/RequestSettings.h"

#include "api/RequestWire.h"
#include "chain/JsonRpcClient.h"
#include "core/Clock.h"
#include "core/JobEngine.h"

#include <nlohmann/json.hpp>

#include <QByteArray>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::request {

// Block timestamps already read, per chain (resolving a timestamp selector reads a few dozen).
class BlockTimestamps {
public:
    // The newest block of `chainId` at or before `timestamp` (`head` is the chain's newest
    // block); throws chain::ChainError when the chain has no such block yet.
    std::int64_t blockAt(chain::JsonRpcClient& rpc, const std::string& chainId,
                         std::int64_t timestamp, std::int64_t head);
    std::int64_t timestampOf(const std::string& chainId, std::int64_t number);

private:
    std::int64_t timeOf(chain::JsonRpcClient& rpc, const std::string& chainId, std::int64_t number);

    std::mutex m_mutex;
    std::map<std::string, std::map<std::int64_t, std::int64_t>> m_times; // chain -> n -> t
};

// One run of one action: the action, its query's actions as stored when it started (those it
// depends on have completed, so their results are there) and what its work may use.
struct ActionRun {
    const StoredQuery& query;
    const StoredAction& action;
    const std::vector<StoredAction>& actions;
    core::JobContext& context;
    const RequestSettings& settings;
    const core::Clock& clock;
    ChainDataStore& chainData;
    const FactLookup& facts;
    BlockTimestamps& timestamps;

    // What the query's resolve_blocks found.
    ResolvedBlocks resolvedBlocks() const;
};

// What an action produced: its results, and what must be written with its completion (inside the
// completing transaction, so a crash keeps both or neither).
struct ActionOutcome {
    nlohmann::json results = nlohmann::json::object();
    std::function<void(nlohmann::json& results)> commit;
};

ActionOutcome perform(const ActionRun& run, const ResolveBlocksInputs& inputs);
ActionOutcome perform(const ActionRun& run, const ProveHeadersInputs& inputs);
ActionOutcome perform(const ActionRun& run, const AccumulateMmrInputs& inputs);
ActionOutcome perform(const ActionRun& run, const ProveAccountInputs& inputs);
ActionOutcome perform(const ActionRun& run, const CheckFactsInputs& inputs);
ActionOutcome perform(const ActionRun& run, const DeliverInputs& inputs);

// What a completed action proved, as values to deliver, read from its results by its kind's file
// (deliver writes them).
using ValueSink = std::function<void(std::int64_t block, const std::string& kind,
                                     std::optional<std::string> account, const std::string& name,
                                     const std::string& value)>;
void provenHeaderValues(const nlohmann::json& results, const ValueSink& add);
void provenAccountValues(const nlohmann::json& results, const ValueSink& add);
void provenMmrValue(const nlohmann::json& results, const ValueSink& add);

// Hex forms shared by the chain-reading actions.
std::string hexNumber(std::int64_t number);
std::string hex0x(const QByteArray& bytes);

} // namespace proofdesk::request
