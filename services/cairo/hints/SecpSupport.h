#pragma once

// What the secp-style hints share (internal to services/cairo): the curves' constants, cairo-lang's
// secp_utils.pack / split over 86-bit limbs, and hint locals kept as big integers in the scope.

#include "cairo/hints/HintProcessor.h"

#include "crypto/BigInt.h"

#include <string>
#include <vector>

namespace proofdesk::cairo::secp {

using crypto::BigInt;

BigInt big(const char* text); // a constant written in the source

const BigInt& secp256k1P(); // 2**256 - 2**32 - 977
const BigInt& secp256k1N();
const BigInt& secp256r1P(); // 2**256 - 2**224 + 2**192 + 2**96 - 1
const BigInt& secp256r1N();
const BigInt& secp256r1Alpha();
const BigInt& ed25519P(); // 2**255 - 19
const BigInt& starkPrime();
const BigInt& base86();

// cairo-lang math_utils.as_int(value, prime): the lift into (-prime/2, prime/2].
BigInt asInt(const Felt& value, const BigInt& prime);
// secp_utils.pack(ids.<path>, prime) over the limbs d0, d1, d2 (and more when given).
BigInt pack(HintContext& ctx, const std::string& path, const BigInt& prime = starkPrime(),
            int limbs = 3);

// A hint local of the current scope (an earlier hint's `value`, `SECP_P`, ...).
BigInt scopeBig(HintContext& ctx, const std::string& name);
void setScope(HintContext& ctx, const std::string& name, const BigInt& value);

// math_utils.div_mod(a, b, m), failing the hint when b has no inverse.
BigInt divMod(HintContext& ctx, const BigInt& a, const BigInt& b, const BigInt& m);
// math_utils.safe_div: x // y, asserting that y divides x.
BigInt safeDiv(HintContext& ctx, const BigInt& x, const BigInt& y);
// value = res = div_mod(x, s, N) with x = pack(ids.x) % N and s = pack(ids.s) % N, keeping N, x,
// s, res and value in the scope (div_mod_n and ec_recover's variant).
void divideXByS(HintContext& ctx, const BigInt& n);
// secp_utils.split: three limbs of BASE = 2**86; the value must fit.
std::vector<Felt> split(HintContext& ctx, BigInt value);

// SECP_P: `fixed`, or the scope's when null.
inline BigInt modulus(HintContext& ctx, const BigInt* fixed) {
    return fixed ? *fixed : scopeBig(ctx, "SECP_P");
}

// Registers `code`, which imports or defines SECP_P as `fixed` (nullptr: reads it from the
// scope), and runs `body` with that modulus.
template <class Body>
void addWithP(HintRegistry& r, const std::string& code, const BigInt* fixed, Body body) {
    r.add(code, [fixed, body](HintContext& ctx) {
        if (fixed) {
            setScope(ctx, "SECP_P", *fixed);
        }
        body(ctx, modulus(ctx, fixed));
    });
}

// ec_double_slope(point=(x, y), alpha, p) = (3x² + alpha) / (2y) mod p.
BigInt doubleSlope(HintContext& ctx, const BigInt& x, const BigInt& y, const BigInt& alpha,
                   const BigInt& p);
// line_slope(point1, point2, p) = (y0 - y1) / (x0 - x1) mod p.
BigInt lineSlope(HintContext& ctx, const BigInt& x0, const BigInt& y0, const BigInt& x1,
                 const BigInt& y1, const BigInt& p);
// [ap] = 1 or 0.
void setApBool(HintContext& ctx, bool value);

} // namespace proofdesk::cairo::secp
