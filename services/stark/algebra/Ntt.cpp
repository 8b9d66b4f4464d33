#include "Ntt.h"

#include "NttVector.h"
#include "Parallel.h"
#include "Polynomials.h"
#include "VectorField.h"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>

namespace proofdesk::stark {
namespace {

using Limbs = crypto::mont::Limbs;
static_assert(sizeof(Fp) == sizeof(Limbs) && std::is_standard_layout_v<Fp>,
              "an Fp is its Montgomery word");

// The transforms are remainder trees: a block of 2h coefficients reduced modulo X^2h − c² splits
// into its remainders modulo X^h − c and X^h + c, which is the butterfly (x + c·y, x − c·y) on
// the block's halves. Starting from c = 1 and n coefficients, after log n levels slot i holds the
// value at ω^bitrev(i). Block k of a level (of any size) takes c = ω_n^bitrev(k) written with
// log n − 1 bits, so one table T[k] = ω_N^bitrev_(log N − 1)(k) of the largest size N serves every
// transform (its first n/2 entries), read in order; the inverse walks the tree back up with
// T[k]^−1 and (a + b, (a − b)·c^−1), then divides by n. Values stay below 2p between levels.
class Twiddles {
public:
    std::shared_ptr<const std::vector<Fp>> forLog(int log, bool inverse) {
        const std::lock_guard lock(m_mutex);
        Table& table = inverse ? m_inverse : m_forward;
        if (!table.powers || table.log < log) {
            const std::size_t size = std::size_t(1) << (log - 1);
            auto powers = std::make_shared<std::vector<Fp>>(size);
            const Fp root = inverse ? inverseRootOfUnity(log) : rootOfUnity(log);
            std::vector<Fp>& p = *powers;
            Workers::shared().forRange(size, 1 << 12, [&](std::size_t begin, std::size_t end) {
                Fp value = root.pow(std::uint64_t(begin));
                for (std::size_t j = begin; j < end; ++j) {
                    p[bitReverse(j, log - 1)] = value;
                    value *= root;
                }
            });
            table.powers = std::move(powers);
            table.log = log;
        }
        return table.powers;
    }

    void release() {
        const std::lock_guard lock(m_mutex);
        m_forward = {};
        m_inverse = {};
    }

private:
    struct Table {
        std::shared_ptr<const std::vector<Fp>> powers;
        int log = 0;
    };
    std::mutex m_mutex;
    Table m_forward;
    Table m_inverse;
};

Twiddles& twiddles() {
    static Twiddles instance;
    return instance;
}

// Blocks of this many elements (256 KiB) take all their levels at once, in cache.
constexpr std::size_t kBlock = std::size_t(1) << 13;

// The butterflies (x_j, y_j), j in [begin, end), of one block whose halves start at x and
// y = x + h; `c` is the block's twiddle, `unit` says it is 1 (block 0).
void forwardButterflies(Limbs* x, Limbs* y, const Limbs& c, bool unit, std::size_t begin,
                        std::size_t end) {
    namespace mont = crypto::mont;
    if (unit) {
        for (std::size_t j = begin; j < end; ++j) {
            const Limbs t = y[j];
            y[j] = mont::subBelowTwoP(x[j], t);
            x[j] = mont::addBelowTwoP(x[j], t);
        }
        return;
    }
    for (std::size_t j = begin; j < end; ++j) {
        const Limbs t = mont::mulLazy(c, y[j]);
        y[j] = mont::subBelowTwoP(x[j], t);
        x[j] = mont::addBelowTwoP(x[j], t);
    }
}

void inverseButterflies(Limbs* x, Limbs* y, const Limbs& c, bool unit, std::size_t begin,
                        std::size_t end) {
    namespace mont = crypto::mont;
    if (unit) {
        for (std::size_t j = begin; j < end; ++j) {
            const Limbs u = x[j];
            x[j] = mont::addBelowTwoP(u, y[j]);
            y[j] = mont::subBelowTwoP(u, y[j]);
        }
        return;
    }
    for (std::size_t j = begin; j < end; ++j) {
        const Limbs u = x[j];
        x[j] = mont::addBelowTwoP(u, y[j]);
        y[j] = mont::mulLazy(mont::subPlusTwoP(u, y[j]), c);
    }
}

// The levels of half-width h over blocks [firstBlock, firstBlock + blocks) of `a` (block b at
// a + 2h·(b − firstBlock)), and over butterflies [begin, end) of each.
template <typename Butterflies>
void blocks(Limbs* a, std::size_t h, std::size_t firstBlock, std::size_t count, const Fp* table,
            Butterflies butterflies) {
    for (std::size_t b = 0; b < count; ++b) {
        Limbs* x = a + 2 * h * b;
        const std::size_t global = firstBlock + b;
        butterflies(x, x + h, table[global].montgomery(), global == 0, 0, h);
    }
}

// One level of half-width h over the whole array, split over the workers by butterflies.
template <typename Butterflies>
void level(Limbs* a, std::size_t n, std::size_t h, const Fp* table, Butterflies butterflies) {
    Workers::shared().forRange(n / 2, 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end;) {
            const std::size_t block = k / h;
            const std::size_t j = k % h;
            const std::size_t stop = std::min(h, j + (end - k));
            Limbs* x = a + 2 * h * block;
            butterflies(x, x + h, table[block].montgomery(), block == 0, j, stop);
            k += stop - j;
        }
    });
}

