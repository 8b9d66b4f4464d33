#include "Ntt.h"

#include "Parallel.h"

#include <bit>
#include <memory>
#include <mutex>

namespace proofdesk::stark {
namespace {

// The powers ω^j, j < 2^(log−1), of the largest root of unity used so far (or of its inverse);
// smaller transforms read them with a stride.
class Twiddles {
public:
    std::shared_ptr<const std::vector<Fp>> forLog(int log, bool inverse) {
        const std::lock_guard lock(m_mutex);
        Table& table = inverse ? m_inverse : m_forward;
        if (!table.powers || table.log < log) {
            auto powers = std::make_shared<std::vector<Fp>>(std::size_t(1) << (log - 1));
            const Fp root = inverse ? inverseRootOfUnity(log) : rootOfUnity(log);
            std::vector<Fp>& p = *powers;
            Workers::shared().forRange(p.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
                Fp value = root.pow(std::uint64_t(begin));
                for (std::size_t j = begin; j < end; ++j) {
                    p[j] = value;
                    value *= root;
                }
            });
            table.powers = std::move(powers);
            table.log = log;
        }
        return table.powers;
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

// Blocks of this many elements (256 KiB) take all their remaining stages at once, in cache.
constexpr std::size_t kBlock = std::size_t(1) << 13;

// One decimation-in-frequency stage with butterflies of half-width h over [begin, end) of the
// butterfly indices (block b = k / h, offset j = k % h).
void difStage(Fp* a, std::size_t h, const Fp* w, std::size_t stride, std::size_t begin,
              std::size_t end) {
    for (std::size_t k = begin; k < end;) {
        const std::size_t block = k / h;
        std::size_t j = k % h;
        Fp* lo = a + block * 2 * h;
        Fp* hi = lo + h;
        const std::size_t stop = std::min(end - k + j, h);
        for (; j < stop; ++j, ++k) {
            const Fp x = lo[j];
            const Fp y = hi[j];
            lo[j] = x + y;
            hi[j] = (x - y) * w[j * stride];
        }
    }
}

void dif(std::span<Fp> values, bool inverse) {
    const std::size_t n = values.size();
    if (n <= 1) {
        return;
    }
    const int log = std::countr_zero(n);
    const auto table = twiddles().forLog(log, inverse);
    // table holds ω_T^j for j < T/2 (T = 2^tableLog ≥ n); the stage of half-width h needs
    // ω_{2h}^j = table[j·T/(2h)].
    const std::size_t half = table->size();
    const Fp* w = table->data();
    Fp* a = values.data();
    Workers& workers = Workers::shared();
    std::size_t h = n / 2;
    for (; 2 * h > kBlock; h /= 2) {
        const std::size_t stride = half / h;
        workers.forRange(n / 2, 1 << 12, [&](std::size_t begin, std::size_t end) {
            difStage(a, h, w, stride, begin, end);
        });
    }
    const std::size_t blockSize = 2 * h;
    workers.forEach(n / blockSize, [&](std::size_t block) {
        Fp* base = a + block * blockSize;
        for (std::size_t hh = h; hh >= 1; hh /= 2) {
            difStage(base, hh, w, half / hh, 0, blockSize / 2);
        }
    });
}

} // namespace

void forwardNtt(std::span<Fp> values) {
    dif(values, false);
}

void inverseNttFromBitReversed(std::span<Fp> values) {
    // With u_i the value at ω^bitrev(i): permuting gives natural order, then the inverse.
    bitReversePermute(values);
    inverseNtt(values);
}

void inverseNtt(std::span<Fp> values) {
    dif(values, true);
    bitReversePermute(values);
    scaleByPowers(values, Fp::one(), Fp::fromU64(values.size()).inverse());
}

void scaleByPowers(std::span<Fp> values, const Fp& base, const Fp& factor) {
    Workers::shared().forRange(values.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        Fp power = factor * base.pow(std::uint64_t(begin));
        if (base == Fp::one()) {
            for (std::size_t k = begin; k < end; ++k) {
                values[k] *= power;
            }
            return;
        }
        for (std::size_t k = begin; k < end; ++k) {
            values[k] *= power;
            power *= base;
        }
    });
}

void bitReversePermute(std::span<Fp> values) {
    const int log = std::countr_zero(values.size());
    Workers::shared().forRange(values.size(), 1 << 14, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const std::size_t r = bitReverse(i, log);
            if (i < r) {
                std::swap(values[i], values[r]);
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

void cosetValuesInPlace(std::span<Fp> coefficients, const Fp& offset) {
    scaleByPowers(coefficients, offset);
    forwardNtt(coefficients);
    bitReversePermute(coefficients);
}

void cosetCoefficientsInPlace(std::span<Fp> values, const Fp& offset) {
    dif(values, true);
    bitReversePermute(values);
    scaleByPowers(values, offset.inverse(), Fp::fromU64(values.size()).inverse());
}

} // namespace proofdesk::stark
