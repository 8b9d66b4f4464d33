#include "Polynomials.h"

#include "Parallel.h"
#include "VectorField.h"

#include <algorithm>
#include <array>

namespace proofdesk::stark {

Fp evaluatePolynomial(std::span<const Fp> coefficients, const Fp& x) {
    Fp value = Fp::zero();
    for (std::size_t i = coefficients.size(); i-- > 0;) {
        value = value * x + coefficients[i];
    }
    return value;
}

std::vector<Fp> evaluatePolynomialAt(std::span<const Fp> coefficients,
                                     const std::vector<Fp>& points) {
    if (std::vector<Fp> values(points.size());
        vector_field::evaluateAt(coefficients, points, values)) {
        return values;
    }
    // Horner's rule is one chain of dependent products; four segments per point (p = Σ_s
    // x^(s·L)·p_s) and all points in one pass give the core independent chains to overlap.
    constexpr std::size_t kSegments = 4;
    const std::size_t n = coefficients.size();
    const std::size_t length = (n + kSegments - 1) / kSegments;
    std::vector<std::array<Fp, kSegments>> partial(points.size());
    for (std::size_t i = length; i-- > 0;) {
        for (std::size_t q = 0; q < points.size(); ++q) {
            for (std::size_t s = 0; s < kSegments; ++s) {
                const std::size_t k = s * length + i;
                partial[q][s] = partial[q][s] * points[q] + (k < n ? coefficients[k] : Fp::zero());
            }
        }
    }
    std::vector<Fp> values(points.size());
    for (std::size_t q = 0; q < points.size(); ++q) {
        const Fp step = points[q].pow(std::uint64_t(length));
        Fp value = Fp::zero();
        for (std::size_t s = kSegments; s-- > 0;) {
            value = value * step + partial[q][s];
        }
        values[q] = value;
    }
    return values;
}

Fp divideByLinear(std::span<const Fp> p, const Fp& a, std::span<Fp> quotient) {
    // q_{n−2} = p_{n−1}, q_{k−1} = p_k + a·q_k, remainder p_0 + a·q_0.
    Fp carry = Fp::zero();
    for (std::size_t k = p.size(); k-- > 1;) {
        carry = p[k] + a * carry;
        quotient[k - 1] = carry;
    }
    return p.empty() ? Fp::zero() : p[0] + a * carry;
}

std::vector<Fp> foldPolynomial(std::span<const Fp> coefficients, const Fp& beta) {
    std::vector<Fp> out(coefficients.size() / 2);
    Workers::shared().forRange(out.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            out[k] = (coefficients[2 * k] + beta * coefficients[2 * k + 1]).doubled();
        }
    });
    return out;
}

// The quotient's carry chain, q[j] = p[j+1] + a·q[j+1] from the top down, is cut into blocks run on
// the workers, each starting from carry 0 (with the vector arithmetic, eight equal blocks a
// worker in a vector's lanes, and the values past them one more block); the carries
// entering the blocks then follow from the top one by one, and each block adds its entering
// carry Q times a^(top − j) (vectorised).
Fp divideByLinearInPlace(std::span<Fp> p, const Fp& a) {
    const std::size_t n = p.size();
    if (n < 2) {
        const Fp remainder = p.empty() ? Fp::zero() : p[0];
        std::fill(p.begin(), p.end(), Fp::zero());
        return remainder;
    }
    Workers& workers = Workers::shared();
    const std::size_t threads = std::size_t(std::max(1, workers.threads()));
    // Eight equal blocks a worker, in a vector's lanes (0: scalar blocks).
    const std::size_t perTask = vector_field::enabled() && (n - 1) / (8 * threads) >= 512 ? 8 : 0;
    const std::size_t equal =
        perTask != 0 ? perTask * threads
                     : std::clamp<std::size_t>((n - 1) / (std::size_t(1) << 14), 1, threads * 2);
    const std::size_t size = (n - 1) / equal;
    const std::size_t blockCount = equal + ((n - 1) % equal != 0 ? 1 : 0);
    std::vector<std::size_t> lo(blockCount), hi(blockCount);
    std::vector<Fp> above(blockCount), below(blockCount);
    for (std::size_t b = 0; b < blockCount; ++b) {
        lo[b] = b * size;
        hi[b] = b < equal ? (b + 1) * size : n - 1;
        above[b] = p[hi[b]]; // read before the block above overwrites it
    }
    const auto scalarBlock = [&](std::size_t b) {
        Fp carry = Fp::zero();
        Fp next = above[b];
        for (std::size_t j = hi[b]; j-- > lo[b];) {
            carry = next + a * carry;
            next = p[j];
            p[j] = carry;
        }
        below[b] = next; // p[lo] as it was
    };
    const std::size_t groups = perTask != 0 ? threads : 0;
    workers.forEach(perTask != 0 ? groups + (blockCount - equal) : blockCount, [&](std::size_t t) {
        if (t >= groups) {
            scalarBlock(perTask != 0 ? equal : t);
            return;
        }
        const std::size_t first = t * perTask;
        if (!vector_field::carryChains(p.subspan(lo[first], perTask * size), perTask, a,
                                       std::span(above).subspan(first, perTask),
                                       std::span(below).subspan(first, perTask))) {
            for (std::size_t b = first; b < first + perTask; ++b) {
                scalarBlock(b);
            }
        }
    });
    std::vector<Fp> entering(blockCount); // q[hi[b]]
    std::vector<Fp> span(blockCount);     // a^(hi[b] − lo[b])
    for (std::size_t b = 0; b < blockCount; ++b) {
        span[b] = a.pow(hi[b] - lo[b]);
    }
    for (std::size_t b = blockCount - 1; b >= 1; --b) {
        entering[b - 1] = p[lo[b]] + span[b] * entering[b];
    }
    const Fp inverse = a.inverse();
    workers.forEach(blockCount, [&](std::size_t b) {
        const Fp start = entering[b] * span[b];
        if (!start.isZero()) {
            vector_field::addPowers(std::span<Fp>(p.data() + lo[b], hi[b] - lo[b]), start, inverse);
        }
    });
    p.back() = Fp::zero();
    return below[0] + a * p[0];
}

} // namespace proofdesk::stark
