#pragma once

// Field arithmetic eight elements at a time with AVX-512 IFMA (52-bit multiply-accumulate), for
// the prover's hot loops (NttVector.cpp, VectorField.cpp). x86-64 only; every function carries
// the target attribute, so callers check vector_field::enabled() before reaching them.

#include "field/Fp.h"

#include <cstddef>
#include <cstdint>

#if defined(PROOFDESK_EMULATED_AVX512)
// Tests build this code a second time over a portable model of the intrinsics, so that CPUs
// without AVX-512 IFMA test it too (tests/support/EmulatedAvx512.h).
#include "EmulatedAvx512.h"
#define PROOFDESK_PACKED_FIELD 1
#define PROOFDESK_IFMA_FUNCTION
#define PROOFDESK_IFMA_INLINE __attribute__((always_inline)) inline
#elif defined(__x86_64__)
#include <immintrin.h>
#define PROOFDESK_PACKED_FIELD 1
#define PROOFDESK_IFMA_FUNCTION __attribute__((target("avx512f,avx512ifma")))
#define PROOFDESK_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline
#endif

#ifdef PROOFDESK_PACKED_FIELD

namespace proofdesk::stark::packed {

// Eight field elements side by side, each in radix 2^52: limb[k] holds bits 52k … 52k + 51 of
// the eight values (lane i: element i). Products are Montgomery products with R' = 2^260; the
// twiddles enter as 16·c (c's Montgomery word shifted left by 4, below 2^256 without reduction),
// so x·(16c)/2^260 = x·c/2^256 and the values stay Montgomery words for R = 2^256 throughout.
// p = 1 + 17·2^192 + 2^251 has the limbs (1, 0, 0, 17·2^36, 2^43); since p ≡ 1 (mod 2^52),
// each reduction step's multiplier is just −t mod 2^52.
struct Packed {
    __m512i limb[5];
};

constexpr std::uint64_t kLow52 = (std::uint64_t(1) << 52) - 1;
constexpr std::uint64_t kP3 = std::uint64_t(17) << 36;
constexpr std::uint64_t kP4 = std::uint64_t(1) << 43;

PROOFDESK_IFMA_INLINE __m512i splat(std::uint64_t value) {
    return _mm512_set1_epi64(static_cast<long long>(value));
}

// Limbs 0 … 3 brought into [0, 2^52) by signed carries; limb 4 keeps the sign.
PROOFDESK_IFMA_INLINE void carry(Packed& v) {
    const __m512i low = splat(kLow52);
    for (int k = 0; k < 4; ++k) {
        v.limb[k + 1] = _mm512_add_epi64(v.limb[k + 1], _mm512_srai_epi64(v.limb[k], 52));
        v.limb[k] = _mm512_and_si512(v.limb[k], low);
    }
}

// A value in (−2p, 2p), limbs unnormalised, as its representative in [0, 2p), limbs normalised.
PROOFDESK_IFMA_INLINE Packed intoTwoP(Packed d) {
    carry(d);
    const __mmask8 negative = _mm512_cmplt_epi64_mask(d.limb[4], _mm512_setzero_si512());
    d.limb[0] = _mm512_mask_add_epi64(d.limb[0], negative, d.limb[0], splat(2));
    d.limb[3] = _mm512_mask_add_epi64(d.limb[3], negative, d.limb[3], splat(2 * kP3));
    d.limb[4] = _mm512_mask_add_epi64(d.limb[4], negative, d.limb[4], splat(2 * kP4));
    carry(d);
    return d;
}

// t += a·b as ten columns of 52-bit weight (column k at 2^(52k)), unreduced: each product adds
// at most ten terms below 2^52 to a column, so columns take a few hundred products before they
// near 2^63.
PROOFDESK_IFMA_INLINE void accumulateProduct(const Packed& a, const Packed& b, __m512i t[10]) {
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.limb[i], b.limb[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.limb[i], b.limb[j]);
        }
    }
}

