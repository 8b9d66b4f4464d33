#pragma once

#include "field/Fp.h"

#include <span>

namespace proofdesk::stark {

// A state of Starknet's Hades permutation (the permutation of Poseidon, crypto/Poseidon.h).
struct HadesState {
    Fp s0, s1, s2;
};

// Permutes every state: eight at a time with AVX-512 IFMA where vector_field::enabled() (two
// groups of eight interleaved, so one group's multiplications fill the other's latency),
// crypto's scalar permutation otherwise; both give the same states. Runs on the calling thread.
void hadesPermuteAll(std::span<HadesState> states);

} // namespace proofdesk::stark
