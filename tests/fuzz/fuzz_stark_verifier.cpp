// libFuzzer target: our STARK verifier (proofdesk verify, the proof service's PROOF_VERIFICATION).
// The first byte picks what the rest is: a whole proof JSON text, the proof_hex bytes of a
// small plain-layout statement under the felt channel or the keccak channel, so that mutations
// reach the transcript, commitment and FRI readers, or the dynamic_params of a `dynamic`
// statement (changes to a plain starting set, then proof_hex), so that they reach the parametric
// layout and the AIR built from it. Any input must end in a verdict, never a crash, a hang or
// unbounded memory.

#include "stark/air/Layout.h"
#include "stark/verifier/ProofVerifier.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

std::string hexOf(const std::uint8_t* data, std::size_t size) {
    static const char* digits = "0123456789abcdef";
    std::string hex = "0x";
    for (std::size_t i = 0; i < size; ++i) {
        hex.push_back(digits[data[i] >> 4]);
        hex.push_back(digits[data[i] & 15]);
    }
    return hex;
}

nlohmann::json smallProof(bool feltChannel, const std::uint8_t* data, std::size_t size) {
    const std::string hex = hexOf(data, size);
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

// A `dynamic` statement: the first byte says how many changes follow, each three bytes (which
// parameter, in two bytes, and its value: itself below 200, else a power of two up to 2^55)
// applied to a set that uses no builtin; the rest is proof_hex.
nlohmann::json dynamicProof(const std::uint8_t* data, std::size_t size) {
    static const std::vector<std::string> names =
        proofdesk::stark::air::layoutParameterNames("dynamic");
    nlohmann::json params = nlohmann::json::object();
    for (const std::string& name : names) {
        params[name] = 0;
    }
    params["num_columns_first"] = 4;
    params["num_columns_second"] = 2;
    params["cpu_component_step"] = 1;
    params["memory_units_row_ratio"] = 2;
    params["range_check_units_row_ratio"] = 1;
    params["diluted_units_row_ratio"] = 1;
    std::size_t at = 0;
    const std::size_t changes = size > 0 ? data[at++] % 32 : 0;
    for (std::size_t i = 0; i < changes && at + 3 <= size && !names.empty(); ++i, at += 3) {
        const std::string& name = names[(data[at] | (data[at + 1] << 8)) % names.size()];
        const std::uint8_t v = data[at + 2];
        params[name] = v < 200 ? std::uint64_t(v) : std::uint64_t(1) << (v - 200);
    }
    nlohmann::json proof = smallProof(true, data + at, size - at);
    nlohmann::json& input = proof["public_input"];
    input["layout"] = "dynamic";
    input["dynamic_params"] = params;
    for (const char* segment : {"output", "pedersen", "range_check", "ecdsa", "bitwise", "ec_op",
                                "keccak", "poseidon", "range_check96", "add_mod", "mul_mod"}) {
        input["memory_segments"][segment] = {{"begin_addr", 20}, {"stop_ptr", 20}};
    }
    return proof;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    switch (data[0] % 4) {
    case 0:
        (void)proofdesk::stark::verifyStoneProofText(
            std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
        break;
    case 3:
        (void)proofdesk::stark::verifyStoneProof(dynamicProof(data + 1, size - 1));
        break;
    default:
        (void)proofdesk::stark::verifyStoneProof(smallProof(data[0] % 4 == 1, data + 1, size - 1));
        break;
    }
    return 0;
}