// The columns' value T as T/2^260 mod p, below T/2^260 + p (limbs normalised).
PROOFDESK_IFMA_INLINE Packed montgomeryReduce(__m512i t[10]) {
    const __m512i low = splat(kLow52);
    const __m512i p3 = splat(kP3);
    for (int i = 0; i < 5; ++i) {
        // m = −t[i] mod 2^52: t[i] + m·1 is a multiple of 2^52 (below 2^64, t[i] being far
        // below 2^63), all of it carried.
        const __m512i m = _mm512_and_si512(_mm512_sub_epi64(_mm512_setzero_si512(), t[i]), low);
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(_mm512_add_epi64(t[i], m), 52));
        t[i + 3] = _mm512_madd52lo_epu64(t[i + 3], m, p3);
        t[i + 4] = _mm512_madd52hi_epu64(t[i + 4], m, p3);
        t[i + 4] = _mm512_add_epi64(t[i + 4], _mm512_and_si512(_mm512_slli_epi64(m, 43), low));
        t[i + 5] = _mm512_add_epi64(t[i + 5], _mm512_srli_epi64(m, 9));
    }
    Packed r{{t[5], t[6], t[7], t[8], t[9]}};
    carry(r);
    return r;
}

// a·b/2^260 mod p, below 2p, for a < 4p and b < 16p with normalised limbs.
PROOFDESK_IFMA_INLINE Packed montgomeryProduct(const Packed& a, const Packed& b) {
    __m512i t[10];
    for (__m512i& column : t) {
        column = _mm512_setzero_si512();
    }
    accumulateProduct(a, b, t);
    return montgomeryReduce(t);
}

// The Montgomery words of the elements at base + i·stride (i < 8), word k of element i in lane i
// of words[k].
PROOFDESK_IFMA_INLINE __m512i loadTwo(const Fp* first, const Fp* second) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(first));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(second));
    return _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
}

PROOFDESK_IFMA_INLINE void loadWords(const Fp* base, std::size_t stride, __m512i words[4]) {
    const __m512i z0 = loadTwo(base, base + stride);
    const __m512i z1 = loadTwo(base + 2 * stride, base + 3 * stride);
    const __m512i z2 = loadTwo(base + 4 * stride, base + 5 * stride);
    const __m512i z3 = loadTwo(base + 6 * stride, base + 7 * stride);
    const __m512i firstWords = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    const __m512i lastWords = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    const __m512i t0 = _mm512_permutex2var_epi64(z0, firstWords, z1); // words 0, 1 of 0 … 3
    const __m512i t1 = _mm512_permutex2var_epi64(z0, lastWords, z1);  // words 2, 3 of 0 … 3
    const __m512i t2 = _mm512_permutex2var_epi64(z2, firstWords, z3);
    const __m512i t3 = _mm512_permutex2var_epi64(z2, lastWords, z3);
    const __m512i lowHalves = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    const __m512i highHalves = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    words[0] = _mm512_permutex2var_epi64(t0, lowHalves, t2);
    words[1] = _mm512_permutex2var_epi64(t0, highHalves, t2);
    words[2] = _mm512_permutex2var_epi64(t1, lowHalves, t3);
    words[3] = _mm512_permutex2var_epi64(t1, highHalves, t3);
}

PROOFDESK_IFMA_INLINE void storeTwo(Fp* first, Fp* second, __m512i pair) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(first), _mm512_castsi512_si256(pair));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(second), _mm512_extracti64x4_epi64(pair, 1));
}

