// Native hints of starkware.cairo.common.cairo_secp (bigint, field, ec, signature) for
// secp256k1, secp256r1 and the ed25519 variants found in public programs, and the uint384
// helpers. Hint code strings are matched exactly (cairo-lang 0.10-0.13 texts).
//
// Python's semantics carry over: hint locals (slope, x, new_x, value, SECP_P, N, ...) live in the
// current scope, so a later hint reads what an earlier one computed; `pack` is cairo-lang's
// secp_utils.pack: sum(as_int(d_i, prime) * BASE**i), BASE = 2**86.

#include "cairo/hints/HintProcessor.h"
#include "cairo/hints/SecpSupport.h"

namespace proofdesk::cairo {
namespace {

using crypto::BigInt;
using namespace secp;

BigInt modulus(HintContext& ctx, const BigInt* fixed) {
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

} // namespace

void registerSecpHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* r1 = &secp256r1P();
    const BigInt* ed = &ed25519P();

    // --- bigint ---
    const auto nondet = [](HintContext& ctx) {
        ctx.writeArg(ctx.idsCell("res"), split(ctx, scopeBig(ctx, "value")));
    };
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import split

segments.write_arg(ids.res.address_, split(value)))",
          nondet);
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import split
segments.write_arg(ids.res.address_, split(value)))",
          nondet);
    r.add("ids.low = (ids.x.d0 + ids.x.d1 * ids.BASE) & ((1 << 128) - 1)", [](HintContext& ctx) {
        const BigInt sum =
            BigInt::fromFelt(ctx.idsFelt("x.d0")) +
            BigInt::fromFelt(ctx.idsFelt("x.d1")) * BigInt::fromFelt(ctx.constant("BASE"));
        ctx.setIds("low", sum.mod(BigInt::powerOfTwo(128)).toFelt());
    });

    // --- field: verify_zero, reduce, is_zero ---
    const auto verifyZero = [](HintContext& ctx, const BigInt& p) {
        auto [q, rem] = BigInt::divmod(pack(ctx, "val"), p);
        if (!rem.isZero()) {
            ctx.fail("verify_zero: Invalid input (" + ctx.idsFelt("val.d0").toDecimal() + ", " +
                     ctx.idsFelt("val.d1").toDecimal() + ", " + ctx.idsFelt("val.d2").toDecimal() +
                     ").");
        }
        ctx.setIds("q", q.toFelt());
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

q, r = divmod(pack(ids.val, PRIME), SECP_P)
assert r == 0, f"verify_zero: Invalid input {ids.val.d0, ids.val.d1, ids.val.d2}."
ids.q = q % PRIME)",
             k1, verifyZero);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P
q, r = divmod(pack(ids.val, PRIME), SECP_P)
assert r == 0, f"verify_zero: Invalid input {ids.val.d0, ids.val.d1, ids.val.d2}."
ids.q = q % PRIME)",
             k1, verifyZero);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P = 2**255-19
to_assert = pack(ids.val, PRIME)
q, r = divmod(pack(ids.val, PRIME), SECP_P)
assert r == 0, f"verify_zero: Invalid input {ids.val.d0, ids.val.d1, ids.val.d2}."
ids.q = q % PRIME)",
             ed, verifyZero);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack

q, r = divmod(pack(ids.val, PRIME), SECP_P)
assert r == 0, f"verify_zero: Invalid input {ids.val.d0, ids.val.d1, ids.val.d2}."
ids.q = q % PRIME)",
             nullptr, verifyZero);

    const auto reduce = [](HintContext& ctx, const BigInt& p) {
        setScope(ctx, "value", pack(ctx, "x").mod(p));
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

value = pack(ids.x, PRIME) % SECP_P)",
             k1, reduce);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
value = pack(ids.x, PRIME) % SECP_P)",
             nullptr, reduce);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P=2**255-19

value = pack(ids.x, PRIME) % SECP_P)",
             ed, reduce);

    const auto isZeroPack = [](HintContext& ctx, const BigInt& p) {
        setScope(ctx, "x", pack(ctx, "x").mod(p));
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

x = pack(ids.x, PRIME) % SECP_P)",
             k1, isZeroPack);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
x = pack(ids.x, PRIME) % SECP_P)",
             k1, isZeroPack);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack

x = pack(ids.x, PRIME) % SECP_P)",
             nullptr, isZeroPack);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
x = pack(ids.x, PRIME) % SECP_P)",
             nullptr, isZeroPack);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P=2**255-19

