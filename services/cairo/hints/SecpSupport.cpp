#include "cairo/hints/SecpSupport.h"

namespace proofdesk::cairo::secp {

BigInt big(const char* text) {
    return *BigInt::parse(text);
}

const BigInt& secp256k1P() {
    static const BigInt value = BigInt::powerOfTwo(256) - BigInt::powerOfTwo(32) - BigInt(977);
    return value;
}
const BigInt& secp256k1N() {
    static const BigInt value =
        big("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    return value;
}
const BigInt& secp256r1P() {
    static const BigInt value = BigInt::powerOfTwo(256) - BigInt::powerOfTwo(224) +
                                BigInt::powerOfTwo(192) + BigInt::powerOfTwo(96) - BigInt(1);
    return value;
}
const BigInt& secp256r1N() {
    static const BigInt value =
        big("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
    return value;
}
const BigInt& secp256r1Alpha() {
    static const BigInt value = secp256r1P() - BigInt(3);
    return value;
}
const BigInt& ed25519P() {
    static const BigInt value = BigInt::powerOfTwo(255) - BigInt(19);
    return value;
}
const BigInt& starkPrime() {
    static const BigInt value = BigInt::fromFelt(-Felt::one()) + BigInt(1);
    return value;
}
const BigInt& base86() {
    static const BigInt value = BigInt::powerOfTwo(86);
    return value;
}

BigInt asInt(const Felt& value, const BigInt& prime) {
    const BigInt v = BigInt::fromFelt(value);
    return v < (prime >> 1) ? v : v - prime;
}

BigInt pack(HintContext& ctx, const std::string& path, const BigInt& prime, int limbs) {
    BigInt sum;
    for (int i = limbs - 1; i >= 0; --i) {
        sum = sum * base86() + asInt(ctx.idsFelt(path + ".d" + std::to_string(i)), prime);
    }
    return sum;
}

BigInt scopeBig(HintContext& ctx, const std::string& name) {
    std::any* value = ctx.scopes().find(name);
    if (value && value->type() == typeid(BigInt)) {
        return *std::any_cast<BigInt>(value);
    }
    if (value && value->type() == typeid(Felt)) {
        return BigInt::fromFelt(*std::any_cast<Felt>(value));
    }
    ctx.fail("scope variable " + name + " is not set");
}

void setScope(HintContext& ctx, const std::string& name, const BigInt& value) {
    ctx.scopes().set(name, value);
}

BigInt divMod(HintContext& ctx, const BigInt& a, const BigInt& b, const BigInt& m) {
    auto result = BigInt::divMod(a, b, m);
    if (!result) {
        ctx.fail("div_mod: " + b.toDecimal() + " has no inverse modulo " + m.toDecimal());
    }
    return *result;
}

BigInt safeDiv(HintContext& ctx, const BigInt& x, const BigInt& y) {
    auto [q, r] = BigInt::divmod(x, y);
    if (!r.isZero()) {
        ctx.fail(x.toDecimal() + " is not divisible by " + y.toDecimal() + ".");
    }
    return q;
}

std::vector<Felt> split(HintContext& ctx, BigInt value) {
    std::vector<Felt> limbs;
    for (int i = 0; i < 3; ++i) {
        auto [q, r] = BigInt::divmod(value, base86());
        limbs.push_back(r.toFelt());
        value = q;
    }
    if (!value.isZero()) {
        ctx.fail("split: the value does not fit in 3 limbs of 86 bits");
    }
    return limbs;
}

void divideXByS(HintContext& ctx, const BigInt& n) {
    const BigInt x = pack(ctx, "x").mod(n);
    const BigInt s = pack(ctx, "s").mod(n);
    const BigInt res = divMod(ctx, x, s, n);
    setScope(ctx, "N", n);
    setScope(ctx, "x", x);
    setScope(ctx, "s", s);
    setScope(ctx, "res", res);
    setScope(ctx, "value", res);
}

// ec_double_slope(point=(x, y), alpha, p) = (3x² + alpha) / (2y) mod p.
BigInt doubleSlope(HintContext& ctx, const BigInt& x, const BigInt& y, const BigInt& alpha,
                   const BigInt& p) {
    if ((y.mod(p)).isZero()) {
        ctx.fail("ec_double_slope: y is zero");
    }
    return divMod(ctx, BigInt(3) * x * x + alpha, BigInt(2) * y, p);
}

// line_slope(point1, point2, p) = (y0 - y1) / (x0 - x1) mod p.
BigInt lineSlope(HintContext& ctx, const BigInt& x0, const BigInt& y0, const BigInt& x1,
                 const BigInt& y1, const BigInt& p) {
    if (((x0 - x1).mod(p)).isZero()) {
        ctx.fail("line_slope: the points have the same x");
    }
    return divMod(ctx, y0 - y1, x0 - x1, p);
}

void setApBool(HintContext& ctx, bool value) {
    ctx.memory().set(ctx.vm().ap, Felt::fromU64(value ? 1 : 0));
}

} // namespace proofdesk::cairo::secp
