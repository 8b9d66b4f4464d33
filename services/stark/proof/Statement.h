#pragma once

#include "PublicInput.h"

#include "crypto/Felt.h"

#include <optional>
#include <string>
#include <vector>

namespace proofdesk::stark {

// How the public memory is read as a program and its output (Integrity's settings):
//  - strict: the Cairo 0 proof-mode layout exactly — the program at address 1 with its
//    `__start__` header, the return frame, the builtin pointers at the start and end of the run,
//    then the output, and nothing else in the main page;
//  - relaxed: the program from initial_pc to initial_fp − 2 and the output segment, unchecked;
//  - cairo1: the main page is the program followed by the output.
enum class MemoryVerification { Strict, Relaxed, Cairo1 };
const char* memoryVerificationName(MemoryVerification mode);
std::optional<MemoryVerification> memoryVerificationNamed(const std::string& name);

// What a proof proves, read from its public input, with the facts a verifier registers.
struct Statement {
    std::string layout;
    std::uint64_t nSteps = 0;
    MemoryVerification memoryVerification = MemoryVerification::Strict;
    std::vector<crypto::Felt> programWords;
    std::vector<crypto::Felt> output;
    // The builtins the program declares, when the public memory shows them (the pointers at the
    // run's start name their segments); then programHash is cairo-lang's
    // compute_program_hash_chain, the hash /core-query reports for the same compiled program.
    std::optional<std::vector<std::string>> builtins;
    std::optional<crypto::Felt> programHash;
    // The Cairo verifier's hash of the program's words: pedersen(fold(pedersen, 0, words), n).
    crypto::Felt programWordsHash;
    // keccak256(programHash ‖ keccak256(output)); with programWordsHash when programHash is
    // unknown.
    std::string sharpFactHash;
    // Integrity's fact: poseidon(poseidon(program words), poseidon(output)).
    crypto::Felt integrityFactHash;
};

// Reads the statement; throws Rejection (Stage::PublicInput) when the public memory does not
// have the shape the mode requires.
Statement readStatement(const PublicInput& input, MemoryVerification mode);

// What a bootloader's proof proves: relaxed, with the output segment read from every page of the
// public memory (the bootloader writes its tasks' outputs in continuous pages), so the output is
// the bootloader's whole output, its tasks' included.
Statement readBootloaderStatement(const PublicInput& input);

} // namespace proofdesk::stark
