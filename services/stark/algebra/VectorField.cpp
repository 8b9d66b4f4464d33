#include "VectorField.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 reports the shift and insert intrinsics' deliberately undefined pass-through operand
// (_mm512_undefined_epi32) as (maybe) uninitialised wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include "PackedField.h"

namespace proofdesk::stark::vector_field {
namespace {

bool cpuHasIfma() {
#if defined(PROOFDESK_EMULATED_AVX512)
    return true; // the intrinsics are emulated: any CPU runs them
#elif defined(PROOFDESK_PACKED_FIELD)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
#else
    return false;
#endif
}

const bool kCpuHasIfma = cpuHasIfma();
std::atomic<bool> g_switchedOff{false};

#ifdef PROOFDESK_PACKED_FIELD
using namespace packed;

// a + b for a below 2p and b below p, as canonical words.
PROOFDESK_IFMA_INLINE Packed canonicalSum(const Packed& a, const Packed& b) {
    Packed sum;
    for (int k = 0; k < 5; ++k) {
        sum.limb[k] = _mm512_add_epi64(a.limb[k], b.limb[k]);
    }
    carry(sum);
    return subtractPIfAbove(subtractPIfAbove(sum));
}

// The first n (a multiple of 8) elements.
PROOFDESK_IFMA_FUNCTION void multiplyPacked(const Fp* a, const Fp* b, Fp* out, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 8) {
        const Packed product = montgomeryProduct(loadElements(a + i, 1), loadFactors(b + i, 1));
        storeElements(out + i, 1, subtractPIfAbove(product));
    }
}

PROOFDESK_IFMA_FUNCTION void multiplyAddPacked(const Fp* a, const Fp* b, Fp* sum, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 8) {
        const Packed product = montgomeryProduct(loadElements(a + i, 1), loadFactors(b + i, 1));
        storeElements(sum + i, 1, canonicalSum(product, loadElements(sum + i, 1)));
    }
}

PROOFDESK_IFMA_FUNCTION void scaleAddPacked(const Fp* a, const Fp& c, Fp* sum, std::size_t n) {
    const Packed factor = broadcastFactor(c);
    for (std::size_t i = 0; i < n; i += 8) {
        const Packed product = montgomeryProduct(loadElements(a + i, 1), factor);
        storeElements(sum + i, 1, canonicalSum(product, loadElements(sum + i, 1)));
    }
}
// start·base^j for the eight lanes j, and base^8, the step from one eight to the next.
struct EightPowers {
    Fp first[8];
    Fp step;
    EightPowers(const Fp& start, const Fp& base) {
        first[0] = start;
        for (std::size_t j = 1; j < 8; ++j) {
            first[j] = first[j - 1] * base;
        }
        step = base * base;
        step *= step;
        step *= step;
    }
};

// The lanes hold 16·W(start·base^(i+j)) (W: a Montgomery word) as factors; multiplying them by
// the factor 16·W(base^8) keeps that form, so one product per eight values advances them.
PROOFDESK_IFMA_FUNCTION void scaleByPowersPacked(Fp* values, const Fp& start, const Fp& base,
                                                 std::size_t n) {
    const EightPowers lanes(start, base);
    Packed powers = loadFactors(lanes.first, 1);
    const Packed step = broadcastFactor(lanes.step);
    for (std::size_t i = 0; i < n; i += 8) {
        const Packed product = montgomeryProduct(loadElements(values + i, 1), powers);
        storeElements(values + i, 1, subtractPIfAbove(product));
        powers = montgomeryProduct(powers, step);
    }
}
// The lanes hold start·base^(i+j) as elements; a product with the factor 16·W(base^8) advances
// them (below 2p, which canonicalSum takes).
PROOFDESK_IFMA_FUNCTION void addPowersPacked(Fp* values, const Fp& start, const Fp& base,
                                             std::size_t n) {
    const EightPowers lanes(start, base);
    Packed powers = loadElements(lanes.first, 1);
    const Packed step = broadcastFactor(lanes.step);
    for (std::size_t i = 0; i < n; i += 8) {
        storeElements(values + i, 1, canonicalSum(powers, loadElements(values + i, 1)));
        powers = montgomeryProduct(powers, step);
    }
}
#endif

// The elements the vector path takes (a multiple of 8; none without it).
std::size_t vectorPart(std::size_t n) {
#ifdef PROOFDESK_PACKED_FIELD
    return enabled() ? n - n % 8 : 0;
#else
    (void)n;
    return 0;
#endif
}

} // namespace

bool enabled() {
    return kCpuHasIfma && !g_switchedOff.load(std::memory_order_relaxed);
}

void setEnabled(bool on) {
    g_switchedOff.store(!on, std::memory_order_relaxed);
}

void multiply(std::span<const Fp> a, std::span<const Fp> b, std::span<Fp> out) {
    const std::size_t vector = vectorPart(out.size());
#ifdef PROOFDESK_PACKED_FIELD
    if (vector > 0) {
        multiplyPacked(a.data(), b.data(), out.data(), vector);
    }
#endif
    for (std::size_t i = vector; i < out.size(); ++i) {
        out[i] = a[i] * b[i];
    }
}

void multiplyAdd(std::span<const Fp> a, std::span<const Fp> b, std::span<Fp> sum) {
    const std::size_t vector = vectorPart(sum.size());
#ifdef PROOFDESK_PACKED_FIELD
    if (vector > 0) {
        multiplyAddPacked(a.data(), b.data(), sum.data(), vector);
    }
#endif
    for (std::size_t i = vector; i < sum.size(); ++i) {
        sum[i] += a[i] * b[i];
    }
}

void scaleAdd(std::span<const Fp> a, const Fp& c, std::span<Fp> sum) {
    const std::size_t vector = vectorPart(sum.size());
#ifdef PROOFDESK_PACKED_FIELD
    if (vector > 0) {
        scaleAddPacked(a.data(), c, sum.data(), vector);
    }
#endif
    for (std::size_t i = vector; i < sum.size(); ++i) {
        sum[i] += c * a[i];
    }
}

void scaleByPowers(std::span<Fp> values, const Fp& start, const Fp& base) {
    const std::size_t vector = vectorPart(values.size());
#ifdef PROOFDESK_PACKED_FIELD
    if (vector > 0) {
        scaleByPowersPacked(values.data(), start, base, vector);
    }
#endif
    Fp power = start * base.pow(std::uint64_t(vector));
    for (std::size_t i = vector; i < values.size(); ++i) {
        values[i] *= power;
        power *= base;
    }
}

void addPowers(std::span<Fp> values, const Fp& start, const Fp& base) {
    const std::size_t vector = vectorPart(values.size());
#ifdef PROOFDESK_PACKED_FIELD
    if (vector > 0) {
        addPowersPacked(values.data(), start, base, vector);
    }
#endif
    Fp power = start * base.pow(std::uint64_t(vector));
    for (std::size_t i = vector; i < values.size(); ++i) {
        values[i] += power;
        power *= base;
    }
}

} // namespace proofdesk::stark::vector_field
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
