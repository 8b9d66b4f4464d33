#include "NttVector.h"

#include "Parallel.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#define PROOFDESK_VECTOR_NTT 1
#endif

namespace proofdesk::stark::vector_ntt {
namespace {

bool cpuHasIfma() {
#ifdef PROOFDESK_VECTOR_NTT
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
#else
    return false;
#endif
}

const bool kCpuHasIfma = cpuHasIfma();
std::atomic<bool> g_switchedOff{false};

} // namespace

bool enabled() {
    return kCpuHasIfma && !g_switchedOff.load(std::memory_order_relaxed);
}

void setEnabled(bool on) {
    g_switchedOff.store(!on, std::memory_order_relaxed);
}

#ifdef PROOFDESK_VECTOR_NTT
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 reports the shift and insert intrinsics' deliberately undefined pass-through operand
// (_mm512_undefined_epi32) as maybe uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
namespace {

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
constexpr std::size_t kWordsPerPacked = 40; // 5 limbs × 8 lanes
// Elements per lane in a transposed block: 8 × 2048 elements (512 KiB of words, 640 KiB packed)
// take their last 11 levels in the core's cache.
constexpr std::size_t kRun = 2048;

#define PROOFDESK_IFMA_FUNCTION __attribute__((target("avx512f,avx512ifma")))
#define PROOFDESK_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

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

// a·b/2^260 mod p, below 2p, for a < 4p and b < 16p with normalised limbs.
PROOFDESK_IFMA_INLINE Packed montgomeryProduct(const Packed& a, const Packed& b) {
    __m512i t[10];
    for (__m512i& column : t) {
        column = _mm512_setzero_si512();
    }
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a.limb[i], b.limb[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a.limb[i], b.limb[j]);
        }
    }
    const __m512i low = splat(kLow52);
    const __m512i p3 = splat(kP3);
    for (int i = 0; i < 5; ++i) {
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
        const __m512i rest = _mm512_and_si512(t[i], low);
        const __m512i m = _mm512_and_si512(_mm512_sub_epi64(_mm512_setzero_si512(), rest), low);
        // rest + m·1 is 0 or 2^52: its carry.
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(_mm512_add_epi64(rest, m), 52));
        t[i + 3] = _mm512_madd52lo_epu64(t[i + 3], m, p3);
        t[i + 4] = _mm512_madd52hi_epu64(t[i + 4], m, p3);
        t[i + 4] = _mm512_add_epi64(t[i + 4], _mm512_and_si512(_mm512_slli_epi64(m, 43), low));
        t[i + 5] = _mm512_add_epi64(t[i + 5], _mm512_srli_epi64(m, 9));
    }
    Packed r{{t[5], t[6], t[7], t[8], t[9]}};
    carry(r);
    return r;
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

// Eight twiddles (table + i·stride) as factors 16·c.
PROOFDESK_IFMA_INLINE Packed loadTwiddles(const Fp* base, std::size_t stride) {
    __m512i words[4];
    loadWords(base, stride, words);
    return toLimbs<4>(words);
}

PROOFDESK_IFMA_INLINE Packed broadcastTwiddle(const Fp& c) {
    const crypto::mont::Limbs& w = c.montgomery();
    return Packed{{splat((w[0] << 4) & kLow52), splat(((w[0] >> 48) | (w[1] << 16)) & kLow52),
                   splat(((w[1] >> 36) | (w[2] << 28)) & kLow52),
                   splat(((w[2] >> 24) | (w[3] << 40)) & kLow52), splat(w[3] >> 12)}};
}

// Where the first pass reads: source[i]·factors[i] (factors may be null: source[i] alone). Later
// passes read the array being transformed.
struct Input {
    const Fp* source = nullptr;
    const Fp* factors = nullptr;
};

PROOFDESK_IFMA_INLINE Packed loadInput(const Input& input, std::size_t index, std::size_t stride) {
    const Packed x = loadElements(input.source + index, stride);
    if (input.factors == nullptr) {
        return x;
    }
    return montgomeryProduct(x, loadTwiddles(input.factors + index, stride));
}

// The butterflies of Ntt.cpp on values below 2p: forward (x + c·y, x − c·y), inverse
// (x + y, (x − y)·c).
PROOFDESK_IFMA_INLINE void forwardButterfly(Packed& x, Packed& y, const Packed& c) {
    const Packed t = montgomeryProduct(y, c);
    Packed sum, difference;
    for (int k = 0; k < 5; ++k) {
        sum.limb[k] = _mm512_add_epi64(x.limb[k], t.limb[k]);
        difference.limb[k] = _mm512_sub_epi64(x.limb[k], t.limb[k]);
    }
    sum.limb[0] = _mm512_sub_epi64(sum.limb[0], splat(2));
    sum.limb[3] = _mm512_sub_epi64(sum.limb[3], splat(2 * kP3));
    sum.limb[4] = _mm512_sub_epi64(sum.limb[4], splat(2 * kP4));
    x = intoTwoP(sum);
    y = intoTwoP(difference);
}

