#include "VectorField.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

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

// Horner's rule for K points at once over the eight segments of `a` (segment s: the `length`
// coefficients from s·length) held in the lanes: per step one load of eight coefficients and one
// product per point, the points' chains independent. lanes[8q + s] gets segment s at point q.
template <std::size_t K>
PROOFDESK_IFMA_FUNCTION void segmentHornerPacked(const Fp* a, std::size_t length, const Fp* points,
                                                 Fp* lanes) {
    Packed factor[K];
    Packed sum[K];
    for (std::size_t q = 0; q < K; ++q) {
        factor[q] = broadcastFactor(points[q]);
        for (int l = 0; l < 5; ++l) {
            sum[q].limb[l] = _mm512_setzero_si512();
        }
    }
    for (std::size_t i = length; i-- > 0;) {
        const Packed next = loadElements(a + i, length);
        for (std::size_t q = 0; q < K; ++q) {
            sum[q] = montgomeryProduct(sum[q], factor[q]); // below 2p
            for (int l = 0; l < 5; ++l) {
                sum[q].limb[l] = _mm512_add_epi64(sum[q].limb[l], next.limb[l]);
            }
            carry(sum[q]); // below 3p
        }
    }
    for (std::size_t q = 0; q < K; ++q) {
        storeElements(lanes + 8 * q, 1, subtractPIfAbove(subtractPIfAbove(sum[q])));
    }
}

// The carry chains of eight blocks of `length` values (block s: the values from s·length) in
// the lanes: from the top down, carry = next + a·carry with carry 0 first and next the value
// above the block (above[s]) then each of its own, the carry written in place of the value just
// read; below[s] gets the block's bottom value as it was. (Two or four such chains side by side,
// which would hide the products' latency, were no faster: the eight strided streams a chain
// reads and writes are what bounds it.)
PROOFDESK_IFMA_FUNCTION void carryChainsPacked(Fp* values, std::size_t length, const Fp& a,
                                               const Fp* above, Fp* below) {
    const Packed factor = broadcastFactor(a);
    Packed sum;
    for (int l = 0; l < 5; ++l) {
        sum.limb[l] = _mm512_setzero_si512();
    }
    Packed next = loadElements(above, 1);
    for (std::size_t j = length; j-- > 0;) {
        sum = canonicalSum(montgomeryProduct(sum, factor), next);
        next = loadElements(values + j, length);
        storeElements(values + j, length, sum);
    }
    storeElements(below, 1, next);
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

bool evaluateAt(std::span<const Fp> coefficients, std::span<const Fp> points,
                std::span<Fp> values) {
#ifdef PROOFDESK_PACKED_FIELD
    const std::size_t n = coefficients.size();
    if (!enabled() || n % 8 != 0 || n < 64) {
        return false;
    }
    const std::size_t length = n / 8;
    std::vector<Fp> lanes(8 * points.size());
    // At most four points a pass over the coefficients: their chains fill the registers.
    for (std::size_t first = 0; first < points.size(); first += 4) {
        const Fp* at = points.data() + first;
        Fp* out = lanes.data() + 8 * first;
        switch (std::min<std::size_t>(4, points.size() - first)) {
        case 1:
            segmentHornerPacked<1>(coefficients.data(), length, at, out);
            break;
        case 2:
            segmentHornerPacked<2>(coefficients.data(), length, at, out);
            break;
        case 3:
            segmentHornerPacked<3>(coefficients.data(), length, at, out);
            break;
        default:
            segmentHornerPacked<4>(coefficients.data(), length, at, out);
            break;
        }
    }
    // p(x) = Σ_s x^(s·length)·segment_s(x).
    for (std::size_t q = 0; q < points.size(); ++q) {
        const Fp step = points[q].pow(std::uint64_t(length));
        Fp value = Fp::zero();
        for (std::size_t s = 8; s-- > 0;) {
            value = value * step + lanes[8 * q + s];
        }
        values[q] = value;
    }
    return true;
#else
    (void)coefficients;
    (void)points;
    (void)values;
    return false;
#endif
}

bool carryChains(std::span<Fp> values, std::size_t blocks, const Fp& a, std::span<const Fp> above,
                 std::span<Fp> below) {
#ifdef PROOFDESK_PACKED_FIELD
    if (!enabled() || blocks == 0 || blocks % 8 != 0 || values.size() % blocks != 0 ||
        above.size() != blocks || below.size() != blocks) {
        return false;
    }
    const std::size_t length = values.size() / blocks;
    for (std::size_t first = 0; first < blocks; first += 8) {
        carryChainsPacked(values.data() + first * length, length, a, above.data() + first,
                          below.data() + first);
    }
    return true;
#else
    (void)values;
    (void)blocks;
    (void)a;
    (void)above;
    (void)below;
    return false;
#endif
}

} // namespace proofdesk::stark::vector_field
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
