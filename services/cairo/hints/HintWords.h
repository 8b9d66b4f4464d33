#pragma once

// 32-bit words in Cairo memory, as the blake2s and sha256 hints read and write them (one word per
// felt). Internal to services/cairo.

#include "cairo/hints/HintProcessor.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::cairo {

// The word at `address`; fails the hint ("<what> word … exceeds 32 bits") if it does not fit.
inline std::uint32_t word32At(HintContext& ctx, const Relocatable& address, const char* what) {
    const Felt value = ctx.memory().get(address).felt();
    if (!value.fitsU64() || value.low64() > 0xffffffffULL) {
        ctx.fail(std::string(what) + " word " + value.toHex() + " at " + address.toString() +
                 " exceeds 32 bits");
    }
    return static_cast<std::uint32_t>(value.low64());
}

template <std::size_t N>
std::array<std::uint32_t, N> words32At(HintContext& ctx, const Relocatable& start,
                                       const char* what) {
    std::array<std::uint32_t, N> out{};
    for (std::size_t i = 0; i < N; ++i) {
        out[i] = word32At(ctx, start + static_cast<std::int64_t>(i), what);
    }
    return out;
}

// segments.write_arg of 32-bit words.
template <class Words>
void writeWords32(HintContext& ctx, const Relocatable& start, const Words& words) {
    std::vector<Felt> felts;
    felts.reserve(words.size());
    for (std::uint32_t word : words) {
        felts.push_back(Felt::fromU64(word));
    }
    ctx.writeArg(start, felts);
}

} // namespace proofdesk::cairo
