#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace proofdesk::crypto {

// The Keccak-f[1600] permutation (24 rounds) on 25 little-endian 64-bit lanes, lane (x, y) at
// index x + 5y, as the keccak builtin uses it (permutation only, no sponge).
void keccakF1600(std::array<std::uint64_t, 25>& lanes);

// The permutation on `count` independent states, several at a time with AVX-512 or AVX2 when the
// CPU has them (the prover's row hashing, Merkle layers and proof-of-work grinding).
void keccakF1600Many(std::array<std::uint64_t, 25>* states, std::size_t count);
// Eight states laid out lane by lane (lane i of state j at lanes[8i + j]), permuted in place.
void keccakF1600Lanes8(std::uint64_t* lanes);

// Keccak's constants, for code that computes the rounds itself (the prover's Keccak trace):
// ρ's rotation of lane (x, y), and ι's round constant of round 0…23.
int keccakRotation(int x, int y);
std::uint64_t keccakRoundConstant(int round);

} // namespace proofdesk::crypto
