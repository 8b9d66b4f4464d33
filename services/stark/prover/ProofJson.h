#pragma once

#include "StarkProver.h"

#include <nlohmann/json.hpp>

namespace proofdesk::stark {

// Stone's default prover_config (its knobs tune Stone's memory use; ours ignores them and keeps
// whatever a user passes, so the proof records it).
nlohmann::json defaultProverConfig();

// A proof file as Stone's cpu_air_prover writes it: proof_hex, proof_parameters, prover_config,
// public_input, private_input, and annotations when the result has them.
nlohmann::ordered_json stoneProofJson(const ProverResult& result, const ProofParameters& parameters,
                                      const nlohmann::json& proverConfig, const CairoRun& run);

} // namespace proofdesk::stark
