// Native hints of starkware.cairo.common.cairo_secp's ec_recover helpers: big-integer
// arithmetic on packed BigInt3 values whose results stay in the scope (`value`, `res`, `k`) for
// the nondet_bigint3 hint that follows.

#include "cairo/hints/HintProcessor.h"
#include "cairo/hints/SecpSupport.h"

namespace proofdesk::cairo {
namespace {

using namespace secp;

// div_mod(x, s, N) with x and s reduced modulo the packed N.
void divModPackedN(HintContext& ctx) {
    const BigInt n = pack(ctx, "n");
    if (n.isZero()) {
        ctx.fail("ec_recover: N is zero");
    }
    divideXByS(ctx, n);
}

void subAB(HintContext& ctx) {
    const BigInt a = pack(ctx, "a");
    const BigInt b = pack(ctx, "b");
    setScope(ctx, "a", a);
    setScope(ctx, "b", b);
    setScope(ctx, "res", a - b);
    setScope(ctx, "value", a - b);
}

void productModM(HintContext& ctx) {
    const BigInt a = pack(ctx, "a");
    const BigInt b = pack(ctx, "b");
    const BigInt m = pack(ctx, "m");
    if (m.isZero()) {
        ctx.fail("ec_recover: m is zero");
    }
    const BigInt product = a * b;
    setScope(ctx, "a", a);
    setScope(ctx, "b", b);
    setScope(ctx, "product", product);
    setScope(ctx, "m", m);
    setScope(ctx, "res", product.mod(m));
    setScope(ctx, "value", product.mod(m));
}

// product // m of the previous hint's locals.
void productDivM(HintContext& ctx) {
    const BigInt m = scopeBig(ctx, "m");
    if (m.isZero()) {
        ctx.fail("ec_recover: m is zero");
    }
    const BigInt k = BigInt::divmod(scopeBig(ctx, "product"), m).first;
    setScope(ctx, "k", k);
    setScope(ctx, "value", k);
}

} // namespace

void registerEcRecoverHints(HintRegistry& r) {
    r.add({
        {R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import div_mod, safe_div

N = pack(ids.n, PRIME)
x = pack(ids.x, PRIME) % N
s = pack(ids.s, PRIME) % N
value = res = div_mod(x, s, N))",
         divModPackedN},
        {R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import div_mod, safe_div

a = pack(ids.a, PRIME)
b = pack(ids.b, PRIME)

value = res = a - b)",
         subAB},
        {R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import div_mod, safe_div

a = pack(ids.a, PRIME)
b = pack(ids.b, PRIME)
product = a * b
m = pack(ids.m, PRIME)

value = res = product % m)",
         productModM},
        {"value = k = product // m", productDivM},
    });
}

} // namespace proofdesk::cairo
