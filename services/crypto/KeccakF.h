#pragma once

#include <array>
#include <cstdint>

namespace proofdesk::crypto {

// The Keccak-f[1600] permutation (24 rounds) on 25 little-endian 64-bit lanes, lane (x, y) at
// index x + 5y, as the keccak builtin uses it (permutation only, no sponge).
void keccakF1600(std::array<std::uint64_t, 25>& lanes);

} // namespace proofdesk::crypto
