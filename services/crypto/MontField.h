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
inline Limbs reducePortable(const Limbs& r) {
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

inline Limbs addPortable(const Limbs& a, const Limbs& b) {
    u128 s = static_cast<u128>(a[0]) + b[0];
    Limbs r;
    r[0] = static_cast<std::uint64_t>(s);
    s = static_cast<u128>(a[1]) + b[1] + static_cast<std::uint64_t>(s >> 64);
    r[1] = static_cast<std::uint64_t>(s);
    s = static_cast<u128>(a[2]) + b[2] + static_cast<std::uint64_t>(s >> 64);
    r[2] = static_cast<std::uint64_t>(s);
    r[3] = a[3] + b[3] + static_cast<std::uint64_t>(s >> 64); // < 2^253: no overflow
    return reducePortable(r);
}

inline Limbs subPortable(const Limbs& a, const Limbs& b) {
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

// For the prover's transforms, values kept below 2p between steps: (a + b) brought below 2p, and
// a − b + 2p (below 4p, which mulLazy takes), for a, b below 2p.
inline Limbs addBelowTwoPPortable(const Limbs& a, const Limbs& b) {
    Limbs r;
    u128 t = static_cast<u128>(a[0]) + b[0];
    r[0] = static_cast<std::uint64_t>(t);
    for (std::size_t i = 1; i < 4; ++i) {
        t = static_cast<u128>(a[i]) + b[i] + static_cast<std::uint64_t>(t >> 64);
        r[i] = static_cast<std::uint64_t>(t);
    }
    // r − 2p unless that borrows.
    const Limbs twoP = {2, 0, 0, 2 * kP3};
    Limbs d;
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 x = static_cast<u128>(r[i]) - twoP[i] - borrow;
        d[i] = static_cast<std::uint64_t>(x);
        borrow = static_cast<std::uint64_t>(x >> 64) & 1;
    }
    return borrow ? r : d;
}
inline Limbs subPlusTwoPPortable(const Limbs& a, const Limbs& b) {
    const Limbs twoP = {2, 0, 0, 2 * kP3};
    Limbs r;
    std::uint64_t carry = 0, borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 x = static_cast<u128>(a[i]) + twoP[i] + carry;
        carry = static_cast<std::uint64_t>(x >> 64);
        const u128 y = static_cast<u128>(static_cast<std::uint64_t>(x)) - b[i] - borrow;
        r[i] = static_cast<std::uint64_t>(y);
        borrow = static_cast<std::uint64_t>(y >> 64) & 1;
    }
    return r;
}

// a − b brought into [0, 2p) (adding 2p when it borrows), for a, b below 2p.
inline Limbs subBelowTwoPPortable(const Limbs& a, const Limbs& b) {
    Limbs r;
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const u128 x = static_cast<u128>(a[i]) - b[i] - borrow;
        r[i] = static_cast<std::uint64_t>(x);
        borrow = static_cast<std::uint64_t>(x >> 64) & 1;
    }
    if (borrow) {
        const Limbs twoP = {2, 0, 0, 2 * kP3};
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < 4; ++i) {
            const u128 x = static_cast<u128>(r[i]) + twoP[i] + carry;
            r[i] = static_cast<std::uint64_t>(x);
            carry = static_cast<std::uint64_t>(x >> 64);
        }
    }
    return r;
}

#if defined(__x86_64__) && !defined(PROOFDESK_NO_ASM)
#define PROOFDESK_MONT_ASM 1
// The same three on x86-64 as adc/sbb/cmov chains (baseline instructions only), which the
// compiler's 128-bit arithmetic otherwise spills to the stack.
#define PROOFDESK_MONT_SUBTRACT_P_IF_ABOVE                                                         \
    "movq %[r0], %[s0]\n\t"                                                                        \
    "subq $1, %[s0]\n\t"                                                                           \
    "movq %[r1], %[s1]\n\t"                                                                        \
    "sbbq $0, %[s1]\n\t"                                                                           \
    "movq %[r2], %[s2]\n\t"                                                                        \
    "sbbq $0, %[s2]\n\t"                                                                           \
    "movq %[r3], %[s3]\n\t"                                                                        \
    "sbbq %[k], %[s3]\n\t"                                                                         \
    "cmovncq %[s0], %[r0]\n\t"                                                                     \
    "cmovncq %[s1], %[r1]\n\t"                                                                     \
    "cmovncq %[s2], %[r2]\n\t"                                                                     \
    "cmovncq %[s3], %[r3]\n\t"

