// check_facts: each named fact must be in the proof service's fact registry (the real one, or the
// mocked one for a fact marked is_mocked).
#include "ActionWork.h"

#include "chain/ChainError.h"

namespace proofdesk::request {

using nlohmann::json;

ActionOutcome perform(const ActionRun& run, const CheckFactsInputs& inputs) {
    json facts = json::array();
    for (const api::FactHashRequest& fact : inputs.facts) {
        const std::optional<std::string> entry =
            run.facts ? run.facts(fact.factHash, fact.isMocked) : std::nullopt;
        if (!entry) {
            throw chain::ChainError("fact " + fact.factHash + " is not in the " +
                                    (fact.isMocked ? "mocked" : "real") +
                                    " fact registry: prove it first (proof service), or set "
                                    "is_mocked to match how it was registered");
        }
        facts.push_back({{"fact_hash", fact.factHash},
                         {"is_mocked", fact.isMocked},
                         {"registry_entry", *entry}});
    }
    ActionOutcome outcome;
    outcome.results = {{"facts", facts}};
    return outcome;
}

} // namespace proofdesk::request