PROOFDESK_IFMA_INLINE void inverseButterfly(Packed& x, Packed& y, const Packed& c) {
    Packed sum, difference;
    for (int k = 0; k < 5; ++k) {
        sum.limb[k] = _mm512_add_epi64(x.limb[k], y.limb[k]);
        difference.limb[k] = _mm512_sub_epi64(x.limb[k], y.limb[k]);
    }
    sum.limb[0] = _mm512_sub_epi64(sum.limb[0], splat(2));
    sum.limb[3] = _mm512_sub_epi64(sum.limb[3], splat(2 * kP3));
    sum.limb[4] = _mm512_sub_epi64(sum.limb[4], splat(2 * kP4));
    x = intoTwoP(sum);
    y = montgomeryProduct(intoTwoP(difference), c);
}

template <bool inverse>
PROOFDESK_IFMA_INLINE void butterfly(Packed& x, Packed& y, const Packed& c) {
    if constexpr (inverse) {
        inverseButterfly(x, y, c);
    } else {
        forwardButterfly(x, y, c);
    }
}

// Groups [begin, end) of eight butterflies of the level of half-width h ≥ 8 over the whole array;
// group g is butterflies 8g … 8g + 7, all in one block.
template <bool inverse>
PROOFDESK_IFMA_FUNCTION void levelGroups(Fp* a, std::size_t h, const Fp* table, const Input& input,
                                         std::size_t begin, std::size_t end) {
    std::size_t current = SIZE_MAX;
    Packed c{};
    for (std::size_t g = begin; g < end; ++g) {
        const std::size_t k = 8 * g;
        const std::size_t block = k / h;
        if (block != current) {
            c = broadcastTwiddle(table[block]);
            current = block;
        }
        const std::size_t at = 2 * h * block + k % h;
        Fp* x = a + at;
        Packed px = loadInput(input, at, 1);
        Packed py = loadInput(input, at + h, 1);
        butterfly<inverse>(px, py, c);
        storeElements(x, 1, px);
        storeElements(x + h, 1, py);
    }
}

// Groups [begin, end) of eight butterflies of two levels at once, half-widths h and h/2 (h/2 ≥ 8):
// the quadruples x0 … x3 at j, j + h/2, j + h, j + 3h/2 of a block of 2h, which the level of
// half-width h pairs as (x0, x2), (x1, x3) and the next as (x0, x1), (x2, x3) — one pass over
// memory for both.
template <bool inverse>
PROOFDESK_IFMA_FUNCTION void levelPairGroups(Fp* a, std::size_t h, const Fp* table,
                                             const Input& input, std::size_t begin,
                                             std::size_t end) {
    const std::size_t quarter = h / 2;
    std::size_t current = SIZE_MAX;
    Packed outer{}, firstInner{}, secondInner{};
    for (std::size_t g = begin; g < end; ++g) {
        const std::size_t k = 8 * g;
        const std::size_t block = k / quarter;
        if (block != current) {
            outer = broadcastTwiddle(table[block]);
            firstInner = broadcastTwiddle(table[2 * block]);
            secondInner = broadcastTwiddle(table[2 * block + 1]);
            current = block;
        }
        const std::size_t first = 2 * h * block + k % quarter;
        Fp* at = a + first;
        Packed x0 = loadInput(input, first, 1);
        Packed x1 = loadInput(input, first + quarter, 1);
        Packed x2 = loadInput(input, first + 2 * quarter, 1);
        Packed x3 = loadInput(input, first + 3 * quarter, 1);
        if constexpr (inverse) {
            inverseButterfly(x0, x1, firstInner);
            inverseButterfly(x2, x3, secondInner);
            inverseButterfly(x0, x2, outer);
            inverseButterfly(x1, x3, outer);
        } else {
            forwardButterfly(x0, x2, outer);
            forwardButterfly(x1, x3, outer);
            forwardButterfly(x0, x1, firstInner);
            forwardButterfly(x2, x3, secondInner);
        }
        storeElements(at, 1, x0);
        storeElements(at + quarter, 1, x1);
        storeElements(at + 2 * quarter, 1, x2);
        storeElements(at + 3 * quarter, 1, x3);
    }
}

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

// The levels of half-width below `run` on the 8·run elements from `first`, held transposed in
// `buffer` (64-byte aligned, run·40 words): lane i takes the run first + i·run … so that every
// butterfly pairs two packed vectors of one lane each, and lane i's block has its own twiddle.
template <bool inverse>
PROOFDESK_IFMA_FUNCTION void transposedBlock(Fp* a, std::size_t first, std::size_t run,
                                             const Fp* table, const Input& input,
                                             std::uint64_t* buffer) {
    for (std::size_t v = 0; v < run; ++v) {
        storePacked(buffer + kWordsPerPacked * v, loadInput(input, first + v, run));
    }
    for (std::size_t h = inverse ? 1 : run / 2; h >= 1 && h < run; h = inverse ? 2 * h : h / 2) {
        const std::size_t blocks = run / (2 * h);
        for (std::size_t b = 0; b < blocks; ++b) {
            // Lane i: the block (first + i·run)/2h + b.
            const Packed c = loadTwiddles(table + first / (2 * h) + b, blocks);
            for (std::size_t v = 2 * h * b; v < 2 * h * b + h; ++v) {
                std::uint64_t* xAt = buffer + kWordsPerPacked * v;
                std::uint64_t* yAt = buffer + kWordsPerPacked * (v + h);
                Packed x = loadPacked(xAt);
                Packed y = loadPacked(yAt);
                butterfly<inverse>(x, y, c);
                storePacked(xAt, x);
                storePacked(yAt, y);
            }
        }
    }
    for (std::size_t v = 0; v < run; ++v) {
        storeElements(a + first + v, run, loadPacked(buffer + kWordsPerPacked * v));
    }
}