inline Limbs reduce(const Limbs& r) {
    std::uint64_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], s0, s1, s2, s3;
    __asm__(PROOFDESK_MONT_SUBTRACT_P_IF_ABOVE
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [k] "r"(kP3)
            : "cc");
    return {r0, r1, r2, r3};
}

inline Limbs add(const Limbs& a, const Limbs& b) {
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], s0, s1, s2, s3;
    __asm__("addq 0(%[b]), %[r0]\n\t"
            "adcq 8(%[b]), %[r1]\n\t"
            "adcq 16(%[b]), %[r2]\n\t"
            "adcq 24(%[b]), %[r3]\n\t" PROOFDESK_MONT_SUBTRACT_P_IF_ABOVE
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [k] "r"(kP3), [b] "r"(b.data()), "m"(b)
            : "cc");
    return {r0, r1, r2, r3};
}

inline Limbs sub(const Limbs& a, const Limbs& b) {
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], mask, high;
    __asm__("subq 0(%[b]), %[r0]\n\t"
            "sbbq 8(%[b]), %[r1]\n\t"
            "sbbq 16(%[b]), %[r2]\n\t"
            "sbbq 24(%[b]), %[r3]\n\t"
            "sbbq %[mask], %[mask]\n\t" // all ones when it borrowed: add p back
            "movq %[k], %[high]\n\t"
            "andq %[mask], %[high]\n\t"
            "andq $1, %[mask]\n\t"
            "addq %[mask], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq %[high], %[r3]\n\t"
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [mask] "=&r"(mask),
              [high] "=&r"(high)
            : [k] "r"(kP3), [b] "r"(b.data()), "m"(b)
            : "cc");
    return {r0, r1, r2, r3};
}

inline Limbs addBelowTwoP(const Limbs& a, const Limbs& b) {
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], s0, s1, s2, s3;
    __asm__("addq 0(%[b]), %[r0]\n\t"
            "adcq 8(%[b]), %[r1]\n\t"
            "adcq 16(%[b]), %[r2]\n\t"
            "adcq 24(%[b]), %[r3]\n\t"
            "movq %[r0], %[s0]\n\t"
            "subq $2, %[s0]\n\t"
            "movq %[r1], %[s1]\n\t"
            "sbbq $0, %[s1]\n\t"
            "movq %[r2], %[s2]\n\t"
            "sbbq $0, %[s2]\n\t"
            "movq %[r3], %[s3]\n\t"
            "sbbq %[k], %[s3]\n\t"
            "cmovncq %[s0], %[r0]\n\t"
            "cmovncq %[s1], %[r1]\n\t"
            "cmovncq %[s2], %[r2]\n\t"
            "cmovncq %[s3], %[r3]\n\t"
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [k] "r"(2 * kP3), [b] "r"(b.data()), "m"(b)
            : "cc");
    return {r0, r1, r2, r3};
}