x = pack(ids.x, PRIME) % SECP_P)",
             ed, isZeroPack);
    r.add("memory[ap] = to_felt_or_relocatable(x == 0)",
          [](HintContext& ctx) { setApBool(ctx, scopeBig(ctx, "x").isZero()); });
    r.add("memory[ap] = int(x == 0)",
          [](HintContext& ctx) { setApBool(ctx, scopeBig(ctx, "x").isZero()); });
    const auto inverseOfX = [](HintContext& ctx, const BigInt& p) {
        const BigInt inverse = divMod(ctx, BigInt(1), scopeBig(ctx, "x"), p);
        setScope(ctx, "x_inv", inverse);
        setScope(ctx, "value", inverse);
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P
from starkware.python.math_utils import div_mod

value = x_inv = div_mod(1, x, SECP_P))",
             k1, inverseOfX);
    addWithP(r, R"(from starkware.python.math_utils import div_mod

value = x_inv = div_mod(1, x, SECP_P))",
             nullptr, inverseOfX);
    addWithP(r, R"(SECP_P=2**255-19
from starkware.python.math_utils import div_mod

value = x_inv = div_mod(1, x, SECP_P))",
             ed, inverseOfX);

    // --- modular division by the group order (signature) ---
    const auto divModN = [](HintContext& ctx, const BigInt& n) {
        const BigInt a = pack(ctx, "a");
        const BigInt b = pack(ctx, "b");
        const BigInt res = divMod(ctx, a, b, n);
        setScope(ctx, "a", a);
        setScope(ctx, "b", b);
        setScope(ctx, "res", res);
        setScope(ctx, "value", res);
    };
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import N, pack
from starkware.python.math_utils import div_mod, safe_div

a = pack(ids.a, PRIME)
b = pack(ids.b, PRIME)
value = res = div_mod(a, b, N))",
          [divModN](HintContext& ctx) {
              setScope(ctx, "N", secp256k1N());
              divModN(ctx, secp256k1N());
          });
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import div_mod, safe_div

a = pack(ids.a, PRIME)
b = pack(ids.b, PRIME)
value = res = div_mod(a, b, N))",
          [divModN](HintContext& ctx) { divModN(ctx, scopeBig(ctx, "N")); });
    r.add("value = k = safe_div(res * b - a, N)", [](HintContext& ctx) {
        const BigInt k =
            safeDiv(ctx, scopeBig(ctx, "res") * scopeBig(ctx, "b") - scopeBig(ctx, "a"),
                    scopeBig(ctx, "N"));
        setScope(ctx, "k", k);
        setScope(ctx, "value", k);
    });
    r.add("value = k_plus_one = safe_div(res * b - a, N) + 1", [](HintContext& ctx) {
        const BigInt k =
            safeDiv(ctx, scopeBig(ctx, "res") * scopeBig(ctx, "b") - scopeBig(ctx, "a"),
                    scopeBig(ctx, "N")) +
            BigInt(1);
        setScope(ctx, "k_plus_one", k);
        setScope(ctx, "value", k);
    });
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import div_mod, safe_div

N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141
x = pack(ids.x, PRIME) % N
s = pack(ids.s, PRIME) % N
value = res = div_mod(x, s, N))",
          [](HintContext& ctx) { divideXByS(ctx, secp256k1N()); });
    r.add("value = k = safe_div(res * s - x, N)", [](HintContext& ctx) {
        const BigInt k =
            safeDiv(ctx, scopeBig(ctx, "res") * scopeBig(ctx, "s") - scopeBig(ctx, "x"),
                    scopeBig(ctx, "N"));
        setScope(ctx, "k", k);
        setScope(ctx, "value", k);
    });
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.cairo.common.math_utils import as_int
from starkware.python.math_utils import div_mod, safe_div

p = pack(ids.P, PRIME)
x = pack(ids.x, PRIME) + as_int(ids.x.d3, PRIME) * ids.BASE ** 3 + as_int(ids.x.d4, PRIME) * ids.BASE ** 4
y = pack(ids.y, PRIME)

