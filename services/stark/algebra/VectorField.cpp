#include "VectorField.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
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

static_assert(kWordsPerPacked == rows::kWordsPerEight);

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
    // Base one (a transform's 1/n): the factor stays, so no product advances it.
    const bool advance = !(base == Fp::one());
    for (std::size_t i = 0; i < n; i += 8) {
        const Packed product = montgomeryProduct(loadElements(values + i, 1), powers);
        storeElements(values + i, 1, subtractPIfAbove(product));
        if (advance) {
            powers = montgomeryProduct(powers, step);
        }
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

// Packed rows (rows:: below): every value below 2p, limbs normalised.

// 16·b, limbs normalised (below 2^257 for b below 2p): a product's second operand. A product
// with it is below 2p (a·16b/2^260 < p/4 for a, b below 2p) and is a·b as Montgomery words.
PROOFDESK_IFMA_INLINE Packed timesSixteen(Packed b) {
    for (int k = 0; k < 5; ++k) {
        b.limb[k] = _mm512_slli_epi64(b.limb[k], 4);
    }
    carry(b);
    return b;
}

PROOFDESK_IFMA_FUNCTION void loadRowsPacked(const Fp* in, std::size_t rows, std::uint64_t* out) {
    for (std::size_t i = 0; i < rows; i += 8) {
        storePacked(out + i / 8 * kWordsPerPacked, loadElements(in + i, 1));
    }
}

PROOFDESK_IFMA_FUNCTION void storeRowsPacked(const std::uint64_t* in, std::size_t rows, Fp* out) {
    for (std::size_t i = 0; i < rows; i += 8) {
        storeElements(out + i, 1, subtractPIfAbove(loadPacked(in + i / 8 * kWordsPerPacked)));
    }
}

enum class RowsOp { Add, Subtract, Negate, Multiply };

template <RowsOp op>
PROOFDESK_IFMA_FUNCTION void rowsPacked(const std::uint64_t* a, const std::uint64_t* b,
                                        std::uint64_t* out, std::size_t rows) {
    Packed zero;
    for (__m512i& limb : zero.limb) {
        limb = _mm512_setzero_si512();
    }
    for (std::size_t w = 0; w < rows / 8 * kWordsPerPacked; w += kWordsPerPacked) {
        const Packed x = loadPacked(a + w);
        if constexpr (op == RowsOp::Negate) {
            storePacked(out + w, differenceBelowTwoP(zero, x));
        } else if constexpr (op == RowsOp::Add) {
            storePacked(out + w, sumBelowTwoP(x, loadPacked(b + w)));
        } else if constexpr (op == RowsOp::Subtract) {
            storePacked(out + w, differenceBelowTwoP(x, loadPacked(b + w)));
        } else {
            storePacked(out + w, montgomeryProduct(x, timesSixteen(loadPacked(b + w))));
        }
    }
}

// Term k's eight packed rows at word w.
struct RowsTerm {
    const std::uint64_t* const* terms;
    std::size_t w;
    PROOFDESK_IFMA_INLINE Packed operator()(std::size_t k) const {
        return loadPacked(terms[k] + w);
    }
};

// sum = Σ_k c_k·terms[k]: the products of up to kProductsPerReduction terms summed unreduced,
// then reduced once (a product's reduction costs about as much as its multiplications).
PROOFDESK_IFMA_FUNCTION void combineRowsPacked(const std::uint64_t* const* terms, const Fp* c,
                                               std::size_t count, std::uint64_t* sum,
                                               std::size_t rows) {
    thread_local std::vector<std::uint64_t> storage; // the factors as packed rows
    std::uint64_t* factors = alignedWords(storage, count * kWordsPerPacked);
    storeFactors(c, count, factors);
    for (std::size_t w = 0; w < rows / 8 * kWordsPerPacked; w += kWordsPerPacked) {
        Packed total;
        for (__m512i& limb : total.limb) {
            limb = _mm512_setzero_si512();
        }
        for (std::size_t first = 0; first < count; first += kProductsPerReduction) {
            total =
                sumBelowTwoP(total, sumOfProducts(RowsTerm{terms, w}, factors, first,
                                                  std::min(count, first + kProductsPerReduction)));
        }
        storePacked(sum + w, total);
    }
}

PROOFDESK_IFMA_FUNCTION void multiplyAddIntoPacked(const std::uint64_t* a, const Fp* b, Fp* sum,
                                                   std::size_t rows) {
    for (std::size_t i = 0; i < rows; i += 8) {
        const Packed product =
            montgomeryProduct(loadPacked(a + i / 8 * kWordsPerPacked), loadFactors(b + i, 1));
        storeElements(sum + i, 1, canonicalSum(product, loadElements(sum + i, 1)));
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

std::uint64_t* alignedWords(std::vector<std::uint64_t>& storage, std::size_t words) {
    if (storage.size() < words + 8) {
        storage.resize(words + 8);
    }
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    return storage.data() + ((64 - address % 64) % 64) / sizeof(std::uint64_t);
}

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

namespace rows {

#ifdef PROOFDESK_PACKED_FIELD
void load(const Fp* in, std::size_t rows, std::uint64_t* out) {
    loadRowsPacked(in, rows, out);
}

void store(const std::uint64_t* in, std::size_t rows, Fp* out) {
    storeRowsPacked(in, rows, out);
}

void fill(const Fp& value, std::size_t rows, std::uint64_t* out) {
    const Fp eight[8] = {value, value, value, value, value, value, value, value};
    for (std::size_t i = 0; i < rows; i += 8) {
        loadRowsPacked(eight, 8, out + i / 8 * kWordsPerPacked);
    }
}

void add(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out, std::size_t rows) {
    rowsPacked<RowsOp::Add>(a, b, out, rows);
}

void subtract(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out,
              std::size_t rows) {
    rowsPacked<RowsOp::Subtract>(a, b, out, rows);
}

void negate(const std::uint64_t* a, std::uint64_t* out, std::size_t rows) {
    rowsPacked<RowsOp::Negate>(a, nullptr, out, rows);
}

void multiply(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out,
              std::size_t rows) {
    rowsPacked<RowsOp::Multiply>(a, b, out, rows);
}

void combine(const std::uint64_t* const* terms, const Fp* c, std::size_t count, std::uint64_t* sum,
             std::size_t rows) {
    combineRowsPacked(terms, c, count, sum, rows);
}

void multiplyAddInto(const std::uint64_t* a, const Fp* b, Fp* sum, std::size_t rows) {
    multiplyAddIntoPacked(a, b, sum, rows);
}
#else
[[noreturn]] void unavailable() {
    throw std::logic_error("packed rows need the vector path (vector_field::enabled())");
}
void load(const Fp*, std::size_t, std::uint64_t*) {
    unavailable();
}
void store(const std::uint64_t*, std::size_t, Fp*) {
    unavailable();
}
void fill(const Fp&, std::size_t, std::uint64_t*) {
    unavailable();
}
void add(const std::uint64_t*, const std::uint64_t*, std::uint64_t*, std::size_t) {
    unavailable();
}
void subtract(const std::uint64_t*, const std::uint64_t*, std::uint64_t*, std::size_t) {
    unavailable();
}
void negate(const std::uint64_t*, std::uint64_t*, std::size_t) {
    unavailable();
}
void multiply(const std::uint64_t*, const std::uint64_t*, std::uint64_t*, std::size_t) {
    unavailable();
}
void combine(const std::uint64_t* const*, const Fp*, std::size_t, std::uint64_t*, std::size_t) {
    unavailable();
}
void multiplyAddInto(const std::uint64_t*, const Fp*, Fp*, std::size_t) {
    unavailable();
}
#endif

} // namespace rows

} // namespace proofdesk::stark::vector_field
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
