// Native hints of starkware.cairo.common.ec (elliptic-curve helpers over the STARK curve).

#include "HintProcessor.h"

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
}

} // namespace proofdesk::cairo
