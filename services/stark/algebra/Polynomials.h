#pragma once

#include "field/Fp.h"

#include <span>
#include <vector>

// Polynomial arithmetic on coefficient vectors (c_0 first) for the prover's out-of-domain values,
// DEEP composition and FRI folds.

namespace proofdesk::stark {

// p(x), by Horner's rule.
Fp evaluatePolynomial(std::span<const Fp> coefficients, const Fp& x);
// p at several points in one pass over the coefficients (several independent chains at once).
std::vector<Fp> evaluatePolynomialAt(std::span<const Fp> coefficients,
                                     const std::vector<Fp>& points);
// p / (x − a) into the quotient's coefficients (one fewer); returns the remainder p(a).
Fp divideByLinear(std::span<const Fp> p, const Fp& a, std::span<Fp> quotient);
// p / (x − a) in place, split over the workers: p's coefficients become the quotient's (the top
// one 0). Returns the remainder p(a).
Fp divideByLinearInPlace(std::span<Fp> p, const Fp& a);
// One FRI fold: 2·(even part + β·odd part), half as many coefficients.
std::vector<Fp> foldPolynomial(std::span<const Fp> coefficients, const Fp& beta);

} // namespace proofdesk::stark
