// deliver: what the query's other actions proved (header fields, account fields and storage
// slots, the MMR roots) written as proven values for the destination chain, with the query's
// completion.
#include "ActionWork.h"

#include "core/QtText.h"

#include <memory>

namespace proofdesk::request {

using nlohmann::json;

ActionOutcome perform(const ActionRun& run, const DeliverInputs& inputs) {
    auto values = std::make_shared<std::vector<api::ProvenValue>>();
    const std::string now = core::toIsoTimestamp(run.clock.now()).toStdString();
    const ValueSink add = [&](std::int64_t block, const std::string& kind,
                              std::optional<std::string> account, const std::string& field,
                              const std::string& value) {
        values->push_back({inputs.destinationChainId, inputs.originChainId, block, kind,
                           std::move(account), field, value, run.query.id, now});
    };
    for (int dependency : run.action.dependsOn) {
        const json& done = run.actions.at(std::size_t(dependency)).method;
        const json& results = done.at("results");
        switch (kindOfMethod(done)) {
        case ActionKind::ProveHeaders:
            provenHeaderValues(results, add);
            break;
        case ActionKind::ProveAccount:
            provenAccountValues(results, add);
            break;
        case ActionKind::AccumulateMmr:
            provenMmrValue(results, add);
            break;
        case ActionKind::ResolveBlocks:
        case ActionKind::CheckFacts:
        case ActionKind::Deliver:
            break; // nothing to deliver
        }
    }
    ActionOutcome outcome;
    outcome.results = {{"destination_chain_id", inputs.destinationChainId},
                       {"values_written", values->size()}};
    ChainDataStore& chainData = run.chainData;
    outcome.commit = [&chainData, values](json&) { chainData.insertProvenValuesIn(*values); };
    return outcome;
}

} // namespace proofdesk::request
