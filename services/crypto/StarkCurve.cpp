#include "StarkCurve.h"

#include "MontField.h"

// Curve constants (α = 1, β, generator, order) are public facts of the STARK curve, taken from
// the npm package @scure/starknet 1.1.2 (lib/index.js: CURVE a, b, Gx, Gy, n), which states them
// as in StarkWare's cairo-lang `starkware/crypto/signature/signature.py`.

namespace proofdesk::crypto::stark {
namespace {

using Limbs = Felt::Limbs;

Limbs twice(const Limbs& a) {
    return mont::add(a, a);
}

} // namespace

const Felt& beta() {
    static const Felt value = *Felt::parse(
        "3141592653589793238462643383279502884197169399375105820974944592307816406665");
    return value;
}

const Affine& generator() {
    static const Affine value = Affine::fromFelts(
        *Felt::parse("874739451078007766457464989774322083649278607533249481151382481072868806602"),
        *Felt::parse(
            "152666792071518830868575557812948353041420400780739481342941381225525861407"));
    return value;
}

const Limbs& order() {
    static const Limbs value = *u256::parse(
        "3618502788666131213697322783095070105526743751716087489154079457884512865583");
    return value;
}

Affine Affine::fromFelts(const Felt& x, const Felt& y) {
    return {mont::toMont(x.limbs()), mont::toMont(y.limbs()), false};
}

Felt Affine::xFelt() const {
    return *Felt::fromLimbs(mont::fromMont(x));
}

Felt Affine::yFelt() const {
    return *Felt::fromLimbs(mont::fromMont(y));
}

Jacobian toJacobian(const Affine& p) {
    if (p.infinity) {
        return {mont::one(), mont::one(), {0, 0, 0, 0}};
    }
    return {p.x, p.y, mont::one()};
}

Affine toAffine(const Jacobian& p) {
    if (mont::isZero(p.z)) {
        return {};
    }
    const Limbs zInv = mont::inverse(p.z);
    const Limbs zInv2 = mont::square(zInv);
    return {mont::mul(p.x, zInv2), mont::mul(p.y, mont::mul(zInv2, zInv)), false};
}

Jacobian doublePoint(const Jacobian& p) {
    if (mont::isZero(p.z) || mont::isZero(p.y)) {
        return {mont::one(), mont::one(), {0, 0, 0, 0}};
    }
    // dbl-2007-bl with a = 1.
    const Limbs xx = mont::square(p.x);
    const Limbs yy = mont::square(p.y);
    const Limbs yyyy = mont::square(yy);
    const Limbs zz = mont::square(p.z);
    const Limbs s = twice(mont::sub(mont::sub(mont::square(mont::add(p.x, yy)), xx), yyyy));
    const Limbs mm = mont::add(mont::add(twice(xx), xx), mont::square(zz));
    const Limbs t = mont::sub(mont::square(mm), twice(s));
    Jacobian out;
    out.x = t;
    out.y = mont::sub(mont::mul(mm, mont::sub(s, t)), twice(twice(twice(yyyy))));
    out.z = mont::sub(mont::sub(mont::square(mont::add(p.y, p.z)), yy), zz);
    return out;
}

Jacobian addMixed(const Jacobian& p, const Affine& q) {
    if (q.infinity) {
        return p;
    }
    if (mont::isZero(p.z)) {
        return toJacobian(q);
    }
    // madd-2007-bl.
    const Limbs z1z1 = mont::square(p.z);
    const Limbs u2 = mont::mul(q.x, z1z1);
    const Limbs s2 = mont::mul(q.y, mont::mul(p.z, z1z1));
    const Limbs h = mont::sub(u2, p.x);
    const Limbs r = twice(mont::sub(s2, p.y));
    if (mont::isZero(h)) {
        return mont::isZero(r) ? doublePoint(p) : Jacobian{mont::one(), mont::one(), {0, 0, 0, 0}};
    }
    const Limbs hh = mont::square(h);
    const Limbs i = twice(twice(hh));
    const Limbs j = mont::mul(h, i);
    const Limbs v = mont::mul(p.x, i);
    Jacobian out;
    out.x = mont::sub(mont::sub(mont::square(r), j), twice(v));
    out.y = mont::sub(mont::mul(r, mont::sub(v, out.x)), twice(mont::mul(p.y, j)));
    out.z = mont::sub(mont::sub(mont::square(mont::add(p.z, h)), z1z1), hh);
    return out;
}

Jacobian add(const Jacobian& p, const Jacobian& q) {
    if (mont::isZero(p.z)) {
        return q;
    }
    if (mont::isZero(q.z)) {
        return p;
    }
    // add-2007-bl.
    const Limbs z1z1 = mont::square(p.z);
    const Limbs z2z2 = mont::square(q.z);
    const Limbs u1 = mont::mul(p.x, z2z2);
    const Limbs u2 = mont::mul(q.x, z1z1);
    const Limbs s1 = mont::mul(p.y, mont::mul(q.z, z2z2));
    const Limbs s2 = mont::mul(q.y, mont::mul(p.z, z1z1));
    const Limbs h = mont::sub(u2, u1);
    const Limbs r = twice(mont::sub(s2, s1));
    if (mont::isZero(h)) {
        return mont::isZero(r) ? doublePoint(p) : Jacobian{mont::one(), mont::one(), {0, 0, 0, 0}};
    }
    const Limbs i = mont::square(twice(h));
    const Limbs j = mont::mul(h, i);
    const Limbs v = mont::mul(u1, i);
    Jacobian out;
    out.x = mont::sub(mont::sub(mont::square(r), j), twice(v));
    out.y = mont::sub(mont::mul(r, mont::sub(v, out.x)), twice(mont::mul(s1, j)));
    out.z = mont::mul(mont::sub(mont::sub(mont::square(mont::add(p.z, q.z)), z1z1), z2z2), h);
    return out;
}

Jacobian multiply(const Affine& p, const Limbs& scalar) {
    Jacobian acc{mont::one(), mont::one(), {0, 0, 0, 0}};
    for (int i = u256::bitLength(scalar) - 1; i >= 0; --i) {
        acc = doublePoint(acc);
        if ((scalar[i / 64] >> (i % 64)) & 1) {
            acc = addMixed(acc, p);
        }
    }
    return acc;
}

bool isOnCurve(const Affine& p) {
    if (p.infinity) {
        return true;
    }
    const Limbs rhs =
        mont::add(mont::add(mont::mul(mont::square(p.x), p.x), p.x), mont::toMont(beta().limbs()));
    return mont::square(p.y) == rhs;
}

std::optional<Felt> recoverY(const Felt& x) {
    const Felt rhs = x * x * x + x + beta();
    return rhs.sqrt();
}

} // namespace proofdesk::crypto::stark
