// libFuzzer target: the hints' big integers. Two numbers read from the input must satisfy
// Python's divmod identities (a = q·b + r, r between 0 and b with b's sign), round-trip through
// text, and agree on modular inverses and square roots; a violation aborts.

#include "crypto/BigInt.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using proofdesk::crypto::BigInt;

namespace {

BigInt fromBytes(const std::uint8_t* data, std::size_t size) {
    BigInt value;
    for (std::size_t i = 1; i < size; ++i) {
        value = (value << 8) + BigInt(data[i]);
    }
    return size > 0 && (data[0] & 1) ? -value : value;
}

void require(bool condition) {
    if (!condition) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2 || size > 200) {
        return 0;
    }
    const std::size_t split = 1 + data[0] % (size - 1);
    const BigInt a = fromBytes(data + 1, split);
    const BigInt b = fromBytes(data + split, size - split);
    require(*BigInt::parse(a.toDecimal()) == a);
    require(*BigInt::parse(a.toHex()) == a);
    require(a + b - b == a);
    if (b.isZero()) {
        return 0;
    }
    const auto [q, r] = BigInt::divmod(a, b);
    require(q * b + r == a);
    require(b > BigInt(0) ? (r >= BigInt(0) && r < b) : (r <= BigInt(0) && r > b));
    if (b > BigInt(1)) {
        if (auto inverse = BigInt::inverseMod(a, b)) {
            require((a * *inverse).mod(b) == BigInt(1));
        }
        // A square root, when one is returned (b need not be prime), is the smaller true root.
        if (auto root = BigInt::sqrtModPrime(a, b)) {
            require((*root * *root - a).mod(b).isZero());
            require(*root <= (b - *root).mod(b) || root->isZero());
        }
    }
    return 0;
}