PROOFDESK_IFMA_INLINE void storeWords(Fp* base, std::size_t stride, const __m512i words[4]) {
    const __m512i lowHalves = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
    const __m512i highHalves = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    const __m512i t0 = _mm512_permutex2var_epi64(words[0], lowHalves, words[1]);
    const __m512i t2 = _mm512_permutex2var_epi64(words[0], highHalves, words[1]);
    const __m512i t1 = _mm512_permutex2var_epi64(words[2], lowHalves, words[3]);
    const __m512i t3 = _mm512_permutex2var_epi64(words[2], highHalves, words[3]);
    const __m512i firstPair = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
    const __m512i secondPair = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
    storeTwo(base, base + stride, _mm512_permutex2var_epi64(t0, firstPair, t1));
    storeTwo(base + 2 * stride, base + 3 * stride, _mm512_permutex2var_epi64(t0, secondPair, t1));
    storeTwo(base + 4 * stride, base + 5 * stride, _mm512_permutex2var_epi64(t2, firstPair, t3));
    storeTwo(base + 6 * stride, base + 7 * stride, _mm512_permutex2var_epi64(t2, secondPair, t3));
}

// Limb k (k ≥ 1) of the value shifted left by `shift`: its bits 52k − shift … 52k + 51 − shift.
template <int shift, int k> PROOFDESK_IFMA_INLINE __m512i limbOf(const __m512i words[4]) {
    constexpr int bit = 52 * k - shift;
    constexpr int word = bit / 64;
    constexpr int offset = bit % 64;
    __m512i limb = _mm512_srli_epi64(words[word], offset);
    if constexpr (offset + 52 > 64 && word < 3) {
        limb = _mm512_or_si512(limb, _mm512_slli_epi64(words[word + 1], 64 - offset));
    }
    return _mm512_and_si512(limb, splat(kLow52));
}

// 64-bit words -> 52-bit limbs, the value shifted left by `shift` (0, or 4 for twiddles).
template <int shift> PROOFDESK_IFMA_INLINE Packed toLimbs(const __m512i words[4]) {
    return Packed{{_mm512_and_si512(_mm512_slli_epi64(words[0], shift), splat(kLow52)),
                   limbOf<shift, 1>(words), limbOf<shift, 2>(words), limbOf<shift, 3>(words),
                   limbOf<shift, 4>(words)}};
}

PROOFDESK_IFMA_INLINE void toWords(const Packed& v, __m512i words[4]) {
    words[0] = _mm512_or_si512(v.limb[0], _mm512_slli_epi64(v.limb[1], 52));
    words[1] = _mm512_or_si512(_mm512_srli_epi64(v.limb[1], 12), _mm512_slli_epi64(v.limb[2], 40));
    words[2] = _mm512_or_si512(_mm512_srli_epi64(v.limb[2], 24), _mm512_slli_epi64(v.limb[3], 28));
    words[3] = _mm512_or_si512(_mm512_srli_epi64(v.limb[3], 36), _mm512_slli_epi64(v.limb[4], 16));
}

PROOFDESK_IFMA_INLINE Packed loadElements(const Fp* base, std::size_t stride) {
    __m512i words[4];
    loadWords(base, stride, words);
    return toLimbs<0>(words);
}

PROOFDESK_IFMA_INLINE void storeElements(Fp* base, std::size_t stride, const Packed& v) {
    __m512i words[4];
    toWords(v, words);
    storeWords(base, stride, words);
}

// Eight multipliers c (at base + i·stride) as the factors 16·c products take.
PROOFDESK_IFMA_INLINE Packed loadFactors(const Fp* base, std::size_t stride) {
    __m512i words[4];
    loadWords(base, stride, words);
    return toLimbs<4>(words);
}

PROOFDESK_IFMA_INLINE Packed broadcastFactor(const Fp& c) {
    const crypto::mont::Limbs& w = c.montgomery();
    return Packed{{splat((w[0] << 4) & kLow52), splat(((w[0] >> 48) | (w[1] << 16)) & kLow52),
                   splat(((w[1] >> 36) | (w[2] << 28)) & kLow52),
                   splat(((w[2] >> 24) | (w[3] << 40)) & kLow52), splat(w[3] >> 12)}};
}

