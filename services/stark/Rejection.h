#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace proofdesk::stark {

// Where in the protocol a check failed: what a user debugging a proof needs first.
enum class Stage {
    Parameters,   // proof_parameters, the public input, the layout
    PublicInput,  // the statement itself (segments, public memory, ...)
    Transcript,   // proof_hex ran out or held a word the channel cannot take
    OutOfDomain,  // the composition at the out-of-domain point
    ProofOfWork,  // the nonce
    Decommitment, // trace or composition Merkle paths
    Fri,          // FRI layers and the last layer
};

const char* stageName(Stage stage);

// A check of the verifier that failed, with a message a user can act on ("FRI layer 2: Merkle
// root mismatch", "proof ends early: 1,204 bytes missing for FRI layer 3").
class Rejection : public std::runtime_error {
public:
    Rejection(Stage stage, const std::string& message)
        : std::runtime_error(message), m_stage(stage) {}
    Stage stage() const { return m_stage; }

private:
    Stage m_stage;
};

// "1,204" for 1204.
std::string withThousands(std::uint64_t value);

} // namespace proofdesk::stark
