#pragma once

#include "Rejection.h"
#include "StarkVerifier.h"
#include "proof/Statement.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace proofdesk::stark {

struct VerifyOptions {
    // The public input serialisation the channel was seeded with; absent: stone6, then stone5.
    std::optional<SeedVariant> seedVariant;
    // How the public memory reads as a program and output; absent: the first of strict, relaxed
    // and cairo1 that holds.
    std::optional<MemoryVerification> memoryVerification;
};

// The verifier's answer about one proof file.
struct Verdict {
    bool valid = false;
    std::optional<Stage> failedStage;
    std::string failedCheck; // the first check that failed, in words
    std::optional<ProofParameters> parameters;
    std::optional<PublicInput> publicInput;
    std::optional<SeedVariant> seedVariant; // the one the proof verified (or was checked) under
    int securityBits = 0;
    // What the proof states (program, output, facts), read even when the proof is rejected if
    // the public input allows; statementError says why it could not be read.
    std::optional<Statement> statement;
    std::string statementError;
    VerificationTrace trace;
    double milliseconds = 0;
};

// Verifies a Stone proof (proof_hex, proof_parameters, public_input; annotations ignored).
// Never throws for bad input: an unreadable or malformed proof is a verdict naming what is wrong.
Verdict verifyStoneProof(const nlohmann::json& proof, const VerifyOptions& options = {});
Verdict verifyStoneProofText(std::string_view text, const VerifyOptions& options = {});

// proof_hex as bytes; throws Rejection (Stage::Transcript) for bad hex or a size beyond limits.
std::vector<std::uint8_t> proofBytesFromHex(const std::string& hex);

} // namespace proofdesk::stark