// This thread's buffer for a transposed block, 64-byte aligned.
std::uint64_t* packedBuffer(std::size_t run) {
    thread_local std::vector<std::uint64_t> storage;
    const std::size_t words = kWordsPerPacked * run + 8;
    if (storage.size() < words) {
        storage.assign(words, 0);
    }
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    return storage.data() + ((64 - address % 64) % 64) / sizeof(std::uint64_t);
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

// Entries [begin, end) (multiples of 8) of the fold Σ_t poly[k + t·size]·factor^t, by Horner.
PROOFDESK_IFMA_FUNCTION void foldRange(const Fp* poly, std::size_t size, std::size_t folds,
                                       const Fp& factor, Fp* out, std::size_t begin,
                                       std::size_t end) {
    const Packed f = broadcastTwiddle(factor);
    for (std::size_t k = begin; k < end; k += 8) {
        Packed sum = loadElements(poly + k + (folds - 1) * size, 1);
        for (std::size_t t = folds - 1; t-- > 0;) {
            sum = montgomeryProduct(sum, f); // below 2p
            const Packed next = loadElements(poly + k + t * size, 1);
            for (int l = 0; l < 5; ++l) {
                sum.limb[l] = _mm512_add_epi64(sum.limb[l], next.limb[l]);
            }
            carry(sum); // below 3p
        }
        storeElements(out + k, 1, subtractPIfAbove(subtractPIfAbove(sum))); // below p
    }
}

template <bool inverse> void allLevels(Fp* a, std::size_t n, const Fp* table, Input first) {
    const std::size_t run = std::min(kRun, n / 8);
    const std::size_t block = 8 * run;
    // The first pass reads `first`, every later one the array itself.
    Input input = first;
    const auto next = [&] {
        const Input current = input;
        input = Input{a, nullptr};
        return current;
    };
    // Whole-array levels go two at a time (half-widths h and h/2), the last alone when their
    // number is odd.
    const auto outer = [&](std::size_t h, bool pair) {
        const Input from = next();
        if (pair) {
            Workers::shared().forRange(n / 32, 128, [&](std::size_t begin, std::size_t end) {
                levelPairGroups<inverse>(a, h, table, from, begin, end);
            });
            return;
        }
        Workers::shared().forRange(n / 16, 256, [&](std::size_t begin, std::size_t end) {
            levelGroups<inverse>(a, h, table, from, begin, end);
        });
    };
    const auto inner = [&] {
        const Input from = next();
        Workers::shared().forEach(n / block, [&](std::size_t i) {
            transposedBlock<inverse>(a, i * block, run, table, from, packedBuffer(run));
        });
    };
    const int outerLevels = std::countr_zero(n) - std::countr_zero(run);
    if constexpr (inverse) {
        inner();
        std::size_t h = run;
        if (outerLevels % 2 == 1) {
            outer(h, false);
            h *= 2;
        }
        for (; h < n; h *= 4) {
            outer(2 * h, true);
        }
    } else {
        std::size_t h = n / 2;
        for (int level = 0; level + 1 < outerLevels; level += 2, h /= 4) {
            outer(h, true);
        }
        if (outerLevels % 2 == 1) {
            outer(h, false);
        }
        inner();
    }
}

} // namespace

void forwardLevels(Fp* values, std::size_t n, const Fp* table, const Fp* source,
                   const Fp* factors) {
    allLevels<false>(values, n, table, Input{source ? source : values, factors});
}

void inverseLevels(Fp* values, std::size_t n, const Fp* table) {
    allLevels<true>(values, n, table, Input{values, nullptr});
}

void fold(const Fp* poly, std::size_t size, std::size_t folds, const Fp& factor, Fp* out) {
    Workers::shared().forRange(size / 8, 512, [&](std::size_t begin, std::size_t end) {
        foldRange(poly, size, folds, factor, out, 8 * begin, 8 * end);
    });
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#else

void forwardLevels(Fp*, std::size_t, const Fp*, const Fp*, const Fp*) {}
void inverseLevels(Fp*, std::size_t, const Fp*) {}
void fold(const Fp*, std::size_t, std::size_t, const Fp&, Fp*) {}

#endif

} // namespace proofdesk::stark::vector_ntt
