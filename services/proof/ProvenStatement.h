#pragma once

#include "crypto/Felt.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::proof {

// What a proof states, read by the server itself from the proof file's public input, never from
// a child's account of it. A verified proof's facts are computed from this alone
// (docs/security.md).
struct ProvenStatement {
    std::string layout;
    std::uint64_t nSteps = 0;
    std::string memoryVerification; // how its public memory was read
    // cairo-lang's compute_program_hash_chain when the public memory shows the builtins the
    // program declares, else the Cairo verifier's hash of the program's words.
    crypto::Felt programHash;
    bool programHashIsChain = false;
    std::vector<crypto::Felt> output; // the program's output, as the statement reads it
    std::string sharpFactHash;        // keccak256(programHash ‖ keccak256(output))
    crypto::Felt integrityFactHash;   // Integrity's fact of this proof verified directly
};

// Reads the proof at `proofPath` (bounded, depth-limited JSON) and its statement under
// `memoryVerification` (strict, relaxed, cairo1; absent: the first that holds), or, for a
// bootloader's proof, as stark::readBootloaderStatement reads it (the output is then the
// bootloader's whole output, continuous pages included). Throws StageFailure (permanent) naming
// what does not read.
ProvenStatement readProvenStatement(const std::string& proofPath,
                                    const std::optional<std::string>& memoryVerification,
                                    bool bootloader = false);

} // namespace proofdesk::proof
