// Native hints of starkware.cairo.common.ec (elliptic-curve helpers over the STARK curve), and the
// scalar-bit helpers of cairo_secp's ec multiplication.

#include "cairo/hints/HintProcessor.h"

#include "crypto/BigInt.h"
#include "crypto/Hex.h"
#include "crypto/StarkCurve.h"

#include <QCryptographicHash>

namespace proofdesk::cairo {
namespace {

// cairo-lang math_utils.random_ec_point with a seed: seed' = sha256(seed); for i in 0..99,
// x = sha256(seed'[1:] ‖ i as 10 little-endian bytes) (mod p); the first x on the curve wins,
// with the smaller square root, negated when seed'[0] is odd.
std::pair<Felt, Felt> randomEcPoint(const QByteArray& seed) {
    const QByteArray digest = QCryptographicHash::hash(seed, QCryptographicHash::Sha256);
    const bool negate = (static_cast<unsigned char>(digest[0]) & 1) != 0;
    for (int i = 0; i < 100; ++i) {
        QByteArray input = digest.mid(1);
        QByteArray counter(10, '\0');
        counter[0] = static_cast<char>(i);
        input.append(counter);
        const QByteArray xBytes = QCryptographicHash::hash(input, QCryptographicHash::Sha256);
        const Felt x =
            Felt::fromBytesBE(reinterpret_cast<const std::uint8_t*>(xBytes.constData()), 32);
        if (const auto y = crypto::stark::recoverY(x)) {
            return {x, negate ? -*y : *y};
        }
    }
    throw VmError("random_ec_point: could not find a point on the curve");
}

// chained_ec_op: s = random_ec_point seeded by p, m[0..len) and q[0..2·len).
void chainedEcOpRandomPoint(HintContext& ctx) {
    const Felt count = ctx.idsFelt("len");
    QByteArray seed;
    seed.append(crypto::toBytes32(ctx.idsFelt("p.x")));
    seed.append(crypto::toBytes32(ctx.idsFelt("p.y")));
    if (count.bitLength() > 62) {
        ctx.fail("chained_ec_op: len is out of range");
    }
    // Reading stops at the first unset cell (a failure), so a huge len allocates nothing.
    const auto appendRange = [&](const Relocatable& start, std::uint64_t cells) {
        for (std::uint64_t i = 0; i < cells; ++i) {
            const Value value = ctx.memory().get(start + static_cast<std::int64_t>(i));
            if (!value.isFelt()) {
                ctx.fail("chained_ec_op: an input cell holds an address");
            }
            seed.append(crypto::toBytes32(value.felt()));
        }
    };
    appendRange(ctx.idsAddress("m"), count.low64());
    appendRange(ctx.idsAddress("q"), 2 * count.low64()); // ids.q.address_ of an EcPoint*
    const auto [x, y] = randomEcPoint(seed);
    ctx.setIds("s.x", x);
    ctx.setIds("s.y", y);
}

// y = sqrt(x), or sqrt(x / 3) when x is not a square, over the STARK field.
void sqrtOrThirdSqrt(HintContext& ctx) {
    const Felt x = ctx.idsFelt("x");
    auto root = x.sqrt();
    if (!root) {
        const auto third =
            crypto::BigInt::divMod(crypto::BigInt::fromFelt(x), crypto::BigInt(3),
                                   crypto::BigInt::fromFelt(-Felt::one()) + crypto::BigInt(1));
        root = third->toFelt().sqrt();
    }
    if (!root) {
        ctx.fail("neither x nor x / 3 is a square");
    }
    ctx.setIds("y", *root);
}

// (scalar >> shift) & 1 with Python's shift: a negative shift fails, a huge one gives 0.
std::uint64_t bitOf(HintContext& ctx, const Felt& scalar, const crypto::BigInt& shift) {
    if (shift.isNegative()) {
        ctx.fail("negative shift count");
    }
    if (shift >= crypto::BigInt(256)) {
        return 0;
    }
    return scalar.bit(static_cast<int>(shift.low64())) ? 1 : 0;
}

void dibit(HintContext& ctx) {
    const crypto::BigInt m = crypto::BigInt::fromFelt(ctx.idsFelt("m"));
    ctx.setIds("dibit", Felt::fromU64(bitOf(ctx, ctx.idsFelt("scalar_u"), m) +
                                      2 * bitOf(ctx, ctx.idsFelt("scalar_v"), m)));
}

void quadBit(HintContext& ctx) {
    const crypto::BigInt m = crypto::BigInt::fromFelt(ctx.idsFelt("m"));
    const crypto::BigInt previous = m - crypto::BigInt(1);
    const Felt u = ctx.idsFelt("scalar_u");
    const Felt v = ctx.idsFelt("scalar_v");
    ctx.setIds("quad_bit", Felt::fromU64(8 * bitOf(ctx, v, m) + 4 * bitOf(ctx, u, m) +
                                         2 * bitOf(ctx, v, previous) + bitOf(ctx, u, previous)));
}

void highLimbLength(HintContext& ctx) {
    const int length =
        std::max(ctx.idsFelt("scalar_u.d2").bitLength(), ctx.idsFelt("scalar_v.d2").bitLength());
    ctx.setIds("len_hi", Felt::fromI64(length - 1));
}

void lowestBits(HintContext& ctx) {
    ctx.setIds("a_lsb", Felt::fromU64(ctx.idsFelt("a").bit(0) ? 1 : 0));
    ctx.setIds("b_lsb", Felt::fromU64(ctx.idsFelt("b").bit(0) ? 1 : 0));
}

} // namespace

void registerEcHints(HintRegistry& r) {
    r.add(R"(from starkware.crypto.signature.signature import ALPHA, BETA, FIELD_PRIME
from starkware.python.math_utils import random_ec_point
from starkware.python.utils import to_bytes

# Define a seed for random_ec_point that's dependent on all the input, so that:
#   (1) The added point s is deterministic.
#   (2) It's hard to choose inputs for which the builtin will fail.
seed = b"".join(map(to_bytes, [ids.p.x, ids.p.y, ids.m, ids.q.x, ids.q.y]))
ids.s.x, ids.s.y = random_ec_point(FIELD_PRIME, ALPHA, BETA, seed))",
          [](HintContext& ctx) {
              QByteArray seed;
              for (const char* path : {"p.x", "p.y", "m", "q.x", "q.y"}) {
                  seed.append(crypto::toBytes32(ctx.idsFelt(path)));
              }
              const auto [x, y] = randomEcPoint(seed);
              ctx.setIds("s.x", x);
              ctx.setIds("s.y", y);
          });
    r.add({
        {R"(from starkware.crypto.signature.signature import ALPHA, BETA, FIELD_PRIME
from starkware.python.math_utils import random_ec_point
from starkware.python.utils import to_bytes

n_elms = ids.len
assert isinstance(n_elms, int) and n_elms >= 0, \
    f'Invalid value for len. Got: {n_elms}.'
if '__chained_ec_op_max_len' in globals():
    assert n_elms <= __chained_ec_op_max_len, \
        f'chained_ec_op() can only be used with len<={__chained_ec_op_max_len}. ' \
        f'Got: n_elms={n_elms}.'

# Define a seed for random_ec_point that's dependent on all the input, so that:
#   (1) The added point s is deterministic.
#   (2) It's hard to choose inputs for which the builtin will fail.
seed = b"".join(
    map(
        to_bytes,
        [
            ids.p.x,
            ids.p.y,
            *memory.get_range(ids.m, n_elms),
            *memory.get_range(ids.q.address_, 2 * n_elms),
        ],
    )
)
ids.s.x, ids.s.y = random_ec_point(FIELD_PRIME, ALPHA, BETA, seed))",
         chainedEcOpRandomPoint},
        {R"(from starkware.crypto.signature.signature import FIELD_PRIME
from starkware.python.math_utils import div_mod, is_quad_residue, sqrt

x = ids.x
if is_quad_residue(x, FIELD_PRIME):
    ids.y = sqrt(x, FIELD_PRIME)
else:
    ids.y = sqrt(div_mod(x, 3, FIELD_PRIME), FIELD_PRIME))",
         sqrtOrThirdSqrt},
        {"ids.dibit = ((ids.scalar_u >> ids.m) & 1) + 2 * ((ids.scalar_v >> ids.m) & 1)", dibit},
        {R"(ids.quad_bit = (
    8 * ((ids.scalar_v >> ids.m) & 1)
    + 4 * ((ids.scalar_u >> ids.m) & 1)
    + 2 * ((ids.scalar_v >> (ids.m - 1)) & 1)
    + ((ids.scalar_u >> (ids.m - 1)) & 1)
))",
         quadBit},
        {"ids.len_hi = max(ids.scalar_u.d2.bit_length(), ids.scalar_v.d2.bit_length())-1",
         highLimbLength},
        {"ids.a_lsb = ids.a & 1\nids.b_lsb = ids.b & 1", lowestBits},
    });
}

} // namespace proofdesk::cairo