value = res = div_mod(x, y, p))",
          [](HintContext& ctx) {
              const BigInt p = pack(ctx, "P");
              const BigInt base = BigInt::fromFelt(ctx.constant("BASE"));
              const BigInt x = pack(ctx, "x") +
                               asInt(ctx.idsFelt("x.d3"), starkPrime()) * base * base * base +
                               asInt(ctx.idsFelt("x.d4"), starkPrime()) * base * base * base * base;
              const BigInt y = pack(ctx, "y");
              const BigInt res = divMod(ctx, x, y, p);
              setScope(ctx, "p", p);
              setScope(ctx, "x", x);
              setScope(ctx, "y", y);
              setScope(ctx, "res", res);
              setScope(ctx, "value", res);
          });
    r.add(R"(k = safe_div(res * y - x, p)
value = k if k > 0 else 0 - k
ids.flag = 1 if k > 0 else 0)",
          [](HintContext& ctx) {
              const BigInt k =
                  safeDiv(ctx, scopeBig(ctx, "res") * scopeBig(ctx, "y") - scopeBig(ctx, "x"),
                          scopeBig(ctx, "p"));
              setScope(ctx, "k", k);
              setScope(ctx, "value", k > BigInt(0) ? k : -k);
              ctx.setIds("flag", Felt::fromU64(k > BigInt(0) ? 1 : 0));
          });

    // --- ec ---
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

x_cube_int = pack(ids.x_cube, PRIME) % SECP_P
y_square_int = (x_cube_int + ids.BETA) % SECP_P
y = pow(y_square_int, (SECP_P + 1) // 4, SECP_P)

# We need to decide whether to take y or SECP_P - y.
if ids.v % 2 == y % 2:
    value = y
else:
    value = (-y) % SECP_P)",
             k1, [](HintContext& ctx, const BigInt& p) {
                 const BigInt xCube = pack(ctx, "x_cube").mod(p);
                 const BigInt ySquare = (xCube + BigInt::fromFelt(ctx.constant("BETA"))).mod(p);
                 const BigInt y = BigInt::powMod(ySquare, (p + BigInt(1)) >> 2, p);
                 setScope(ctx, "x_cube_int", xCube);
                 setScope(ctx, "y_square_int", ySquare);
                 setScope(ctx, "y", y);
                 const bool vOdd = (ctx.idsFelt("v").low64() & 1) != 0;
                 setScope(ctx, "value", vOdd == y.isOdd() ? y : (-y).mod(p));
             });
    const auto negate = [](HintContext& ctx, const BigInt& p) {
        const BigInt y = pack(ctx, "point.y").mod(p);
        setScope(ctx, "y", y);
        setScope(ctx, "value", (-y).mod(p));
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

y = pack(ids.point.y, PRIME) % SECP_P
# The modulo operation in python always returns a nonnegative number.
value = (-y) % SECP_P)",
             k1, negate);
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P = 2**255-19

y = pack(ids.point.y, PRIME) % SECP_P
# The modulo operation in python always returns a nonnegative number.
value = (-y) % SECP_P)",
             ed, negate);

    // Double slope: (point name, alpha source, pack prime).
    const auto doubling = [](const char* point, BigInt alpha, bool packWithP) {
        return [point, alpha, packWithP](HintContext& ctx, const BigInt& p) {
            const BigInt& packPrime = packWithP ? p : starkPrime();
            const BigInt x = pack(ctx, std::string(point) + ".x", packPrime);
            const BigInt y = pack(ctx, std::string(point) + ".y", packPrime);
            const BigInt slope = doubleSlope(ctx, x, y, alpha, p);
            setScope(ctx, "x", x);
            setScope(ctx, "y", y);
            setScope(ctx, "slope", slope);
            setScope(ctx, "value", slope);
        };
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
from starkware.python.math_utils import ec_double_slope

# Compute the slope.
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)
value = slope = ec_double_slope(point=(x, y), alpha=0, p=SECP_P))",
             k1, doubling("point", BigInt(0), false));
    addWithP(r, R"(from starkware.python.math_utils import ec_double_slope
from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P = 2**255-19

# Compute the slope.
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)
value = slope = ec_double_slope(point=(x, y), alpha=42204101795669822316448953119945047945709099015225996174933988943478124189485, p=SECP_P))",
             ed,
             doubling("point",
                      big("42204101795669822316448953119945047945709099015225996174933988943"
                          "478124189485"),
                      false));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
from starkware.python.math_utils import div_mod