// a + b − 2p, in (−2p, 2p) for a, b below 2p, brought into [0, 2p).
PROOFDESK_IFMA_INLINE Packed sumBelowTwoP(const Packed& a, const Packed& b) {
    Packed s;
    for (int k = 0; k < 5; ++k) {
        s.limb[k] = _mm512_add_epi64(a.limb[k], b.limb[k]);
    }
    s.limb[0] = _mm512_sub_epi64(s.limb[0], splat(2));
    s.limb[3] = _mm512_sub_epi64(s.limb[3], splat(2 * kP3));
    s.limb[4] = _mm512_sub_epi64(s.limb[4], splat(2 * kP4));
    return intoTwoP(s);
}

// a − b, in (−2p, 2p) for a, b below 2p, brought into [0, 2p).
PROOFDESK_IFMA_INLINE Packed differenceBelowTwoP(const Packed& a, const Packed& b) {
    Packed d;
    for (int k = 0; k < 5; ++k) {
        d.limb[k] = _mm512_sub_epi64(a.limb[k], b.limb[k]);
    }
    return intoTwoP(d);
}

// Products summed unreduced before one reduction: fifteen products of a value below 2p and a
// factor below 16p sum below 480p² (every column far below 2^63), which reduces below 2p.
constexpr std::size_t kProductsPerReduction = 15;

// Eight values kept packed in memory: 40 words, limb k in words 8k … 8k + 7, 64-byte aligned.
constexpr std::size_t kWordsPerPacked = 40;

PROOFDESK_IFMA_INLINE Packed loadPacked(const std::uint64_t* at) {
    Packed v;
    for (int k = 0; k < 5; ++k) {
        v.limb[k] = _mm512_load_si512(at + 8 * k);
    }
    return v;
}

PROOFDESK_IFMA_INLINE void storePacked(std::uint64_t* at, const Packed& v) {
    for (int k = 0; k < 5; ++k) {
        _mm512_store_si512(at + 8 * k, v.limb[k]);
    }
}

// c[0 … count) as products take them, packed at out + 40k.
PROOFDESK_IFMA_INLINE void storeFactors(const Fp* c, std::size_t count, std::uint64_t* out) {
    for (std::size_t k = 0; k < count; ++k) {
        storePacked(out + k * kWordsPerPacked, broadcastFactor(c[k]));
    }
}

// Σ_k term(k)·factor_k over k in [first, last) (at most kProductsPerReduction; terms below 2p,
// factor k packed as products take it at factors + 40k), with one reduction: below 2p. `term`
// is a function object whose call operator carries PROOFDESK_IFMA_INLINE.
template <typename Term>
PROOFDESK_IFMA_INLINE Packed sumOfProducts(const Term& term, const std::uint64_t* factors,
                                           std::size_t first, std::size_t last) {
    __m512i t[10];
    for (__m512i& column : t) {
        column = _mm512_setzero_si512();
    }
    for (std::size_t k = first; k < last; ++k) {
        accumulateProduct(term(k), loadPacked(factors + k * kWordsPerPacked), t);
    }
    return montgomeryReduce(t);
}

// v (normalised, below 2^255) less p where that is not negative.
PROOFDESK_IFMA_INLINE Packed subtractPIfAbove(const Packed& v) {
    Packed d = v;
    d.limb[0] = _mm512_sub_epi64(d.limb[0], splat(1));
    d.limb[3] = _mm512_sub_epi64(d.limb[3], splat(kP3));
    d.limb[4] = _mm512_sub_epi64(d.limb[4], splat(kP4));
    carry(d);
    const __mmask8 below = _mm512_cmplt_epi64_mask(d.limb[4], _mm512_setzero_si512());
    for (int k = 0; k < 5; ++k) {
        d.limb[k] = _mm512_mask_blend_epi64(below, d.limb[k], v.limb[k]);
    }
    return d;
}

} // namespace proofdesk::stark::packed

#endif
