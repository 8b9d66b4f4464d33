#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::stark {

// proof_parameters of a Stone proof (cpu_air_params.json), with Stone's defaults for what is
// absent.
struct ProofParameters {
    std::string channelHash = "keccak256";
    std::string commitmentHash = "keccak256_masked160_msb";
    std::string verifierFriendlyCommitmentHash; // defaults to commitmentHash
    std::uint64_t verifierFriendlyLayers = 0;
    bool verifierFriendlyChannelUpdates = false;
    std::string powHash; // defaults: blake256 (poseidon3 channel), else the channel's
    std::string pageHash = "keccak256"; // statement.page_hash
    int logCosets = 0;
    std::vector<int> friSteps;
    std::uint64_t lastLayerDegreeBound = 0;
    std::uint64_t queries = 0;
    int proofOfWorkBits = 0;

    // The hash the public input's seed is taken with.
    const std::string& seedHash() const {
        return verifierFriendlyChannelUpdates ? verifierFriendlyCommitmentHash : channelHash;
    }
};

// Reads proof_parameters; throws Rejection (Stage::Parameters) naming an unknown hash, a missing
// or absurd number.
ProofParameters parseProofParameters(const nlohmann::json& json);

// The parameters as proof_parameters (every field written, in Stone's names).
nlohmann::ordered_json proofParametersJson(const ProofParameters& parameters);

// The security of a proof with these parameters in bits, as Integrity counts it:
// n_queries · log2(2^log_n_cosets) + proof_of_work_bits.
int securityBits(const ProofParameters& parameters);

} // namespace proofdesk::stark
