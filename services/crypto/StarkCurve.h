#pragma once

#include "Felt.h"

#include <optional>

namespace proofdesk::crypto::stark {

// The STARK curve y² = x³ + α·x + β over the felt252 field, α = 1. Coordinates are held in
// Montgomery form (mont::Limbs) for speed; conversions go through Felt.
struct Affine {
    Felt::Limbs x{};
    Felt::Limbs y{};
    bool infinity = true;

    static Affine fromFelts(const Felt& x, const Felt& y);
    Felt xFelt() const;
    Felt yFelt() const;
};

struct Jacobian {
    Felt::Limbs x{};
    Felt::Limbs y{};
    Felt::Limbs z{}; // zero: the point at infinity
};

Jacobian toJacobian(const Affine& p);
Affine toAffine(const Jacobian& p);
Jacobian doublePoint(const Jacobian& p);
Jacobian addMixed(const Jacobian& p, const Affine& q);
Jacobian add(const Jacobian& p, const Jacobian& q);
// scalar·p for a 256-bit scalar (double-and-add; for variable bases).
Jacobian multiply(const Affine& p, const Felt::Limbs& scalar);
bool isOnCurve(const Affine& p);
// The y with y² = x³ + x + β of the given parity... nullopt when x is not on the curve.
std::optional<Felt> recoverY(const Felt& x);

const Felt& beta();
const Affine& generator();
// The curve order n (a 252-bit prime), little-endian limbs.
const Felt::Limbs& order();

} // namespace proofdesk::crypto::stark