// Values below 2p -> below p.
void reduceAll(std::span<Fp> values) {
    Limbs* a = reinterpret_cast<Limbs*>(values.data());
    Workers::shared().forRange(values.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            a[i] = crypto::mont::reduce(a[i]);
        }
    });
}

// The transform of `values` in place. A forward one may take its input as source[k]·factors[k]
// instead (source may be values): the vector path multiplies in its first pass, the scalar one
// in a pass of its own.
void transform(std::span<Fp> values, bool inverse, const Fp* source = nullptr,
               const Fp* factors = nullptr) {
    const std::size_t n = values.size();
    const bool vectors = vector_field::enabled() && n >= vector_ntt::kMinimumSize;
    if (factors && !vectors) {
        Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                values[k] = source[k] * factors[k];
            }
        });
    }
    if (n <= 1) {
        return;
    }
    const int log = std::countr_zero(n);
    const auto tablePointer = twiddles().forLog(log, inverse);
    const Fp* table = tablePointer->data();
    if (vectors) {
        if (inverse) {
            vector_ntt::inverseLevels(values.data(), n, table);
        } else {
            vector_ntt::forwardLevels(values.data(), n, table, source, factors);
        }
        reduceAll(values);
        return;
    }
    Limbs* a = reinterpret_cast<Limbs*>(values.data());
    const std::size_t block = std::min(n, kBlock);
    // The levels inside one cache block: half-widths block/2 … 1 (forward) or 1 … block/2.
    const auto inCache = [&](std::size_t first) {
        for (std::size_t h = inverse ? 1 : block / 2; h >= 1 && h <= block / 2;
             h = inverse ? 2 * h : h / 2) {
            const std::size_t count = block / (2 * h);
            const std::size_t firstBlock = first / (2 * h);
            if (inverse) {
                blocks(a + first, h, firstBlock, count, table, inverseButterflies);
            } else {
                blocks(a + first, h, firstBlock, count, table, forwardButterflies);
            }
        }
    };
    if (!inverse) {
        for (std::size_t h = n / 2; 2 * h > block; h /= 2) {
            level(a, n, h, table, forwardButterflies);
        }
        Workers::shared().forEach(n / block, [&](std::size_t i) { inCache(i * block); });
    } else {
        Workers::shared().forEach(n / block, [&](std::size_t i) { inCache(i * block); });
        for (std::size_t h = block; h < n; h *= 2) {
            level(a, n, h, table, inverseButterflies);
        }
    }
    reduceAll(values);
}

} // namespace

