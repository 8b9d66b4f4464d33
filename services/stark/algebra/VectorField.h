#pragma once

#include "field/Fp.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

// Element-wise field arithmetic on arrays: eight elements at a time with AVX-512 IFMA where the
// CPU has it (PackedField.h), the scalar Fp arithmetic elsewhere; both give the same values. The
// calls run on the calling thread (callers split their loops over the workers themselves).

namespace proofdesk::stark::vector_field {

// Whether the vector arithmetic runs — here and in the transforms (NttVector.h): the CPU has
// AVX-512F and IFMA and it is not switched off.
bool enabled();
// Switches it off (or back on, where the CPU has it), for tests and benchmarks comparing paths.
void setEnabled(bool on);

// The first 64-byte aligned word of `storage`, grown (never shrunk) so that `words` words follow
// from there; a growth does not keep the contents.
std::uint64_t* alignedWords(std::vector<std::uint64_t>& storage, std::size_t words);

// out[i] = a[i]·b[i]; out may be a or b. The spans are of one size.
void multiply(std::span<const Fp> a, std::span<const Fp> b, std::span<Fp> out);
// sum[i] += a[i]·b[i].
void multiplyAdd(std::span<const Fp> a, std::span<const Fp> b, std::span<Fp> sum);
// sum[i] += c·a[i].
void scaleAdd(std::span<const Fp> a, const Fp& c, std::span<Fp> sum);
// values[i] ·= start·base^i.
void scaleByPowers(std::span<Fp> values, const Fp& start, const Fp& base);
// values[i] += start·base^i.
void addPowers(std::span<Fp> values, const Fp& start, const Fp& base);
// The polynomial with `coefficients` at each point into values (of the points' size), by
// Horner's rule on its eight segments at once, eight coefficients a product; false (nothing
// written) where the vector path does not take it (no IFMA, fewer than 64 coefficients or not a
// multiple of 8).
bool evaluateAt(std::span<const Fp> coefficients, std::span<const Fp> points, std::span<Fp> values);
// The carry chains of synthetic division by x − a on `blocks` equal blocks of `values` at once
// (a multiple of 8, eight in the lanes of a vector): in each block from the top down, carry =
// next + a·carry, with carry 0 first and next the value above the block (above[b]) then each of
// the block's own, the carry written in place of the value just read; below[b] gets the block's
// bottom value as it was. False (nothing written) where the vector path does not take it.
bool carryChains(std::span<Fp> values, std::size_t blocks, const Fp& a, std::span<const Fp> above,
                 std::span<Fp> below);

// Rows held in the vector path's own form (radix-2^52 limbs, eight rows a vector: 40 words per
// eight rows), for a chain of operations on the same rows — the constraint evaluator's nodes —
// that would otherwise convert from and to Montgomery words at every operation. Only where
// enabled(); `rows` is a multiple of 8, and every buffer of words is 64-byte aligned.
namespace rows {

inline constexpr std::size_t kWordsPerEight = 40;
constexpr std::size_t words(std::size_t rows) {
    return rows / 8 * kWordsPerEight;
}

void load(const Fp* in, std::size_t rows, std::uint64_t* out);
void store(const std::uint64_t* in, std::size_t rows, Fp* out);
void fill(const Fp& value, std::size_t rows, std::uint64_t* out);
// out = a + b, a − b, −a, a·b; out may be an operand.
void add(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, std::size_t rows);
void subtract(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, std::size_t rows);
void negate(const std::uint64_t* a, std::uint64_t* out, std::size_t rows);
void multiply(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, std::size_t rows);
// sum = Σ_k c[k]·terms[k] over `count` terms (zero for none).
void combine(const std::uint64_t* const* terms, const Fp* c, std::size_t count, std::uint64_t* sum,
             std::size_t rows);
// sum[i] += a[i]·b[i], sum and b as Montgomery words.
void multiplyAddInto(const std::uint64_t* a, const Fp* b, Fp* sum, std::size_t rows);

} // namespace rows

} // namespace proofdesk::stark::vector_field
