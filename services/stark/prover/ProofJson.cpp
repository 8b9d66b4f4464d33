#include "ProofJson.h"

namespace proofdesk::stark {

nlohmann::json defaultProverConfig() {
    return {{"cached_lde_config", {{"store_full_lde", false}, {"use_fft_for_eval", false}}},
            {"constraint_polynomial_task_size", 256},
            {"n_out_of_memory_merkle_layers", 0},
            {"table_prover_n_tasks_per_segment", 32}};
}

nlohmann::ordered_json stoneProofJson(const ProverResult& result, const ProofParameters& parameters,
                                      const nlohmann::json& proverConfig, const CairoRun& run) {
    static const char* digits = "0123456789abcdef";
    std::string hex = "0x";
    hex.reserve(2 + 2 * result.proof.size());
    for (const std::uint8_t byte : result.proof) {
        hex += digits[byte >> 4];
        hex += digits[byte & 15];
    }
    nlohmann::ordered_json out;
    if (!result.annotations.empty()) {
        out["annotations"] = result.annotations;
    }
    out["private_input"] = run.privateInput;
    out["proof_hex"] = std::move(hex);
    out["proof_parameters"] = proofParametersJson(parameters);
    out["prover_config"] = proverConfig;
    out["public_input"] = run.publicInputJson;
    return out;
}

} // namespace proofdesk::stark
