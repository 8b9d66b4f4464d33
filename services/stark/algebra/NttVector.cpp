#include "NttVector.h"

#include "Parallel.h"
#include "VectorField.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 reports the shift and insert intrinsics' deliberately undefined pass-through operand
// (_mm512_undefined_epi32) as (maybe) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "PackedField.h"

namespace proofdesk::stark::vector_ntt {

#ifdef PROOFDESK_PACKED_FIELD
namespace {

using namespace packed;

// Elements per lane in a transposed block: 8 × 2048 elements (512 KiB of words, 640 KiB packed)
// take their last 11 levels in the core's cache.
constexpr std::size_t kRun = 2048;

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
    return montgomeryProduct(x, loadFactors(input.factors + index, stride));
}

// (a + b, a − b) for a, b below 2p, each brought into [0, 2p); sum and difference may be a or b.
PROOFDESK_IFMA_INLINE void sumAndDifference(const Packed& a, const Packed& b, Packed& sum,
                                            Packed& difference) {
    const Packed s = sumBelowTwoP(a, b);
    const Packed d = differenceBelowTwoP(a, b);
    sum = s;
    difference = d;
}

// The butterflies of Ntt.cpp on values below 2p: forward (x + c·y, x − c·y), inverse
// (x + y, (x − y)·c).
PROOFDESK_IFMA_INLINE void forwardButterfly(Packed& x, Packed& y, const Packed& c) {
    const Packed t = montgomeryProduct(y, c);
    sumAndDifference(x, t, x, y);
}

PROOFDESK_IFMA_INLINE void inverseButterfly(Packed& x, Packed& y, const Packed& c) {
    Packed difference;
    sumAndDifference(x, y, x, difference);
    y = montgomeryProduct(difference, c);
}

// Either butterfly where the twiddle is one (block 0 of every level: T[0] = 1): (x + y, x − y),
// no product — the whole first level of a forward transform and half the next.
PROOFDESK_IFMA_INLINE void unitButterfly(Packed& x, Packed& y) {
    sumAndDifference(x, y, x, y);
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
            c = broadcastFactor(table[block]);
            current = block;
        }
        const std::size_t at = 2 * h * block + k % h;
        Fp* x = a + at;
        Packed px = loadInput(input, at, 1);
        Packed py = loadInput(input, at + h, 1);
        if (block == 0) {
            unitButterfly(px, py);
        } else {
            butterfly<inverse>(px, py, c);
        }
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
            outer = broadcastFactor(table[block]);
            firstInner = broadcastFactor(table[2 * block]);
            secondInner = broadcastFactor(table[2 * block + 1]);
            current = block;
        }
        const std::size_t first = 2 * h * block + k % quarter;
        Fp* at = a + first;
        Packed x0 = loadInput(input, first, 1);
        Packed x1 = loadInput(input, first + quarter, 1);
        Packed x2 = loadInput(input, first + 2 * quarter, 1);
        Packed x3 = loadInput(input, first + 3 * quarter, 1);
        if (block == 0) { // the outer and first inner twiddles are T[0] = 1
            if constexpr (inverse) {
                unitButterfly(x0, x1);
                inverseButterfly(x2, x3, secondInner);
                unitButterfly(x0, x2);
                unitButterfly(x1, x3);
            } else {
                unitButterfly(x0, x2);
                unitButterfly(x1, x3);
                unitButterfly(x0, x1);
                forwardButterfly(x2, x3, secondInner);
            }
        } else if constexpr (inverse) {
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
            const Packed c = loadFactors(table + first / (2 * h) + b, blocks);
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
    return vector_field::alignedWords(storage, kWordsPerPacked * run);
}

// Slice f of a polynomial cut into slices of `size`, eight values from k.
struct Slice {
    const Fp* poly;
    std::size_t size;
    std::size_t k;
    PROOFDESK_IFMA_INLINE Packed operator()(std::size_t f) const {
        return loadElements(poly + k + f * size, 1);
    }
};

// Entries [begin, end) (multiples of 8) of the fold Σ_t poly[k + t·size]·factor^t: the products
// with factor^t (t ≥ 1; `powers` holds them packed as products take them, factor^t at
// powers + 40t) summed unreduced, fifteen at a time, and reduced once, where Horner's rule
// reduced every product.
PROOFDESK_IFMA_FUNCTION void foldRange(const Fp* poly, std::size_t size, std::size_t folds,
                                       const std::uint64_t* powers, Fp* out, std::size_t begin,
                                       std::size_t end) {
    for (std::size_t k = begin; k < end; k += 8) {
        Packed sum = loadElements(poly + k, 1); // below p
        for (std::size_t first = 1; first < folds; first += kProductsPerReduction) {
            const Packed reduced = sumOfProducts(Slice{poly, size, k}, powers, first,
                                                 std::min(folds, first + kProductsPerReduction));
            for (int l = 0; l < 5; ++l) {
                sum.limb[l] = _mm512_add_epi64(sum.limb[l], reduced.limb[l]);
            }
            carry(sum); // below 3p
            sum = subtractPIfAbove(subtractPIfAbove(sum));
        }
        storeElements(out + k, 1, sum); // below p
    }
}

// The factors c[0 … count) packed as products take them, at out + 40k.
PROOFDESK_IFMA_FUNCTION void packFactors(const Fp* c, std::size_t count, std::uint64_t* out) {
    storeFactors(c, count, out);
}

// Entries [begin, end) (multiples of 8) of both folds low ± factor·high.
PROOFDESK_IFMA_FUNCTION void foldPairRange(const Fp* poly, std::size_t size, const Fp& factor,
                                           Fp* plus, Fp* minus, std::size_t begin,
                                           std::size_t end) {
    const Packed f = broadcastFactor(factor);
    for (std::size_t k = begin; k < end; k += 8) {
        const Packed low = loadElements(poly + k, 1);                            // below p
        const Packed t = montgomeryProduct(loadElements(poly + k + size, 1), f); // below 2p
        Packed sum, difference;
        sumAndDifference(low, t, sum, difference);
        storeElements(plus + k, 1, subtractPIfAbove(sum));
        storeElements(minus + k, 1, subtractPIfAbove(difference));
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
    std::vector<Fp> powers(folds, Fp::one()); // factor^t
    for (std::size_t t = 1; t < folds; ++t) {
        powers[t] = powers[t - 1] * factor;
    }
    std::vector<std::uint64_t> storage;
    std::uint64_t* packed = vector_field::alignedWords(storage, folds * kWordsPerPacked);
    packFactors(powers.data(), folds, packed);
    Workers::shared().forRange(size / 8, 512, [&](std::size_t begin, std::size_t end) {
        foldRange(poly, size, folds, packed, out, 8 * begin, 8 * end);
    });
}

void foldPair(const Fp* poly, std::size_t size, const Fp& factor, Fp* plus, Fp* minus) {
    Workers::shared().forRange(size / 8, 512, [&](std::size_t begin, std::size_t end) {
        foldPairRange(poly, size, factor, plus, minus, 8 * begin, 8 * end);
    });
}

#else

void forwardLevels(Fp*, std::size_t, const Fp*, const Fp*, const Fp*) {}
void inverseLevels(Fp*, std::size_t, const Fp*) {}
void fold(const Fp*, std::size_t, std::size_t, const Fp&, Fp*) {}
void foldPair(const Fp*, std::size_t, const Fp&, Fp*, Fp*) {}

#endif

} // namespace proofdesk::stark::vector_ntt
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
