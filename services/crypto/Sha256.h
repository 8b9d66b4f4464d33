#pragma once

#include <array>
#include <cstdint>

namespace proofdesk::crypto {

// SHA-256's compression function (FIPS 180-4 §6.2.2), as cairo-lang's sha256_utils exposes it
// to hints: the 64-word message schedule of a 16-word block, and one compression of a state
// with a schedule, the input state added back (so compress(IV, schedule(padded "abc")) is
// SHA-256("abc")).
using Sha256State = std::array<std::uint32_t, 8>;
using Sha256Block = std::array<std::uint32_t, 16>;
using Sha256Schedule = std::array<std::uint32_t, 64>;

const Sha256State& sha256Iv();
Sha256Schedule sha256MessageSchedule(const Sha256Block& block);
Sha256State sha256Compress(const Sha256State& state, const Sha256Schedule& w);

} // namespace proofdesk::crypto