void releaseTransformTables() {
    twiddles().release();
}

void forwardNtt(std::span<Fp> values) {
    transform(values, false);
}

void forwardNttOfProducts(std::span<const Fp> source, std::span<const Fp> factors,
                          std::span<Fp> out) {
    const std::size_t n = out.size();
    if (source.size() != n || factors.size() != n) {
        throw std::invalid_argument("a transform's source, factors and output differ in size");
    }
    transform(out, false, source.data(), factors.data());
}

void foldModulo(std::span<const Fp> poly, const Fp& factor, std::span<Fp> out) {
    const std::size_t n = out.size();
    if (n == 0 || poly.size() % n != 0 || poly.size() < n) {
        throw std::invalid_argument("a polynomial folds onto a whole divisor of its size");
    }
    const std::size_t folds = poly.size() / n;
    if (folds == 1) {
        std::copy(poly.begin(), poly.end(), out.begin());
        return;
    }
    if (vector_field::enabled() && n % 8 == 0) {
        vector_ntt::fold(poly.data(), n, folds, factor, out.data());
        return;
    }
    Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            Fp sum = poly[k + (folds - 1) * n];
            for (std::size_t t = folds - 1; t-- > 0;) {
                sum = sum * factor + poly[k + t * n];
            }
            out[k] = sum;
        }
    });
}

void foldModuloPair(std::span<const Fp> poly, const Fp& factor, std::span<Fp> plus,
                    std::span<Fp> minus) {
    const std::size_t n = plus.size();
    if (minus.size() != n || poly.size() != 2 * n) {
        throw std::invalid_argument("a pair of folds halves a polynomial into two halves");
    }
    if (vector_field::enabled() && n % 8 == 0) {
        vector_ntt::foldPair(poly.data(), n, factor, plus.data(), minus.data());
        return;
    }
    Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            const Fp low = poly[k];
            const Fp t = poly[k + n] * factor;
            plus[k] = low + t;
            minus[k] = low - t;
        }
    });
}

void inverseNttFromBitReversed(std::span<Fp> values) {
    transform(values, true);
    scaleByPowers(values, Fp::one(), Fp::fromU64(values.size()).inverse());
}

void inverseNtt(std::span<Fp> values) {
    bitReversePermute(values);
    inverseNttFromBitReversed(values);
}

void scaleByPowers(std::span<Fp> values, const Fp& base, const Fp& factor) {
    Workers::shared().forRange(values.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        vector_field::scaleByPowers(values.subspan(begin, end - begin),
                                    factor * base.pow(std::uint64_t(begin)), base);
    });
}

void bitReversePermute(std::span<Fp> values) {
    const int log = std::countr_zero(values.size());
    constexpr int kTileBits = 4;
    if (log < 2 * kTileBits + 1) {
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::size_t r = bitReverse(i, log);
            if (i < r) {
                std::swap(values[i], values[r]);
            }
        }
        return;
    }
    // Indices as (high, middle, low) with 4-bit high and low parts: i = h·2^(L−4) + m·2^4 + l
    // moves to bitrev(l)·2^(L−4) + bitrev(m)·2^4 + bitrev(h). For each pair of middles
    // (m, bitrev(m)) the two 16×16 tiles (rows of 16 contiguous elements) are swapped through a
    // buffer, so every access reads or writes whole runs.
    const int middleBits = log - 2 * kTileBits;
    const std::size_t tile = std::size_t(1) << kTileBits;
    const std::size_t highStride = std::size_t(1) << (log - kTileBits);
    // Where element l of a tile's row h goes in the swapped tile: bitrev(l)·16 + bitrev(h).
    std::array<std::uint8_t, 256> destination;
    for (std::size_t h = 0; h < tile; ++h) {
        for (std::size_t l = 0; l < tile; ++l) {
            destination[h * tile + l] =
                std::uint8_t(bitReverse(l, kTileBits) * tile + bitReverse(h, kTileBits));
        }
    }
    Workers::shared().forRange(
        std::size_t(1) << middleBits, 64, [&](std::size_t begin, std::size_t end) {
            std::array<Fp, 256> a, b;
            for (std::size_t m = begin; m < end; ++m) {
                const std::size_t mr = bitReverse(m, middleBits);
                if (mr < m) {
                    continue;
                }
                const auto load = [&](std::size_t middle, std::array<Fp, 256>& into) {
                    for (std::size_t h = 0; h < tile; ++h) {
                        const Fp* row = values.data() + h * highStride + middle * tile;
                        for (std::size_t l = 0; l < tile; ++l) {
                            into[destination[h * tile + l]] = row[l];
                        }
                    }
                };
                const auto store = [&](std::size_t middle, const std::array<Fp, 256>& from) {
                    for (std::size_t h = 0; h < tile; ++h) {
                        Fp* row = values.data() + h * highStride + middle * tile;
                        std::copy_n(from.data() + h * tile, tile, row);
                    }
                };
                load(m, a);
                if (mr != m) {
                    load(mr, b);
                    store(mr, a);
                    store(m, b);
                } else {
                    store(m, a);
                }
            }
        });
}

