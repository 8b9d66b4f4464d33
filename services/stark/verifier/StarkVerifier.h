#pragma once

#include "proof/ProofParameters.h"
#include "proof/PublicInput.h"

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::stark {

// A part of proof_hex, as the verifier read it.
struct ProofSection {
    std::string name;
    std::size_t begin = 0;
    std::size_t end = 0;
};

// What the verifier learned while checking, for the verdict.
struct VerificationTrace {
    std::size_t maskSize = 0;
    std::size_t constraints = 0;
    std::size_t proofBytes = 0;
    std::vector<ProofSection> sections; // in proof order
};

// Verifies a Stone proof of the Cairo CPU AIR: the channel seeded from the public input (in the
// given serialisation variant), the trace, interaction and composition commitments, the
// out-of-domain check of the layout's constraints, FRI with proof of work, and every
// decommitment. Throws Rejection naming the first check that fails.
VerificationTrace verifyStark(const ProofParameters& parameters, const PublicInput& input,
                              SeedVariant variant, std::vector<std::uint8_t> proof);

// Checks that the parameters fit the statement (FRI degree, domain sizes) before any reading.
void checkParametersFit(const ProofParameters& parameters, const PublicInput& input);

} // namespace proofdesk::stark
