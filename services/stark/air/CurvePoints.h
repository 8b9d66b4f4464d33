#pragma once

#include "field/Fp.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace proofdesk::stark::air {

// A point of the STARK curve y² = x³ + x + β in affine coordinates.
using CurvePoint = std::pair<Fp, Fp>;

CurvePoint curvePoint(const crypto::Felt& x, const crypto::Felt& y);
CurvePoint doubled(const CurvePoint& p);
CurvePoint added(const CurvePoint& p, const CurvePoint& q); // p ≠ ±q
// p, 2p, 4p, …, 2^(count−1)·p.
std::vector<CurvePoint> doublings(CurvePoint p, std::size_t count);

// The Pedersen hash's shift point and its four base points (P1 … P4).
const std::vector<CurvePoint>& pedersenPoints();
// The points a Pedersen input's subset sum adds, one per unit of its 256: 2^k·P for the 248 low
// bits and the 4 high bits (P1, P2 for input 0; P3, P4 for input 1), the last one repeated over
// the padding units.
const std::vector<CurvePoint>& pedersenUnitPoints(int input);
// The generator's doublings G, 2G, …, 2^(bits−1)·G, the last repeated up to `height` units.
std::vector<CurvePoint> generatorUnitPoints(std::uint64_t bits, std::uint64_t height);

// The curve's α and β, and the ECDSA generator.
const Fp& curveAlpha();
const Fp& curveBeta();
CurvePoint ecdsaGenerator();

} // namespace proofdesk::stark::air