inline Limbs subPlusTwoP(const Limbs& a, const Limbs& b) {
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
    __asm__("addq $2, %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq %[k], %[r3]\n\t"
            "subq 0(%[b]), %[r0]\n\t"
            "sbbq 8(%[b]), %[r1]\n\t"
            "sbbq 16(%[b]), %[r2]\n\t"
            "sbbq 24(%[b]), %[r3]\n\t"
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3)
            : [k] "r"(2 * kP3), [b] "r"(b.data()), "m"(b)
            : "cc");
    return {r0, r1, r2, r3};
}
inline Limbs subBelowTwoP(const Limbs& a, const Limbs& b) {
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], mask, high;
    __asm__("subq 0(%[b]), %[r0]\n\t"
            "sbbq 8(%[b]), %[r1]\n\t"
            "sbbq 16(%[b]), %[r2]\n\t"
            "sbbq 24(%[b]), %[r3]\n\t"
            "sbbq %[mask], %[mask]\n\t" // all ones when it borrowed: add 2p back
            "movq %[k], %[high]\n\t"
            "andq %[mask], %[high]\n\t"
            "andq $2, %[mask]\n\t"
            "addq %[mask], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq %[high], %[r3]\n\t"
            : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [mask] "=&r"(mask),
              [high] "=&r"(high)
            : [k] "r"(2 * kP3), [b] "r"(b.data()), "m"(b)
            : "cc");
    return {r0, r1, r2, r3};
}
#undef PROOFDESK_MONT_SUBTRACT_P_IF_ABOVE
#else
inline Limbs subBelowTwoP(const Limbs& a, const Limbs& b) {
    return subBelowTwoPPortable(a, b);
}
inline Limbs addBelowTwoP(const Limbs& a, const Limbs& b) {
    return addBelowTwoPPortable(a, b);
}
inline Limbs subPlusTwoP(const Limbs& a, const Limbs& b) {
    return subPlusTwoPPortable(a, b);
}
inline Limbs reduce(const Limbs& r) {
    return reducePortable(r);
}
inline Limbs add(const Limbs& a, const Limbs& b) {
    return addPortable(a, b);
}
inline Limbs sub(const Limbs& a, const Limbs& b) {
    return subPortable(a, b);
}
#endif

// a·b·2^-256 mod p, not fully reduced: for a, b < 4p the result is below 2p. With T = a·b, the
// Montgomery factor M = −T·p^-1 mod 2^256 needs one word product here: p^-1 ≡ 1 − kP3·2^192
// (mod 2^256), so M = u·2^192 − (T mod 2^256) with u = T_0·kP3 mod 2^64, and
// (T + M·p)/2^256 = ⌊T/2^256⌋ + b + (u + kP3·M)/2^64, b the borrow of M's subtraction.
inline Limbs mulLazyPortable(const Limbs& a, const Limbs& b) {
    std::uint64_t t0, t1, t2, t3, t4, t5, t6, t7;
    {
        u128 t = static_cast<u128>(a[0]) * b[0];
        t0 = static_cast<std::uint64_t>(t);
        t = static_cast<u128>(a[1]) * b[0] + static_cast<std::uint64_t>(t >> 64);
        t1 = static_cast<std::uint64_t>(t);
        t = static_cast<u128>(a[2]) * b[0] + static_cast<std::uint64_t>(t >> 64);
        t2 = static_cast<std::uint64_t>(t);
        t = static_cast<u128>(a[3]) * b[0] + static_cast<std::uint64_t>(t >> 64);
        t3 = static_cast<std::uint64_t>(t);
        t4 = static_cast<std::uint64_t>(t >> 64);
    }
    // Row i adds a·b[i] at limb i; `top` receives the row's last carry.
    const auto row = [&](std::uint64_t bi, std::uint64_t& r0, std::uint64_t& r1, std::uint64_t& r2,
                         std::uint64_t& r3, std::uint64_t& top) {
        u128 t = static_cast<u128>(a[0]) * bi + r0;
        r0 = static_cast<std::uint64_t>(t);
        t = static_cast<u128>(a[1]) * bi + r1 + static_cast<std::uint64_t>(t >> 64);
        r1 = static_cast<std::uint64_t>(t);
        t = static_cast<u128>(a[2]) * bi + r2 + static_cast<std::uint64_t>(t >> 64);
        r2 = static_cast<std::uint64_t>(t);
        t = static_cast<u128>(a[3]) * bi + r3 + static_cast<std::uint64_t>(t >> 64);
        r3 = static_cast<std::uint64_t>(t);
        top = static_cast<std::uint64_t>(t >> 64);
    };
    row(b[1], t1, t2, t3, t4, t5);
    row(b[2], t2, t3, t4, t5, t6);
    row(b[3], t3, t4, t5, t6, t7);

    const std::uint64_t u = t0 * kP3;
    const std::uint64_t m0 = 0 - t0;
    std::uint64_t borrow = t0 != 0 ? 1 : 0;
    u128 d = static_cast<u128>(0) - t1 - borrow;
    const std::uint64_t m1 = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(0) - t2 - borrow;
    const std::uint64_t m2 = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;
    d = static_cast<u128>(u) - t3 - borrow;
    const std::uint64_t m3 = static_cast<std::uint64_t>(d);
    borrow = static_cast<std::uint64_t>(d >> 64) & 1;

    u128 k = static_cast<u128>(kP3) * m0 + u;
    k = static_cast<u128>(kP3) * m1 + static_cast<std::uint64_t>(k >> 64);
    const std::uint64_t k1 = static_cast<std::uint64_t>(k);
    k = static_cast<u128>(kP3) * m2 + static_cast<std::uint64_t>(k >> 64);
    const std::uint64_t k2 = static_cast<std::uint64_t>(k);
    k = static_cast<u128>(kP3) * m3 + static_cast<std::uint64_t>(k >> 64);
    const std::uint64_t k3 = static_cast<std::uint64_t>(k);
    const std::uint64_t k4 = static_cast<std::uint64_t>(k >> 64);

    u128 r = static_cast<u128>(t4) + k1 + borrow;
    Limbs out;
    out[0] = static_cast<std::uint64_t>(r);
    r = static_cast<u128>(t5) + k2 + static_cast<std::uint64_t>(r >> 64);
    out[1] = static_cast<std::uint64_t>(r);
    r = static_cast<u128>(t6) + k3 + static_cast<std::uint64_t>(r >> 64);
    out[2] = static_cast<std::uint64_t>(r);
    out[3] = t7 + k4 + static_cast<std::uint64_t>(r >> 64);
    return out;
}

