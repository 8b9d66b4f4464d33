// libFuzzer target: our STARK verifier (proofdesk verify, the proof service's PROOF_VERIFICATION).
// The first byte picks what the rest is: a whole proof JSON text, or the proof_hex bytes of a
// small plain-layout statement under the felt channel or the keccak channel, so that mutations
// reach the transcript, commitment and FRI readers. Any input must end in a verdict, never a
// crash, a hang or unbounded memory.

#include "stark/verifier/ProofVerifier.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

nlohmann::json smallProof(bool feltChannel, const std::uint8_t* data, std::size_t size) {
    static const char* digits = "0123456789abcdef";
    std::string hex = "0x";
    for (std::size_t i = 0; i < size; ++i) {
        hex.push_back(digits[data[i] >> 4]);
        hex.push_back(digits[data[i] & 15]);
    }
    nlohmann::json parameters = {{"stark",
                                  {{"log_n_cosets", 1},
                                   {"fri",
                                    {{"fri_step_list", {0, 3, 2}},
                                     {"last_layer_degree_bound", 8},
                                     {"n_queries", 2},
                                     {"proof_of_work_bits", 0}}}}}};
    if (feltChannel) {
        parameters["channel_hash"] = "poseidon3";
        parameters["commitment_hash"] = "keccak256_masked160_lsb";
        parameters["verifier_friendly_commitment_hash"] = "poseidon3";
        parameters["n_verifier_friendly_commitment_layers"] = 3;
        parameters["verifier_friendly_channel_updates"] = true;
    }
    return {{"proof_hex", hex},
            {"proof_parameters", parameters},
            {"public_input",
             {{"layout", "plain"},
              {"n_steps", 16},
              {"rc_min", 32760},
              {"rc_max", 32769},
              {"memory_segments",
               {{"program", {{"begin_addr", 1}, {"stop_ptr", 5}}},
                {"execution", {{"begin_addr", 8}, {"stop_ptr", 12}}}}},
              {"public_memory",
               {{{"address", 1}, {"value", "0x40780017fff7fff"}, {"page", 0}},
                {{"address", 2}, {"value", "0x0"}, {"page", 0}}}}}}};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    switch (data[0] % 3) {
    case 0:
        (void)proofdesk::stark::verifyStoneProofText(
            std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
        break;
    default:
        (void)proofdesk::stark::verifyStoneProof(smallProof(data[0] % 3 == 1, data + 1, size - 1));
        break;
    }
    return 0;
}
