#pragma once

#include "Felt.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proofdesk::crypto {

// Signed integers of any size, with Python's floor semantics for division and remainder: what
// hints compute over moduli other than the STARK prime (secp256k1, secp256r1, ed25519) and over
// 384/768-bit limb packings.
class BigInt {
public:
    BigInt() = default;
    BigInt(std::int64_t value); // NOLINT(google-explicit-constructor): integers mix freely

    static BigInt fromFelt(const Felt& value);       // 0 .. p-1
    static BigInt fromFeltSigned(const Felt& value); // cairo-lang as_int: values above p/2 < 0
    static BigInt fromU256(const Felt::Limbs& limbs);
    // Decimal, or hexadecimal with 0x; an optional leading '-'.
    static std::optional<BigInt> parse(std::string_view text);
    static BigInt powerOfTwo(int bits);

    Felt toFelt() const; // this mod p
    // The value when 0 <= value < 2^256.
    std::optional<Felt::Limbs> toU256() const;

    bool isZero() const { return m_magnitude.empty(); }
    bool isNegative() const { return m_negative; }
    bool isOdd() const { return !m_magnitude.empty() && (m_magnitude[0] & 1); }
    int bitLength() const; // of the magnitude
    std::uint64_t low64() const;

    friend bool operator==(const BigInt& a, const BigInt& b) {
        return a.m_negative == b.m_negative && a.m_magnitude == b.m_magnitude;
    }
    friend bool operator!=(const BigInt& a, const BigInt& b) { return !(a == b); }
    friend bool operator<(const BigInt& a, const BigInt& b) { return compare(a, b) < 0; }
    friend bool operator<=(const BigInt& a, const BigInt& b) { return compare(a, b) <= 0; }
    friend bool operator>(const BigInt& a, const BigInt& b) { return compare(a, b) > 0; }
    friend bool operator>=(const BigInt& a, const BigInt& b) { return compare(a, b) >= 0; }
    static int compare(const BigInt& a, const BigInt& b);

    BigInt operator-() const;
    friend BigInt operator+(const BigInt& a, const BigInt& b);
    friend BigInt operator-(const BigInt& a, const BigInt& b);
    friend BigInt operator*(const BigInt& a, const BigInt& b);
    BigInt operator<<(int bits) const;
    BigInt operator>>(int bits) const; // floor division by 2^bits

    // Python divmod: q = floor(a / b), r = a - q·b (r has the sign of b). Throws on b = 0.
    static std::pair<BigInt, BigInt> divmod(const BigInt& a, const BigInt& b);
    BigInt mod(const BigInt& m) const { return divmod(*this, m).second; }
    // base^exponent mod m for exponent >= 0 and m > 0.
    static BigInt powMod(const BigInt& base, const BigInt& exponent, const BigInt& m);
    // a^-1 mod m, or nullopt when gcd(a, m) != 1.
    static std::optional<BigInt> inverseMod(const BigInt& a, const BigInt& m);
    // cairo-lang div_mod(a, b, m): a·b^-1 mod m; nullopt when b is not invertible.
    static std::optional<BigInt> divMod(const BigInt& a, const BigInt& b, const BigInt& m);
    static BigInt isqrt(const BigInt& n); // floor(sqrt(n)) for n >= 0
    // cairo-lang is_quad_residue(n, p) for p > 0: n ≡ 0, or n^((p-1)/2) ≡ 1 (mod p).
    static bool isQuadResidue(const BigInt& n, const BigInt& p);
    // The smaller square root of n modulo the prime p (cairo-lang sqrt: Tonelli-Shanks), or
    // nullopt when n is not a square or p is not an odd prime. Every loop is bounded, so a
    // composite p fails instead of running on.
    static std::optional<BigInt> sqrtModPrime(const BigInt& n, const BigInt& p);

    std::string toDecimal() const;
    std::string toHex() const; // "0x..." / "-0x..."

private:
    using Magnitude = std::vector<std::uint32_t>; // little-endian, no leading zero limbs
    static int compareMagnitude(const Magnitude& a, const Magnitude& b);
    static Magnitude addMagnitude(const Magnitude& a, const Magnitude& b);
    static Magnitude subMagnitude(const Magnitude& a, const Magnitude& b); // a >= b
    static Magnitude mulMagnitude(const Magnitude& a, const Magnitude& b);
    static void divmodMagnitude(const Magnitude& a, const Magnitude& b, Magnitude* q, Magnitude* r);
    static void trim(Magnitude& m);
    static BigInt make(bool negative, Magnitude magnitude);

    bool m_negative = false;
    Magnitude m_magnitude;
};

} // namespace proofdesk::crypto
