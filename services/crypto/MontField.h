#pragma once

// Montgomery-domain arithmetic on raw limbs (value·2^256 mod p), inline for the hash and curve
// inner loops. p = 2^251 + 17·2^192 + 1 = (1, 0, 0, kP3) in little-endian limbs; since
// p ≡ 1 (mod 2^64), the Montgomery constant -p^-1 mod 2^64 is 2^64 - 1.

#include <array>
#include <cstdint>

namespace proofdesk::crypto::mont {

using Limbs = std::array<std::uint64_t, 4>;
__extension__ typedef unsigned __int128 u128;

inline constexpr std::uint64_t kP3 = 0x0800000000000011ULL;

// r - p if r >= p, else r (r < 2p).
inline Limbs reduce(const Limbs& r) {
    u128 d = static_cast<u128>(r[0]) - 1;
    const std::uint64_t s0 = static_cast<std::uint64_t>(d);
    std::uint64_t borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(r[1]) - borrow;
    const std::uint64_t s1 = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(r[2]) - borrow;
    const std::uint64_t s2 = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(r[3]) - kP3 - borrow;
    const std::uint64_t s3 = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    // Branch-free select: keep r when the subtraction borrowed (r < p).
    const std::uint64_t keep = 0 - borrow;
    return {(r[0] & keep) | (s0 & ~keep), (r[1] & keep) | (s1 & ~keep),
            (r[2] & keep) | (s2 & ~keep), (r[3] & keep) | (s3 & ~keep)};
}

inline Limbs add(const Limbs& a, const Limbs& b) {
    u128 s = static_cast<u128>(a[0]) + b[0];
    Limbs r;
    r[0] = static_cast<std::uint64_t>(s);
    s = static_cast<u128>(a[1]) + b[1] + static_cast<std::uint64_t>(s >> 64);
    r[1] = static_cast<std::uint64_t>(s);
    s = static_cast<u128>(a[2]) + b[2] + static_cast<std::uint64_t>(s >> 64);
    r[2] = static_cast<std::uint64_t>(s);
    r[3] = a[3] + b[3] + static_cast<std::uint64_t>(s >> 64); // < 2^253: no overflow
    return reduce(r);
}

inline Limbs sub(const Limbs& a, const Limbs& b) {
    u128 d = static_cast<u128>(a[0]) - b[0];
    Limbs r;
    r[0] = static_cast<std::uint64_t>(d);
    std::uint64_t borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(a[1]) - b[1] - borrow;
    r[1] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(a[2]) - b[2] - borrow;
    r[2] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(a[3]) - b[3] - borrow;
    r[3] = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    // Branch-free: add p back when the subtraction borrowed.
    const std::uint64_t mask = 0 - borrow;
    u128 t = static_cast<u128>(r[0]) + (1 & mask);
    r[0] = static_cast<std::uint64_t>(t);
    t = static_cast<u128>(r[1]) + static_cast<std::uint64_t>(t >> 64);
    r[1] = static_cast<std::uint64_t>(t);
    t = static_cast<u128>(r[2]) + static_cast<std::uint64_t>(t >> 64);
    r[2] = static_cast<std::uint64_t>(t);
    r[3] = r[3] + (kP3 & mask) + static_cast<std::uint64_t>(t >> 64);
    return r;
}

// a·b·2^-256 mod p (CIOS), not fully reduced: for a, b < 4p the result is below 2p (it is
// below a·b/2^256 + p). Per round: t += a·b[i]; m = -t0; t += m·p, which for p's sparse limbs
// (1, 0, 0, kP3) zeroes t0 with a carry of (t0 != 0) and adds m·kP3 at limb 3; shift.
inline Limbs mulLazy(const Limbs& a, const Limbs& b) {
    std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int i = 0; i < 4; ++i) {
        const std::uint64_t bi = b[i];
        u128 c = static_cast<u128>(a[0]) * bi + t0;
        t0 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(a[1]) * bi + t1 + static_cast<std::uint64_t>(c >> 64);
        t1 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(a[2]) * bi + t2 + static_cast<std::uint64_t>(c >> 64);
        t2 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(a[3]) * bi + t3 + static_cast<std::uint64_t>(c >> 64);
        t3 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(t4) + static_cast<std::uint64_t>(c >> 64);
        t4 = static_cast<std::uint64_t>(c);
        const std::uint64_t t5 = static_cast<std::uint64_t>(c >> 64);

        const std::uint64_t m = 0 - t0;
        c = static_cast<u128>(t1) + (t0 != 0 ? 1 : 0);
        t0 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(t2) + static_cast<std::uint64_t>(c >> 64);
        t1 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(m) * kP3 + t3 + static_cast<std::uint64_t>(c >> 64);
        t2 = static_cast<std::uint64_t>(c);
        c = static_cast<u128>(t4) + static_cast<std::uint64_t>(c >> 64);
        t3 = static_cast<std::uint64_t>(c);
        t4 = t5 + static_cast<std::uint64_t>(c >> 64);
    }
    return {t0, t1, t2, t3};
}

// a·b·2^-256 mod p, below p (a, b < 4p).
inline Limbs mul(const Limbs& a, const Limbs& b) {
    return reduce(mulLazy(a, b));
}

inline Limbs square(const Limbs& a) {
    return mul(a, a);
}

inline bool isZero(const Limbs& a) {
    return (a[0] | a[1] | a[2] | a[3]) == 0;
}

Limbs toMont(const Limbs& canonical);
Limbs fromMont(const Limbs& m);
Limbs inverse(const Limbs& a); // of a Montgomery value, in Montgomery form
const Limbs& one();            // 1 in Montgomery form

} // namespace proofdesk::crypto::mont
