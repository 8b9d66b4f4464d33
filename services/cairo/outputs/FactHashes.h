#pragma once

#include "crypto/Felt.h"

#include <string>
#include <vector>

namespace proofdesk::cairo {

using crypto::Felt;

// SHARP (L1 GPS) fact with a single-page fact topology:
// keccak256(be32(programHash) ‖ keccak256(be32 words of the output)), as "0x" + 64 hex digits
// (a 256-bit digest, not a field element).
std::string sharpFactHash(const Felt& programHash, const std::vector<Felt>& output);

// The SHARP bootloader program hash Integrity's calculate_bootloaded_fact_hash uses.
const Felt& sharpBootloaderProgramHash();

// Integrity's bootloaded fact (docs/architecture.md):
// H([B, H([1, len(output) + 2, programHash, output...])]), H = poseidon_hash_many.
Felt integrityFactHash(const Felt& programHash, const std::vector<Felt>& output);

} // namespace proofdesk::cairo
