#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace proofdesk::crypto {

// An element of the STARK field, p = 2^251 + 17·2^192 + 1, held canonically (< p) as four
// little-endian 64-bit limbs. Products go through Montgomery multiplication internally.
class Felt {
public:
    using Limbs = std::array<std::uint64_t, 4>;

    constexpr Felt() = default;
    static Felt fromU64(std::uint64_t value);
    static Felt fromI64(std::int64_t value); // negative values wrap to p - |value|
    // Limbs < p, else nullopt.
    static std::optional<Felt> fromLimbs(const Limbs& limbs);
    // Any 256-bit value reduced mod p.
    static Felt fromLimbsReduced(Limbs limbs);
    // "0x…" hex or decimal, optionally with a leading '-'; values must be < 2^256 and are reduced
    // mod p. nullopt if malformed.
    static std::optional<Felt> parse(std::string_view text);
    // Big-endian bytes (at most 32), reduced mod p.
    static Felt fromBytesBE(const std::uint8_t* data, std::size_t size);

    // 2^bits for bits < 251.
    static Felt powerOfTwo(int bits);
    static const Felt& zero();
    static const Felt& one();
    static const Limbs& modulus();

    const Limbs& limbs() const { return m_limbs; }
    bool isZero() const { return (m_limbs[0] | m_limbs[1] | m_limbs[2] | m_limbs[3]) == 0; }
    bool fitsU64() const { return (m_limbs[1] | m_limbs[2] | m_limbs[3]) == 0; }
    std::uint64_t low64() const { return m_limbs[0]; }
    // Bit i (0 = least significant) of the canonical value.
    bool bit(int i) const { return (m_limbs[i / 64] >> (i % 64)) & 1; }
    int bitLength() const;

    std::string toHex() const;           // "0x" + lowercase hex, no leading zeros ("0x0")
    std::string toDecimal() const;       // canonical value
    std::string toSignedDecimal() const; // representative in (-p/2, p/2), as cairo-run prints
    void toBytesBE(std::uint8_t out[32]) const;
    void toBytesLE(std::uint8_t out[32]) const;

    Felt operator+(const Felt& other) const;
    Felt operator-(const Felt& other) const;
    Felt operator*(const Felt& other) const;
    Felt operator-() const;
    Felt& operator+=(const Felt& other) { return *this = *this + other; }
    Felt& operator-=(const Felt& other) { return *this = *this - other; }
    Felt& operator*=(const Felt& other) { return *this = *this * other; }
    // Multiplicative inverse; the inverse of zero is zero (callers check first).
    Felt inverse() const;
    Felt pow(const Limbs& exponent) const;
    // A square root if one exists (the smaller of the two roots, as cairo-lang's sqrt hint).
    std::optional<Felt> sqrt() const;

    friend bool operator==(const Felt&, const Felt&) = default;
    // Order of the canonical values.
    friend bool operator<(const Felt& a, const Felt& b) {
        return u256LessThan(a.m_limbs, b.m_limbs);
    }
    friend bool operator>(const Felt& a, const Felt& b) { return b < a; }
    friend bool operator<=(const Felt& a, const Felt& b) { return !(b < a); }
    friend bool operator>=(const Felt& a, const Felt& b) { return !(a < b); }

private:
    static bool u256LessThan(const Limbs& a, const Limbs& b);
    Limbs m_limbs{0, 0, 0, 0};
};

// Integer quotient and remainder of canonical values (divisor != 0), as Python's divmod on
// non-negative ints.
std::pair<Felt, Felt> divmod(const Felt& dividend, const Felt& divisor);

// Unsigned 256-bit helpers used by field and curve code.
namespace u256 {
using Limbs = Felt::Limbs;
bool lessThan(const Limbs& a, const Limbs& b);
// a + b, returns the carry out.
std::uint64_t addTo(Limbs& a, const Limbs& b);
// a - b, returns the borrow out.
std::uint64_t subFrom(Limbs& a, const Limbs& b);
// Parses hex ("0x…") or decimal into 256 bits; nullopt if malformed or too large.
std::optional<Limbs> parse(std::string_view text);
std::string toHex(const Limbs& value);
std::string toDecimal(Limbs value);
int bitLength(const Limbs& value);
// Unsigned quotient and remainder (divisor != 0), by binary long division.
std::pair<Limbs, Limbs> divmod(const Limbs& dividend, const Limbs& divisor);
// floor(sqrt(n)), bit by bit.
Limbs isqrt(const Limbs& n);
} // namespace u256

} // namespace proofdesk::crypto