// Only when optimising: unoptimised code keeps a frame pointer and spills, which leaves the
// register allocator too few registers for these operands.
#if defined(__x86_64__) && defined(__OPTIMIZE__) && !defined(PROOFDESK_NO_ASM)
#define PROOFDESK_MONT_MULX 1
// Whether this CPU has BMI2 and ADX (mulx, adcx, adox); set at start-up.
extern const bool kCpuHasMulx;

// The same product with mulx, adcx and adox (the two carry chains of a row run side by side),
// for CPUs with BMI2 and ADX: the same value as mulLazyPortable, in about half the time.
inline Limbs mulLazyMulx(const Limbs& a, const Limbs& b) {
    std::uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi;
    __asm__("movq 0(%[b]), %%rdx\n\t"
            "mulxq 0(%[a]), %[t0], %[t1]\n\t"
            "mulxq 8(%[a]), %[lo], %[t2]\n\t"
            "addq %[lo], %[t1]\n\t"
            "mulxq 16(%[a]), %[lo], %[t3]\n\t"
            "adcq %[lo], %[t2]\n\t"
            "mulxq 24(%[a]), %[lo], %[t4]\n\t"
            "adcq %[lo], %[t3]\n\t"
            "adcq $0, %[t4]\n\t"
            // Rows 1 … 3: a·b[i] added at limb i, low halves on CF, high halves on OF.
            "movq 8(%[b]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            "mulxq 0(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t1]\n\t"
            "adoxq %[hi], %[t2]\n\t"
            "mulxq 8(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t2]\n\t"
            "adoxq %[hi], %[t3]\n\t"
            "mulxq 16(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t3]\n\t"
            "adoxq %[hi], %[t4]\n\t"
            "mulxq 24(%[a]), %[lo], %[t5]\n\t"
            "adcxq %[lo], %[t4]\n\t"
            "movq $0, %[lo]\n\t"
            "adoxq %[lo], %[t5]\n\t"
            "adcxq %[lo], %[t5]\n\t"
            "movq 16(%[b]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            "mulxq 0(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t2]\n\t"
            "adoxq %[hi], %[t3]\n\t"
            "mulxq 8(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t3]\n\t"
            "adoxq %[hi], %[t4]\n\t"
            "mulxq 16(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t4]\n\t"
            "adoxq %[hi], %[t5]\n\t"
            "mulxq 24(%[a]), %[lo], %[t6]\n\t"
            "adcxq %[lo], %[t5]\n\t"
            "movq $0, %[lo]\n\t"
            "adoxq %[lo], %[t6]\n\t"
            "adcxq %[lo], %[t6]\n\t"
            "movq 24(%[b]), %%rdx\n\t"
            "xorl %k[lo], %k[lo]\n\t"
            "mulxq 0(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t3]\n\t"
            "adoxq %[hi], %[t4]\n\t"
            "mulxq 8(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t4]\n\t"
            "adoxq %[hi], %[t5]\n\t"
            "mulxq 16(%[a]), %[lo], %[hi]\n\t"
            "adcxq %[lo], %[t5]\n\t"
            "adoxq %[hi], %[t6]\n\t"
            "mulxq 24(%[a]), %[lo], %[t7]\n\t"
            "adcxq %[lo], %[t6]\n\t"
            "movq $0, %[lo]\n\t"
            "adoxq %[lo], %[t7]\n\t"
            "adcxq %[lo], %[t7]\n\t"
            // u = t0·kP3 (lo); M = u·2^192 − T_low as (t0, hi, t1, t2); b = the borrow (t3).
            "movabsq $0x0800000000000011, %%rdx\n\t"
            "movq %[t0], %[lo]\n\t"
            "imulq %%rdx, %[lo]\n\t"
            "negq %[t0]\n\t"
            "movq $0, %[hi]\n\t"
            "sbbq %[t1], %[hi]\n\t"
            "movq $0, %[t1]\n\t"
            "sbbq %[t2], %[t1]\n\t"
            "movq %[lo], %[t2]\n\t"
            "sbbq %[t3], %[t2]\n\t"
            "movq $0, %[t3]\n\t"
            "adcq $0, %[t3]\n\t"
            "addq %[t3], %[t4]\n\t"
            "adcq $0, %[t5]\n\t"
            "adcq $0, %[t6]\n\t"
            "adcq $0, %[t7]\n\t"
            // + limbs 1 … 4 of kP3·M + u.
            "mulxq %[t0], %[t0], %[t3]\n\t"
            "addq %[lo], %[t0]\n\t"
            "mulxq %[hi], %[lo], %[t0]\n\t"
            "adcq %[t3], %[lo]\n\t"
            "mulxq %[t1], %[hi], %[t3]\n\t"
            "adcq %[t0], %[hi]\n\t"
            "mulxq %[t2], %[t1], %[t0]\n\t"
            "adcq %[t3], %[t1]\n\t"
            "adcq $0, %[t0]\n\t"
            "addq %[lo], %[t4]\n\t"
            "adcq %[hi], %[t5]\n\t"
            "adcq %[t1], %[t6]\n\t"
            "adcq %[t0], %[t7]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [a] "r"(a.data()), [b] "r"(b.data()), "m"(a), "m"(b)
            : "rdx", "cc");
    return {t4, t5, t6, t7};
}
#endif

__attribute__((always_inline)) inline Limbs mulLazy(const Limbs& a, const Limbs& b) {
#ifdef PROOFDESK_MONT_MULX
    if (__builtin_expect(kCpuHasMulx, 1)) {
        return mulLazyMulx(a, b);
    }
#endif
    return mulLazyPortable(a, b);
}

// a·b·2^-256 mod p, below p (a, b < 4p).
__attribute__((always_inline)) inline Limbs mul(const Limbs& a, const Limbs& b) {
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
