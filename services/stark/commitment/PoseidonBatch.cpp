#include "PoseidonBatch.h"

#include "algebra/VectorField.h"

#include "crypto/Poseidon.h"

#include <algorithm>
#include <array>
#include <cstddef>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 reports the shift and insert intrinsics' deliberately undefined pass-through operand
// (_mm512_undefined_epi32) as (maybe) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "algebra/PackedField.h"

namespace proofdesk::stark {
namespace {

static_assert(sizeof(HadesState) == 3 * sizeof(Fp), "states are read as three words apart");

// crypto's permutation of many states (a few side by side), a batch at a time.
void permuteScalar(std::span<HadesState> states) {
    constexpr std::size_t kBatch = 64;
    std::array<std::array<Fp::Limbs, 3>, kBatch> words;
    for (std::size_t first = 0; first < states.size(); first += kBatch) {
        const std::size_t n = std::min(kBatch, states.size() - first);
        for (std::size_t i = 0; i < n; ++i) {
            const HadesState& state = states[first + i];
            words[i] = {state.s0.montgomery(), state.s1.montgomery(), state.s2.montgomery()};
        }
        crypto::hadesPermutationMontgomery(std::span(words.data(), n));
        for (std::size_t i = 0; i < n; ++i) {
            states[first + i] = {Fp::fromMontgomery(words[i][0]), Fp::fromMontgomery(words[i][1]),
                                 Fp::fromMontgomery(words[i][2])};
        }
    }
}

#ifdef PROOFDESK_PACKED_FIELD
using namespace packed;

// Groups of eight states permuted together.
constexpr int kGroups = 2;
constexpr std::size_t kLanes = 8 * kGroups;

using Triple = std::array<Packed, 3>;

// A constant's Montgomery word in every lane, as limbs (PackedField's conversion of loaded words).
PROOFDESK_IFMA_INLINE Packed broadcastWord(const Fp::Limbs& w) {
    const __m512i words[4] = {splat(w[0]), splat(w[1]), splat(w[2]), splat(w[3])};
    return toLimbs<0>(words);
}

// k·p as limbs, for small k.
PROOFDESK_IFMA_INLINE Packed multipleOfP(std::uint64_t k) {
    return Packed{
        {splat(k), _mm512_setzero_si512(), _mm512_setzero_si512(), splat(k * kP3), splat(k * kP4)}};
}

// x + c, normalised: x below 2p, c a constant below p.
PROOFDESK_IFMA_INLINE Packed plusConstant(const Packed& x, const Packed& c) {
    Packed sum;
    for (int k = 0; k < 5; ++k) {
        sum.limb[k] = _mm512_add_epi64(x.limb[k], c.limb[k]);
    }
    carry(sum);
    return sum;
}

// 16·x as normalised limbs, for x normalised and below 2^256.
PROOFDESK_IFMA_INLINE Packed timesSixteen(const Packed& x) {
    const __m512i low = splat(kLow52);
    Packed r;
    r.limb[0] = _mm512_and_si512(_mm512_slli_epi64(x.limb[0], 4), low);
    for (int k = 1; k < 5; ++k) {
        r.limb[k] =
            _mm512_or_si512(_mm512_slli_epi64(x.limb[k], 4), _mm512_srli_epi64(x.limb[k - 1], 48));
        if (k < 4) {
            r.limb[k] = _mm512_and_si512(r.limb[k], low);
        }
    }
    return r;
}

// x³ (Montgomery words) below 2p, for x below 4p: montgomeryProduct divides by 2^260, so the
// factor 16·x makes each product a Montgomery product for 2^256; x·16x < 64p² and x²·16x < 32p²
// keep both results below 2p.
PROOFDESK_IFMA_INLINE Packed cube(const Packed& x) {
    const Packed sixteenX = timesSixteen(x);
    return montgomeryProduct(montgomeryProduct(x, sixteenX), sixteenX);
}

// A positive value below 2^255 (limbs unnormalised, possibly negative) to a congruent one below
// 2p: with q = ⌊v / 2^251⌋ ≤ 15, v − q·p + p = (v mod 2^251) + p − q·(17·2^192 + 1), which is
// positive and below 2^251 + p.
PROOFDESK_IFMA_INLINE Packed belowTwoP(Packed v) {
    carry(v);
    const __m512i q = _mm512_srli_epi64(v.limb[4], 43);
    v.limb[4] = _mm512_add_epi64(_mm512_and_si512(v.limb[4], splat((std::uint64_t(1) << 43) - 1)),
                                 splat(kP4));
    v.limb[0] = _mm512_sub_epi64(_mm512_add_epi64(v.limb[0], splat(1)), q);
    // q·17·2^36 = q·2^40 + q·2^36.
    const __m512i q17 = _mm512_add_epi64(_mm512_slli_epi64(q, 40), _mm512_slli_epi64(q, 36));
    v.limb[3] = _mm512_sub_epi64(_mm512_add_epi64(v.limb[3], splat(kP3)), q17);
    carry(v);
    return v;
}

// The MDS [[3, 1, 1], [1, −1, 1], [1, 1, −2]] on a state below 2p: with t = s0 + s1 + s2 the
// outputs are t + 2·s0, t − 2·s1 and t − 3·s2, made positive by 4p and 6p (all below 12p).
PROOFDESK_IFMA_INLINE void mix(Triple& s) {
    const Packed fourP = multipleOfP(4);
    const Packed sixP = multipleOfP(6);
    Packed n0, n1, n2;
    for (int k = 0; k < 5; ++k) {
        const __m512i a = s[0].limb[k], b = s[1].limb[k], c = s[2].limb[k];
        const __m512i t = _mm512_add_epi64(_mm512_add_epi64(a, b), c);
        n0.limb[k] = _mm512_add_epi64(t, _mm512_add_epi64(a, a));
        n1.limb[k] = _mm512_sub_epi64(_mm512_add_epi64(t, fourP.limb[k]), _mm512_add_epi64(b, b));
        n2.limb[k] = _mm512_sub_epi64(_mm512_add_epi64(t, sixP.limb[k]),
                                      _mm512_add_epi64(_mm512_add_epi64(c, c), c));
    }
    s = {belowTwoP(n0), belowTwoP(n1), belowTwoP(n2)};
}

PROOFDESK_IFMA_INLINE void fullRound(Triple (&groups)[kGroups],
                                     const std::array<Fp::Limbs, 3>& constants) {
    const Triple c = {broadcastWord(constants[0]), broadcastWord(constants[1]),
                      broadcastWord(constants[2])};
    for (Triple& s : groups) {
        for (int j = 0; j < 3; ++j) {
            s[j] = cube(plusConstant(s[j], c[j]));
        }
    }
    for (Triple& s : groups) {
        mix(s);
    }
}

// kLanes states from `states` (three words apart), permuted in place.
PROOFDESK_IFMA_FUNCTION void permuteLanes(HadesState* states) {
    const crypto::HadesSchedule& schedule = crypto::hadesSchedule();
    Triple groups[kGroups];
    for (int g = 0; g < kGroups; ++g) {
        HadesState* first = states + 8 * g;
        groups[g] = {loadElements(&first->s0, 3), loadElements(&first->s1, 3),
                     loadElements(&first->s2, 3)};
    }
    for (const auto& constants : schedule.firstFullRounds) {
        fullRound(groups, constants);
    }
    for (const Fp::Limbs& constant : schedule.partialRounds) {
        const Packed c = broadcastWord(constant);
        for (Triple& s : groups) {
            s[2] = cube(plusConstant(s[2], c));
        }
        for (Triple& s : groups) {
            mix(s);
        }
    }
    for (const auto& constants : schedule.lastFullRounds) {
        fullRound(groups, constants);
    }
    for (int g = 0; g < kGroups; ++g) {
        HadesState* first = states + 8 * g;
        storeElements(&first->s0, 3, subtractPIfAbove(groups[g][0]));
        storeElements(&first->s1, 3, subtractPIfAbove(groups[g][1]));
        storeElements(&first->s2, 3, subtractPIfAbove(groups[g][2]));
    }
}

void permutePacked(std::span<HadesState> states) {
    std::size_t at = 0;
    for (; at + kLanes <= states.size(); at += kLanes) {
        permuteLanes(states.data() + at);
    }
    if (at < states.size()) {
        // The last few states, padded to a full set of lanes.
        std::array<HadesState, kLanes> tail{};
        const std::size_t rest = states.size() - at;
        std::copy_n(states.begin() + static_cast<std::ptrdiff_t>(at), rest, tail.begin());
        permuteLanes(tail.data());
        std::copy_n(tail.begin(), rest, states.begin() + static_cast<std::ptrdiff_t>(at));
    }
}
#endif

} // namespace

void hadesPermuteAll(std::span<HadesState> states) {
#ifdef PROOFDESK_PACKED_FIELD
    if (vector_field::enabled()) {
        permutePacked(states);
        return;
    }
#endif
    permuteScalar(states);
}

} // namespace proofdesk::stark

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
