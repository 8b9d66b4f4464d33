#include "StarkEcdsa.h"

#include "StarkCurve.h"

namespace proofdesk::crypto::stark {
namespace {

using Limbs = Felt::Limbs;

// a·b mod n by a 512-bit product and bitwise reduction (signatures are rare; simplicity wins).
Limbs mulModOrder(const Limbs& a, const Limbs& b) {
    __extension__ typedef unsigned __int128 u128;
    std::uint64_t product[8] = {};
    for (int i = 0; i < 4; ++i) {
        u128 carry = 0;
        for (int j = 0; j < 4; ++j) {
            const u128 t =
                static_cast<u128>(a[static_cast<std::size_t>(j)]) * b[static_cast<std::size_t>(i)] +
                product[i + j] + carry;
            product[i + j] = static_cast<std::uint64_t>(t);
            carry = t >> 64;
        }
        product[i + 4] = static_cast<std::uint64_t>(carry);
    }
    const Limbs& n = order();
    Limbs r{};
    for (int bit = 511; bit >= 0; --bit) {
        // r = 2r + bit; r < n < 2^252, so 2r + 1 fits in 256 bits.
        u256::addTo(r, r);
        r[0] |= (product[bit / 64] >> (bit % 64)) & 1;
        if (!u256::lessThan(r, n)) {
            u256::subFrom(r, n);
        }
    }
    return r;
}

bool inRange(const Limbs& value, int maxBits) {
    return u256::bitLength(value) <= maxBits;
}

bool isZero(const Limbs& value) {
    return (value[0] | value[1] | value[2] | value[3]) == 0;
}

bool verifyWithKey(const Limbs& z, const Limbs& r, const Limbs& w, const Affine& q) {
    const Jacobian zG = multiply(generator(), z);
    const Jacobian rQ = multiply(q, r);
    const Affine sum = toAffine(add(zG, rQ));
    if (sum.infinity) {
        return false;
    }
    const Affine result = toAffine(multiply(sum, w));
    return !result.infinity && result.xFelt().limbs() == r;
}

} // namespace

Limbs inverseModOrder(const Limbs& s) {
    Limbs exponent = order();
    u256::subFrom(exponent, {2, 0, 0, 0});
    Limbs result = {1, 0, 0, 0};
    for (int i = u256::bitLength(exponent) - 1; i >= 0; --i) {
        result = mulModOrder(result, result);
        if ((exponent[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1) {
            result = mulModOrder(result, s);
        }
    }
    return result;
}

bool verifyEcdsa(const Felt& messageHash, const Felt& r, const Felt& s, const Felt& publicKeyX) {
    const Limbs& rl = r.limbs();
    const Limbs& sl = s.limbs();
    if (isZero(rl) || !inRange(rl, 251) || isZero(sl) || !u256::lessThan(sl, order()) ||
        !inRange(messageHash.limbs(), 251)) {
        return false;
    }
    const Limbs w = inverseModOrder(sl);
    if (isZero(w) || !inRange(w, 251)) {
        return false;
    }
    const auto y = recoverY(publicKeyX);
    if (!y) {
        return false;
    }
    return verifyWithKey(messageHash.limbs(), rl, w, Affine::fromFelts(publicKeyX, *y)) ||
           verifyWithKey(messageHash.limbs(), rl, w, Affine::fromFelts(publicKeyX, -*y));
}

} // namespace proofdesk::crypto::stark
