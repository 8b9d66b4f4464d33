// Native hints of starkware.cairo.common.cairo_secp (bigint, field, signature; the ec hints are in
// HintsSecpPoints.cpp) for secp256k1, secp256r1 and the ed25519 variants found in public programs,
// and the uint384 helpers. Hint code strings are matched exactly (cairo-lang 0.10-0.13 texts).
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

// BigInt3 splitting and the 128-bit low part.
void registerSecpBigIntHints(HintRegistry& r) {
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
}

// Field arithmetic over the curves' primes: verify_zero, reduce, is_zero, the inverse.
void registerSecpFieldHints(HintRegistry& r) {
    const BigInt* k1 = &secp256k1P();
    const BigInt* ed = &ed25519P();
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
}

// Modular division by the group order (signature verification).
void registerSecpSignatureHints(HintRegistry& r) {
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
}

} // namespace

void registerSecpHints(HintRegistry& r) {
    registerSecpBigIntHints(r);
    registerSecpFieldHints(r);
    registerSecpSignatureHints(r);
}

} // namespace proofdesk::cairo
