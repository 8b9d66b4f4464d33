#pragma once

// The prover's composition work, on polynomials held as coefficients: the composition
// polynomial evaluated on two cosets and split into its halves, the out-of-domain values, and
// the DEEP composition FRI proves low-degree.

#include "Parallel.h"
#include "air/Air.h"
#include "field/Fp.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace proofdesk::stark {

// The composition polynomial C of `air` with random coefficient `alpha` as its two halves,
// C(x) = C_0(x²) + x·C_1(x²), each with the trace's length in coefficients. `columns` are the
// trace's and the interaction's coefficients; each is turned into its values on a coset and back
// in place, so they are unchanged on return. A periodic column, held as h with fewer than N
// coefficients, stands for h(x^(N/size)) here and below (evaluatePeriodicOnCoset); its values
// are found over one period. `report` gets the fraction done.
std::vector<std::vector<Fp>> compositionHalves(const air::Air& air,
                                               const std::map<std::string, Fp>& values,
                                               const std::vector<std::vector<Fp>*>& columns,
                                               const Fp& alpha, const CancelFlag& cancel,
                                               const std::function<void(double)>& report);

// What the proof sends at the out-of-domain point z: every mask cell (its column at z·g^row), in
// the mask's order, then C_0(z²) and C_1(z²). A column read at `rowsForTransform` rows or more is
// evaluated at every z·g^j by one transform, the others by Horner's rule at their rows.
constexpr std::size_t kRowsForTransform = 16;
std::vector<Fp> outOfDomainValues(const air::Air& air, const std::vector<std::vector<Fp>*>& columns,
                                  const std::vector<std::vector<Fp>>& halves, const Fp& z,
                                  std::size_t rowsForTransform = kRowsForTransform);

// The DEEP composition's coefficients: Σ_i α^i (T_{c_i}(x) − v_i)/(x − z·g^{r_i}) over the mask
// plus Σ_k α^{M+k} (C_k(x) − w_k)/(x − z²). A column read at `rowsForConvolution` rows or more
// has its terms computed by convolution on a coset (the column turned into its values there and
// back in place, so it is unchanged on return), the others are divided exactly, point by point.
constexpr std::size_t kRowsForConvolution = 32;
std::vector<Fp> deepComposition(const air::Air& air, const std::vector<std::vector<Fp>*>& columns,
                                const std::vector<const std::vector<Fp>*>& composition,
                                const std::vector<Fp>& oods, const Fp& z, const Fp& alpha,
                                const CancelFlag& cancel,
                                std::size_t rowsForConvolution = kRowsForConvolution);

} // namespace proofdesk::stark
