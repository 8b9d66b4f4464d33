#pragma once

#include "field/Fp.h"

#include <cstddef>

// The transforms' butterflies eight at a time with AVX-512 IFMA (52-bit multiply-accumulate),
// for CPUs that have it (vector_field::enabled()); Ntt.cpp falls back to its scalar butterflies
// elsewhere. The levels are Ntt.cpp's remainder tree (same table, same order, values below 2p in
// and out), so both paths give the same transform.

namespace proofdesk::stark::vector_ntt {

// The smallest transform the vector path takes.
inline constexpr std::size_t kMinimumSize = 64;

// All levels of the forward transform (half-widths n/2 … 1) or of the inverse (1 … n/2) on the
// n ≥ kMinimumSize Montgomery words at `values`, with Ntt.cpp's twiddle table T[k].
// The forward transform may read its input from `source` (n words; it may be `values`), each
// multiplied by factors[i] when `factors` is given, in its first pass over memory.
void forwardLevels(Fp* values, std::size_t n, const Fp* table, const Fp* source = nullptr,
                   const Fp* factors = nullptr);
void inverseLevels(Fp* values, std::size_t n, const Fp* table);

// out[k] = Σ_t poly[k + t·size]·factor^t for k < size (a multiple of 8), t < folds ≥ 2.
void fold(const Fp* poly, std::size_t size, std::size_t folds, const Fp& factor, Fp* out);
// plus[k] = poly[k] + factor·poly[k + size], minus[k] = poly[k] − factor·poly[k + size], for
// k < size (a multiple of 8).
void foldPair(const Fp* poly, std::size_t size, const Fp& factor, Fp* plus, Fp* minus);

} // namespace proofdesk::stark::vector_ntt
