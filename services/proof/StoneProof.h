#pragma once

#include "crypto/Felt.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace proofdesk::proof {

using crypto::Felt;

class StoneProofError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What a Stone proof (cpu_air_prover's proof.json) states, read from its public input: the
// program (public memory from initial_pc up to initial_fp - 2) and its output (the output segment),
// with the facts a verifier of that statement registers.
struct StoneProofStatement {
    std::string layout;
    std::uint64_t nSteps = 0;
    std::vector<Felt> programWords;
    std::vector<Felt> output;

    // Cairo verifier / swiftness style program hash: pedersen(fold(pedersen, 0, words), len).
    Felt programHash() const;
    // keccak256(programHash ‖ keccak256(output)) as 0x + 64 hex digits.
    std::string sharpFactHash() const;
    // Integrity's fact for a Cairo 0 "strict" statement:
    // poseidon_hash_many([poseidon_hash_many(program words), poseidon_hash_many(output)]).
    Felt integrityFactHash() const;
};

// Parses and checks a Stone proof JSON; throws StoneProofError naming what is wrong.
StoneProofStatement parseStoneProof(const std::string& text);
StoneProofStatement parseStoneProof(const nlohmann::json& proof);

} // namespace proofdesk::proof