void evaluateOnCoset(std::span<const Fp> coefficients, const Fp& offset, std::span<Fp> out) {
    const std::size_t n = out.size();
    Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
        Fp power = offset.pow(std::uint64_t(begin));
        for (std::size_t k = begin; k < end; ++k) {
            out[k] = k < coefficients.size() ? coefficients[k] * power : Fp::zero();
            power *= offset;
        }
    });
    forwardNtt(out);
}

void cosetValuesBitReversedInPlace(std::span<Fp> coefficients, const Fp& offset) {
    scaleByPowers(coefficients, offset);
    forwardNtt(coefficients);
}

void cosetCoefficientsFromBitReversedInPlace(std::span<Fp> values, const Fp& offset) {
    transform(values, true);
    scaleByPowers(values, offset.inverse(), Fp::fromU64(values.size()).inverse());
}

void cosetValuesToCosetBitReversed(std::span<Fp> values, const Fp& from, const Fp& to) {
    transform(values, true);
    scaleByPowers(values, to * from.inverse(), Fp::fromU64(values.size()).inverse());
    transform(values, false);
}

void cosetValuesInPlace(std::span<Fp> coefficients, const Fp& offset) {
    cosetValuesBitReversedInPlace(coefficients, offset);
    bitReversePermute(coefficients);
}

void cosetCoefficientsInPlace(std::span<Fp> values, const Fp& offset) {
    bitReversePermute(values);
    cosetCoefficientsFromBitReversedInPlace(values, offset);
}

void evaluatePeriodicOnCoset(std::span<const Fp> h, std::uint64_t stride, const Fp& offset,
                             std::span<Fp> out) {
    const std::size_t m = out.size();
    const Fp base = offset.pow(stride); // x^stride for x = offset·ω_m^j is base·ω_m^(j·stride)
    if (stride >= m) {
        std::fill(out.begin(), out.end(), evaluatePolynomial(h, base));
        return;
    }
    const std::size_t points = m / stride;
    std::vector<Fp> values(points);
    if (h.size() > points) {
        foldModulo(h, base.pow(points), values);
    } else {
        std::copy(h.begin(), h.end(), values.begin());
    }
    scaleByPowers(values, base);
    forwardNtt(values);
    // Slot i holds the point offset·ω_m^bitrev(i), whose base·ω^(bitrev(i) mod points) is slot
    // i/stride of the small transform's order.
    const int shift = std::countr_zero(stride);
    Workers::shared().forRange(m, 1 << 14, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            out[i] = values[i >> shift];
        }
    });
}

std::vector<Fp> periodicCosetValues(std::span<const Fp> h, std::uint64_t stride, const Fp& offset) {
    std::vector<Fp> values(h.begin(), h.end());
    cosetValuesInPlace(values, offset.pow(stride));
    return values;
}

} // namespace proofdesk::stark
