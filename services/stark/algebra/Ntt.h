#pragma once

#include "field/Fp.h"

#include <cstdint>
#include <span>
#include <vector>

// Number-theoretic transforms over the STARK field on subgroups of order 2^k (and their cosets),
// radix-2, in place, split over the prover's workers. Evaluations "in bit-reversed order" put the
// value at ω^bitrev(i) in slot i — the order Stone commits a coset's rows in.

namespace proofdesk::stark {

// Coefficients c_0 … c_{n−1} (natural order) -> the values at ω_n^bitrev(i) (slot i).
void forwardNtt(std::span<Fp> values);
// The same for the coefficients source[k]·factors[k], into out (source may be out): the products
// are taken in the transform's first pass over memory.
void forwardNttOfProducts(std::span<const Fp> source, std::span<const Fp> factors,
                          std::span<Fp> out);
// The inverse: values at ω_n^bitrev(i) in slot i -> coefficients (natural order).
void inverseNttFromBitReversed(std::span<Fp> values);
// Values at ω_n^i in slot i (natural order) -> coefficients.
void inverseNtt(std::span<Fp> values);

// out[k] = Σ_t poly[k + t·n]·factor^t, n = out.size(), t < poly.size()/n: the polynomial's
// remainder modulo x^n − factor, which has its values on any coset whose offset^n is `factor`.
void foldModulo(std::span<const Fp> poly, const Fp& factor, std::span<Fp> out);
// Both remainders of poly (2n coefficients, n = plus.size() = minus.size()) modulo x^n − factor
// and x^n + factor, low ± factor·high, in one pass: half the products and reads of two folds.
// plus and minus may be poly's own halves (in place).
void foldModuloPair(std::span<const Fp> poly, const Fp& factor, std::span<Fp> plus,
                    std::span<Fp> minus);

// Drops the cached tables of roots (tens of MiB for large transforms) until the next transform.
void releaseTransformTables();

// a[k] ← a[k]·factor·base^k.
void scaleByPowers(std::span<Fp> values, const Fp& base, const Fp& factor = Fp::one());
// Slot i ↔ slot bitrev(i).
void bitReversePermute(std::span<Fp> values);

// The values of the polynomial with `coefficients` (at most out.size() of them) at
// offset·ω^bitrev(i), i < out.size(), into out.
void evaluateOnCoset(std::span<const Fp> coefficients, const Fp& offset, std::span<Fp> out);
// Coefficients -> the values at offset·ω^i in natural order, in place (and back).
void cosetValuesInPlace(std::span<Fp> coefficients, const Fp& offset);
void cosetCoefficientsInPlace(std::span<Fp> values, const Fp& offset);
// The same in the transforms' own order, the value at offset·ω^bitrev(i) in slot i: no
// permutation, which costs about as much as a transform's level on large arrays.
void cosetValuesBitReversedInPlace(std::span<Fp> coefficients, const Fp& offset);
void cosetCoefficientsFromBitReversedInPlace(std::span<Fp> values, const Fp& offset);
// Values at from·ω^bitrev(i) -> values at to·ω^bitrev(i), in place: the two transforms with one
// scaling between them (the coefficients' own powers of `from` and `to` as one).
void cosetValuesToCosetBitReversed(std::span<Fp> values, const Fp& from, const Fp& to);

// A periodic column — its values repeat every P rows of an N-row trace — has the polynomial
// h(x^stride), stride = N/P, h of P coefficients; the prover holds h alone. Its values at
// offset·ω_m^bitrev(i), i < m = out.size() (forwardNtt's order): h on the coset offset^stride·⟨ω⟩
// of m/stride points (h folded onto it first when larger), each value in `stride` slots in a row;
// one value in every slot when stride ≥ m.
void evaluatePeriodicOnCoset(std::span<const Fp> h, std::uint64_t stride, const Fp& offset,
                             std::span<Fp> out);
// Its P values at offset·ω_N^k, k < P, in natural order (the value at k is also the value at
// k + P, k + 2P, …).
std::vector<Fp> periodicCosetValues(std::span<const Fp> h, std::uint64_t stride, const Fp& offset);

} // namespace proofdesk::stark
