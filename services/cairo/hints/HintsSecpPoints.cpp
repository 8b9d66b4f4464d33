// Native hints of starkware.cairo.common.cairo_secp's ec (and the ed25519 and secp256r1 variants
// found in public programs): the y of a point from its x, negation, the slopes of doubling and
// addition, and the new point's coordinates. Hint locals live in the scope as in Python
// (HintsSecp.cpp says how).

#include "cairo/hints/HintProcessor.h"
#include "cairo/hints/SecpSupport.h"

namespace proofdesk::cairo {
namespace {

using crypto::BigInt;
using namespace secp;

// Points: y from x (get_point_from_x) and negation.
void registerSecpPointRecoveryHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* ed = &ed25519P();
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
}

// The slope of a doubling, for each curve and form.
void registerSecpDoublingSlopeHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* ed = &ed25519P();
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
}

// The slope of an addition, for each curve and form.
void registerSecpAdditionSlopeHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* ed = &ed25519P();
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
}

// The new x and y of a doubling.
void registerSecpDoublingPointHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* ed = &ed25519P();
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
}

// The new x and y of an addition; secp256r1's constants imported into the scope.
void registerSecpAdditionPointHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* r1 = &secp256r1P();
    const BigInt* ed = &ed25519P();
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

} // namespace

void registerSecpPointHints(HintRegistry& r) {
    registerSecpPointRecoveryHints(r);
    registerSecpDoublingSlopeHints(r);
    registerSecpAdditionSlopeHints(r);
    registerSecpDoublingPointHints(r);
    registerSecpAdditionPointHints(r);
}

} // namespace proofdesk::cairo
