#include "Fp.h"

#include <bit>
#include <cstring>

#include <array>

namespace proofdesk::stark {

namespace mont = crypto::mont;
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "a mixed-endian host");

Fp Fp::fromU64(std::uint64_t value) {
    return fromMontgomery(mont::toMont({value, 0, 0, 0}));
}

Fp Fp::fromFelt(const crypto::Felt& value) {
    return fromMontgomery(mont::toMont(value.limbs()));
}

const Fp& Fp::zero() {
    static const Fp value;
    return value;
}

const Fp& Fp::one() {
    static const Fp value = fromMontgomery(mont::one());
    return value;
}

crypto::Felt Fp::toFelt() const {
    return *crypto::Felt::fromLimbs(mont::fromMont(m_m));
}

Fp Fp::pow(std::uint64_t exponent) const {
    Fp result = one();
    Fp base = *this;
    while (exponent != 0) {
        if (exponent & 1) {
            result *= base;
        }
        exponent >>= 1;
        if (exponent != 0) {
            base = base.square();
        }
    }
    return result;
}

Fp Fp::pow(const Limbs& exponent) const {
    Fp result = one();
    for (int i = 255; i >= 0; --i) {
        result = result.square();
        if ((exponent[std::size_t(i / 64)] >> (i % 64)) & 1) {
            result *= *this;
        }
    }
    return result;
}

Fp::Limbs limbsFromBytes(const std::uint8_t bytes[32]) {
    Fp::Limbs limbs{};
    for (int i = 0; i < 32; ++i) {
        limbs[std::size_t(3 - i / 8)] |= std::uint64_t(bytes[i]) << (8 * (7 - i % 8));
    }
    return limbs;
}

void limbsToBytes(const Fp::Limbs& limbs, std::uint8_t out[32]) {
    for (std::size_t i = 0; i < 4; ++i) {
        std::uint64_t word = limbs[3 - i];
        if constexpr (std::endian::native == std::endian::little) {
            word = __builtin_bswap64(word);
        }
        std::memcpy(out + 8 * i, &word, 8);
    }
}

bool limbsBelowPrime(const Fp::Limbs& limbs) {
    return crypto::u256::lessThan(limbs, crypto::Felt::modulus());
}

std::optional<Fp> fromStandardBytes(const std::uint8_t bytes[32]) {
    const Fp::Limbs limbs = limbsFromBytes(bytes);
    if (!limbsBelowPrime(limbs)) {
        return std::nullopt;
    }
    return Fp::fromMontgomery(mont::toMont(limbs));
}

void toStandardBytes(const Fp& value, std::uint8_t out[32]) {
    limbsToBytes(mont::fromMont(value.montgomery()), out);
}

std::optional<Fp> fromMontgomeryBytes(const std::uint8_t bytes[32]) {
    const Fp::Limbs limbs = limbsFromBytes(bytes);
    if (!limbsBelowPrime(limbs)) {
        return std::nullopt;
    }
    return Fp::fromMontgomery(limbs);
}

void toMontgomeryBytes(const Fp& value, std::uint8_t out[32]) {
    limbsToBytes(value.montgomery(), out);
}

const Fp& fieldGenerator() {
    static const Fp value = Fp::fromU64(3);
    return value;
}

Fp rootOfUnity(int logOrder) {
    // p − 1 = 2^192 · (2^59 + 17): the 2-adic part has order 2^192.
    static const std::array<Fp, 193> roots = [] {
        std::array<Fp, 193> table{};
        table[192] = fieldGenerator().pow(Fp::Limbs{(std::uint64_t(1) << 59) + 17, 0, 0, 0});
        for (int i = 192; i > 0; --i) {
            table[std::size_t(i - 1)] = table[std::size_t(i)].square();
        }
        return table;
    }();
    return roots[std::size_t(logOrder)];
}

Fp inverseRootOfUnity(int logOrder) {
    static const std::array<Fp, 193> inverses = [] {
        std::array<Fp, 193> table{};
        for (int i = 0; i <= 192; ++i) {
            table[std::size_t(i)] = rootOfUnity(i).inverse();
        }
        return table;
    }();
    return inverses[std::size_t(logOrder)];
}

void invertAll(std::span<Fp> values) {
    if (values.empty()) {
        return;
    }
    std::vector<Fp> prefix(values.size());
    Fp running = Fp::one();
    for (std::size_t i = 0; i < values.size(); ++i) {
        prefix[i] = running;
        running *= values[i];
    }
    Fp inverse = running.inverse();
    for (std::size_t i = values.size(); i-- > 0;) {
        const Fp value = values[i];
        values[i] = inverse * prefix[i];
        inverse *= value;
    }
}

std::uint64_t bitReverse(std::uint64_t value, int bits) {
    if (bits <= 0) {
        return 0;
    }
    // All 64 bits reversed (bytes swapped, then nibbles, pairs and bits within each byte), then
    // the low `bits` of the value brought down from the top.
    std::uint64_t r = __builtin_bswap64(value);
    r = ((r >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((r & 0x0f0f0f0f0f0f0f0fULL) << 4);
    r = ((r >> 2) & 0x3333333333333333ULL) | ((r & 0x3333333333333333ULL) << 2);
    r = ((r >> 1) & 0x5555555555555555ULL) | ((r & 0x5555555555555555ULL) << 1);
    return r >> (64 - bits);
}

} // namespace proofdesk::stark