# Compute the slope.
x = pack(ids.pt.x, PRIME)
y = pack(ids.pt.y, PRIME)
value = slope = div_mod(3 * x ** 2, 2 * y, SECP_P))",
             k1, [](HintContext& ctx, const BigInt& p) {
                 const BigInt x = pack(ctx, "pt.x");
                 const BigInt y = pack(ctx, "pt.y");
                 const BigInt slope = divMod(ctx, BigInt(3) * x * x, BigInt(2) * y, p);
                 setScope(ctx, "x", x);
                 setScope(ctx, "y", y);
                 setScope(ctx, "slope", slope);
                 setScope(ctx, "value", slope);
             });
    r.add(
        R"(from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_ALPHA, SECP256R1_P
from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import ec_double_slope

# Compute the slope.
x = pack(ids.point.x, SECP256R1_P)
y = pack(ids.point.y, SECP256R1_P)
value = slope = ec_double_slope(point=(x, y), alpha=SECP256R1_ALPHA, p=SECP256R1_P))",
        [f = doubling("point", secp256r1Alpha(), true)](HintContext& ctx) {
            setScope(ctx, "SECP256R1_P", secp256r1P());
            setScope(ctx, "SECP256R1_ALPHA", secp256r1Alpha());
            f(ctx, secp256r1P());
        });
    r.add(R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import ec_double_slope

# Compute the slope.
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)
value = slope = ec_double_slope(point=(x, y), alpha=ALPHA, p=SECP_P))",
          [](HintContext& ctx) {
              const BigInt p = scopeBig(ctx, "SECP_P");
              const BigInt x = pack(ctx, "point.x");
              const BigInt y = pack(ctx, "point.y");
              const BigInt slope = doubleSlope(ctx, x, y, scopeBig(ctx, "ALPHA"), p);
              setScope(ctx, "x", x);
              setScope(ctx, "y", y);
              setScope(ctx, "slope", slope);
              setScope(ctx, "value", slope);
          });

    const auto adding = [](const char* p0, const char* p1, bool divModForm) {
        return [p0, p1, divModForm](HintContext& ctx, const BigInt& p) {
            const BigInt x0 = pack(ctx, std::string(p0) + ".x");
            const BigInt y0 = pack(ctx, std::string(p0) + ".y");
            const BigInt x1 = pack(ctx, std::string(p1) + ".x");
            const BigInt y1 = pack(ctx, std::string(p1) + ".y");
            const BigInt slope =
                divModForm ? divMod(ctx, y0 - y1, x0 - x1, p) : lineSlope(ctx, x0, y0, x1, y1, p);
            setScope(ctx, "x0", x0);
            setScope(ctx, "y0", y0);
            setScope(ctx, "x1", x1);
            setScope(ctx, "y1", y1);
            setScope(ctx, "slope", slope);
            setScope(ctx, "value", slope);
        };
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
from starkware.python.math_utils import line_slope

# Compute the slope.
x0 = pack(ids.point0.x, PRIME)
y0 = pack(ids.point0.y, PRIME)
x1 = pack(ids.point1.x, PRIME)
y1 = pack(ids.point1.y, PRIME)
value = slope = line_slope(point1=(x0, y0), point2=(x1, y1), p=SECP_P))",
             k1, adding("point0", "point1", false));
    addWithP(r, R"(from starkware.python.math_utils import line_slope
from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P = 2**255-19
# Compute the slope.
x0 = pack(ids.point0.x, PRIME)
y0 = pack(ids.point0.y, PRIME)
x1 = pack(ids.point1.x, PRIME)
y1 = pack(ids.point1.y, PRIME)
value = slope = line_slope(point1=(x0, y0), point2=(x1, y1), p=SECP_P))",
             ed, adding("point0", "point1", false));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import line_slope

# Compute the slope.
x0 = pack(ids.point0.x, PRIME)
y0 = pack(ids.point0.y, PRIME)
x1 = pack(ids.point1.x, PRIME)
y1 = pack(ids.point1.y, PRIME)
value = slope = line_slope(point1=(x0, y0), point2=(x1, y1), p=SECP_P))",
             nullptr, adding("point0", "point1", false));
    r.add(R"(from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_P
from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import line_slope

# Compute the slope.
x0 = pack(ids.point0.x, PRIME)
y0 = pack(ids.point0.y, PRIME)
x1 = pack(ids.point1.x, PRIME)
y1 = pack(ids.point1.y, PRIME)
value = slope = line_slope(point1=(x0, y0), point2=(x1, y1), p=SECP256R1_P))",
          [f = adding("point0", "point1", false)](HintContext& ctx) {
              setScope(ctx, "SECP256R1_P", secp256r1P());
              f(ctx, secp256r1P());
          });
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
from starkware.python.math_utils import div_mod

