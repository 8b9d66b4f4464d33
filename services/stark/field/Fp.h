#pragma once

#include "crypto/Felt.h"
#include "crypto/MontField.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace proofdesk::stark {

// An element of the STARK field p = 2^251 + 17·2^192 + 1, held in Montgomery form (value·2^256
// mod p, fully reduced) so that products cost one Montgomery multiplication. Stone serialises
// field elements the same way: the 32 big-endian bytes of the Montgomery word, so `montgomery()`
// is also the element's wire form in Stone's byte channels.
class Fp {
public:
    using Limbs = crypto::mont::Limbs;

    constexpr Fp() = default;
    static Fp fromU64(std::uint64_t value);
    static Fp fromFelt(const crypto::Felt& value);
    // The element whose Montgomery word is `word` (< p, not checked).
    static constexpr Fp fromMontgomery(const Limbs& word) {
        Fp f;
        f.m_m = word;
        return f;
    }
    static const Fp& zero();
    static const Fp& one();

    crypto::Felt toFelt() const;
    const Limbs& montgomery() const { return m_m; }
    bool isZero() const { return crypto::mont::isZero(m_m); }

    __attribute__((always_inline)) Fp operator+(const Fp& o) const {
        return fromMontgomery(crypto::mont::add(m_m, o.m_m));
    }
    __attribute__((always_inline)) Fp operator-(const Fp& o) const {
        return fromMontgomery(crypto::mont::sub(m_m, o.m_m));
    }
    __attribute__((always_inline)) Fp operator*(const Fp& o) const {
        return fromMontgomery(crypto::mont::mul(m_m, o.m_m));
    }
    Fp operator-() const { return fromMontgomery(crypto::mont::sub(Limbs{}, m_m)); }
    Fp& operator+=(const Fp& o) { return *this = *this + o; }
    Fp& operator-=(const Fp& o) { return *this = *this - o; }
    Fp& operator*=(const Fp& o) { return *this = *this * o; }
    Fp square() const { return *this * *this; }
    Fp doubled() const { return *this + *this; }
    // The inverse; zero has none and gives zero (callers check first).
    Fp inverse() const { return fromMontgomery(crypto::mont::inverse(m_m)); }
    Fp pow(std::uint64_t exponent) const;
    Fp pow(const Limbs& exponent) const;

    friend bool operator==(const Fp&, const Fp&) = default;

private:
    Limbs m_m{0, 0, 0, 0};
};

// 32 big-endian bytes <-> 256-bit limbs (little-endian limb order).
Fp::Limbs limbsFromBytes(const std::uint8_t bytes[32]);
void limbsToBytes(const Fp::Limbs& limbs, std::uint8_t out[32]);
bool limbsBelowPrime(const Fp::Limbs& limbs);

// The element written as its value in 32 big-endian bytes ("standard form"); nullopt unless < p.
std::optional<Fp> fromStandardBytes(const std::uint8_t bytes[32]);
void toStandardBytes(const Fp& value, std::uint8_t out[32]);
// The element written as its Montgomery word ("Montgomery form"); nullopt unless < p.
std::optional<Fp> fromMontgomeryBytes(const std::uint8_t bytes[32]);
void toMontgomeryBytes(const Fp& value, std::uint8_t out[32]);

// The generator of the subgroup of order 2^logOrder (logOrder ≤ 192): 3^((p−1)/2^logOrder).
Fp rootOfUnity(int logOrder);
Fp inverseRootOfUnity(int logOrder);
// The field's multiplicative generator, 3: the offset of Stone's evaluation cosets.
const Fp& fieldGenerator();
// Every element replaced by its inverse with one inversion; all must be nonzero.
void invertAll(std::span<Fp> values);
// The low `bits` bits of `value`, reversed.
std::uint64_t bitReverse(std::uint64_t value, int bits);

} // namespace proofdesk::stark