# Compute the slope.
x0 = pack(ids.pt0.x, PRIME)
y0 = pack(ids.pt0.y, PRIME)
x1 = pack(ids.pt1.x, PRIME)
y1 = pack(ids.pt1.y, PRIME)
value = slope = div_mod(y0 - y1, x0 - x1, SECP_P))",
             k1, adding("pt0", "pt1", true));

    // New x and y of a doubling and of an addition.
    const auto doubleNewX = [](const char* point) {
        return [point](HintContext& ctx, const BigInt& p) {
            const BigInt slope = pack(ctx, "slope");
            const BigInt x = pack(ctx, std::string(point) + ".x");
            const BigInt y = pack(ctx, std::string(point) + ".y");
            const BigInt newX = (BigInt::powMod(slope, BigInt(2), p) - BigInt(2) * x).mod(p);
            setScope(ctx, "slope", slope);
            setScope(ctx, "x", x);
            setScope(ctx, "y", y);
            setScope(ctx, "new_x", newX);
            setScope(ctx, "value", newX);
        };
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

slope = pack(ids.slope, PRIME)
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - 2 * x) % SECP_P)",
             k1, doubleNewX("point"));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack

slope = pack(ids.slope, PRIME)
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - 2 * x) % SECP_P)",
             nullptr, doubleNewX("point"));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P = 2**255-19

slope = pack(ids.slope, PRIME)
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - 2 * x) % SECP_P)",
             ed, doubleNewX("point"));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

slope = pack(ids.slope, PRIME)
x = pack(ids.pt.x, PRIME)
y = pack(ids.pt.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - 2 * x) % SECP_P)",
             k1, doubleNewX("pt"));
    r.add("value = new_y = (slope * (x - new_x) - y) % SECP_P", [](HintContext& ctx) {
        const BigInt newY =
            (scopeBig(ctx, "slope") * (scopeBig(ctx, "x") - scopeBig(ctx, "new_x")) -
             scopeBig(ctx, "y"))
                .mod(scopeBig(ctx, "SECP_P"));
        setScope(ctx, "new_y", newY);
        setScope(ctx, "value", newY);
    });

    const auto addNewX = [](const char* p0, const char* p1) {
        return [p0, p1](HintContext& ctx, const BigInt& p) {
            const BigInt slope = pack(ctx, "slope");
            const BigInt x0 = pack(ctx, std::string(p0) + ".x");
            const BigInt x1 = pack(ctx, std::string(p1) + ".x");
            const BigInt y0 = pack(ctx, std::string(p0) + ".y");
            const BigInt newX = (BigInt::powMod(slope, BigInt(2), p) - x0 - x1).mod(p);
            setScope(ctx, "slope", slope);
            setScope(ctx, "x0", x0);
            setScope(ctx, "x1", x1);
            setScope(ctx, "y0", y0);
            setScope(ctx, "new_x", newX);
            setScope(ctx, "value", newX);
        };
    };
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

slope = pack(ids.slope, PRIME)
x0 = pack(ids.point0.x, PRIME)
x1 = pack(ids.point1.x, PRIME)
y0 = pack(ids.point0.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - x0 - x1) % SECP_P)",
             k1, addNewX("point0", "point1"));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
SECP_P = 2**255-19

slope = pack(ids.slope, PRIME)
x0 = pack(ids.point0.x, PRIME)
x1 = pack(ids.point1.x, PRIME)
y0 = pack(ids.point0.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - x0 - x1) % SECP_P)",
             ed, addNewX("point0", "point1"));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

slope = pack(ids.slope, PRIME)
x0 = pack(ids.pt0.x, PRIME)
x1 = pack(ids.pt1.x, PRIME)
y0 = pack(ids.pt0.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - x0 - x1) % SECP_P)",
             k1, addNewX("pt0", "pt1"));
    addWithP(r, R"(from starkware.cairo.common.cairo_secp.secp_utils import pack

slope = pack(ids.slope, PRIME)
x0 = pack(ids.point0.x, PRIME)
x1 = pack(ids.point1.x, PRIME)
y0 = pack(ids.point0.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - x0 - x1) % SECP_P)",
             nullptr, addNewX("point0", "point1"));
    r.add("value = new_y = (slope * (x0 - new_x) - y0) % SECP_P", [](HintContext& ctx) {
        const BigInt newY =
            (scopeBig(ctx, "slope") * (scopeBig(ctx, "x0") - scopeBig(ctx, "new_x")) -
             scopeBig(ctx, "y0"))
                .mod(scopeBig(ctx, "SECP_P"));
        setScope(ctx, "new_y", newY);
        setScope(ctx, "value", newY);
    });

    // secp256r1 constants imported into the scope.
    r.add("from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_P as SECP_P",
          [](HintContext& ctx) { setScope(ctx, "SECP_P", secp256r1P()); });
    r.add("from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_ALPHA as ALPHA",
          [](HintContext& ctx) { setScope(ctx, "ALPHA", secp256r1Alpha()); });
    r.add("from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_N as N",
          [](HintContext& ctx) { setScope(ctx, "N", secp256r1N()); });
    (void)r1;
}

} // namespace proofdesk::cairo
