#include "Composition.h"

#include "ConstraintEvaluator.h"
#include "algebra/Ntt.h"
#include "algebra/Polynomials.h"
#include "algebra/VectorField.h"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>

namespace proofdesk::stark {
namespace {

// A mask row as a trace row (rows may be negative: they wrap around the trace).
std::uint64_t wrappedRow(const air::Air& air, std::int64_t row) {
    const std::int64_t n = std::int64_t(air.traceLength());
    return std::uint64_t(((row % n) + n) % n);
}

// The point z·g^row of a mask row.
Fp maskPoint(const air::Air& air, std::int64_t row, const Fp& z) {
    return z * air.traceGenerator().pow(wrappedRow(air, row));
}

// The mask's indices by the column they read, columns in order.
std::map<std::size_t, std::vector<std::size_t>> maskItemsByColumn(const air::Air& air) {
    std::map<std::size_t, std::vector<std::size_t>> itemsOf;
    for (std::size_t i = 0; i < air.mask().size(); ++i) {
        itemsOf[air.mask()[i].column].push_back(i);
    }
    return itemsOf;
}

// C from its values on the cosets s_j·⟨g⟩ (s_0 = 3, s_1 = 3·ω_2N), each interpolated alone into
// `cosets[j]`: its coefficients a_j[k] = s_j^k·(c_k + c_{k+N}·s_j^N), and s_1^N = −3^N, so with
// u_j[k] = a_j[k]/s_j^k: c_k = (u_0 + u_1)/2 and c_{k+N} = (u_0 − u_1)/(2·3^N). Then
// C(x) = C_0(x²) + x·C_1(x²): the even coefficients make the first half, the odd the second.
// Made in the two coset buffers themselves: c_k into the first and c_{k+N} into the second, each
// buffer's evens moved before its odds, then the first's odds swapped with the second's evens —
// one extra half buffer at most.
std::vector<std::vector<Fp>> splitIntoHalves(std::array<std::vector<Fp>, 2> cosets) {
    const std::size_t n = cosets[0].size();
    const Fp half = Fp::fromU64(2).inverse();
    const Fp highFactor = half * fieldGenerator().pow(n).inverse();
    Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            const Fp u0 = cosets[0][k];
            const Fp u1 = cosets[1][k];
            cosets[0][k] = (u0 + u1) * half;       // c_k
            cosets[1][k] = (u0 - u1) * highFactor; // c_{k+N}
        }
    });
    // (Evens then odds: the odds to the side first, as the evens' moves overwrite them.)
    UninitializedBuffer<Fp> odds(n / 2);
    Workers& workers = Workers::shared();
    for (std::vector<Fp>& buffer : cosets) {
        workers.forRange(n / 2, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                odds[i] = buffer[2 * i + 1];
            }
        });
        // Slot 2i moves to i: in waves [w, 2w), whose moves read [2w, 4w), which no earlier wave
        // wrote and none of theirs writes, so each wave splits over the workers.
        for (std::size_t wave = 1; wave < n / 2; wave *= 2) {
            workers.forRange(std::min(wave, n / 2 - wave), 1 << 12,
                             [&](std::size_t begin, std::size_t end) {
                                 for (std::size_t i = wave + begin; i < wave + end; ++i) {
                                     buffer[i] = buffer[2 * i];
                                 }
                             });
        }
        workers.forRange(n / 2, 1 << 12, [&](std::size_t begin, std::size_t end) {
            std::copy(odds.begin() + std::ptrdiff_t(begin), odds.begin() + std::ptrdiff_t(end),
                      buffer.begin() + std::ptrdiff_t(n / 2 + begin));
        });
    }
    workers.forRange(n / 2, 1 << 12, [&](std::size_t begin, std::size_t end) {
        std::swap_ranges(cosets[0].begin() + std::ptrdiff_t(n / 2 + begin),
                         cosets[0].begin() + std::ptrdiff_t(n / 2 + end),
                         cosets[1].begin() + std::ptrdiff_t(begin));
    });
    std::vector<std::vector<Fp>> halves(2);
    halves[0] = std::move(cosets[0]);
    halves[1] = std::move(cosets[1]);
    return halves;
}

// The DEEP terms of columns read at many rows, Σ_c Σ_r α_{c,r}·(T_c(x) − v_{c,r})/(x − z·g^r),
// as coefficients, computed on the coset x = z·s·g^j (s = 3, so no x is a mask point). There
// 1/(x − z·g^r) = g^−r·h(j − r)/z with h(k) = 1/(s·g^k − 1) = Σ_t (s·g^k)^t/(s^N − 1), so a
// column's weight Σ_r α_{c,r}/(x − z·g^r), a cyclic convolution of h with the kernel
// κ(r) = α_{c,r}·g^−r, is N/(z·(s^N − 1)) times κ's interpolant on ⟨g⟩ evaluated at s·g^j: one
// inverse and one forward transform, no table of h. The constants' part, Σ α_i·v_i over every
// column, is one more. With T_c's values there (one transform there and one back, in place) a
// column costs about 40 products a coefficient, where dividing by each point costs two per row
// read; two vectors of N are held beside the columns, as the division's way holds.
std::vector<Fp> deepByConvolution(const air::Air& air, const std::vector<std::vector<Fp>*>& columns,
                                  const std::map<std::size_t, std::vector<std::size_t>>& itemsOf,
                                  const std::vector<Fp>& oods, const std::vector<Fp>& powers,
                                  const Fp& z, const CancelFlag& cancel) {
    const std::vector<air::MaskItem>& mask = air.mask();
    const std::uint64_t n = air.traceLength();
    const Fp& s = fieldGenerator();
    const Fp& g = air.traceGenerator();
    const Fp offset = z * s;
    Workers& workers = Workers::shared();
    // The kernel's values on ⟨g⟩ -> its interpolant's values on s·⟨g⟩ (natural order).
    const auto convolveWithH = [&](std::span<Fp> kernel) {
        inverseNtt(kernel);
        cosetValuesInPlace(kernel, s);
    };

    // The sum in natural order, less the constants' part first, then plus each column's values
    // times its weight; the common factor N/(z·(s^N − 1)) last.
    std::vector<Fp> values(n);
    for (const auto& [index, items] : itemsOf) {
        for (const std::size_t i : items) {
            const std::uint64_t row = wrappedRow(air, mask[i].row);
            values[row] -= powers[i] * oods[i] * g.pow(n - row);
        }
    }
    convolveWithH(values);
    UninitializedBuffer<Fp> weight(n); // zeroed by the workers for each column
    for (const auto& [index, items] : itemsOf) {
        cancel.check();
        fillInParallel(weight, Fp::zero());
        for (const std::size_t i : items) {
            const std::uint64_t row = wrappedRow(air, mask[i].row);
            weight[row] += powers[i] * g.pow(n - row); // α_i·g^−row
        }
        convolveWithH(weight);
        std::vector<Fp>& column = *columns[index];
        if (column.size() < n) { // a periodic column: its values repeat every column.size()
            const std::vector<Fp> period = periodicCosetValues(column, n / column.size(), offset);
            workers.forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
                for (std::size_t k = begin; k < end;) {
                    const std::size_t at = k % period.size();
                    const std::size_t length = std::min(end - k, period.size() - at);
                    vector_field::multiplyAdd(std::span<const Fp>(period.data() + at, length),
                                              std::span<const Fp>(weight.data() + k, length),
                                              std::span<Fp>(values.data() + k, length));
                    k += length;
                }
            });
            continue;
        }
        cosetValuesInPlace(column, offset);
        workers.forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            vector_field::multiplyAdd(std::span<const Fp>(column.data() + begin, end - begin),
                                      std::span<const Fp>(weight.data() + begin, end - begin),
                                      std::span<Fp>(values.data() + begin, end - begin));
        });
        cosetCoefficientsInPlace(column, offset);
    }
    weight = {};
    const Fp factor = Fp::fromU64(n) * (z * (s.pow(n) - Fp::one())).inverse();
    scaleByPowers(values, Fp::one(), factor);
    cosetCoefficientsInPlace(values, offset);
    return values;
}

} // namespace

std::vector<Fp> deepComposition(const air::Air& air, const std::vector<std::vector<Fp>*>& columns,
                                const std::vector<const std::vector<Fp>*>& composition,
                                const std::vector<Fp>& oods, const Fp& z, const Fp& alpha,
                                const CancelFlag& cancel, std::size_t rowsForConvolution) {
    const std::vector<air::MaskItem>& mask = air.mask();
    const std::uint64_t n = air.traceLength();
    std::vector<Fp> powers(oods.size());
    Fp power = Fp::one();
    for (Fp& p : powers) {
        p = power;
        power *= alpha;
    }
    // Terms grouped by their point: mask rows, then z² for the composition columns.
    struct Group {
        Fp point;
        std::vector<std::pair<const std::vector<Fp>*, std::size_t>> terms; // (poly, oods index)
    };
    std::map<std::size_t, std::vector<std::size_t>> convolved;
    std::map<std::int64_t, Group> byRow;
    for (const auto& [column, items] : maskItemsByColumn(air)) {
        if (items.size() >= rowsForConvolution) {
            convolved.emplace(column, items);
            continue;
        }
        for (const std::size_t i : items) {
            Group& group = byRow[mask[i].row];
            group.point = maskPoint(air, mask[i].row, z);
            group.terms.emplace_back(columns[column], i);
        }
    }
    std::vector<Group> groups;
    for (auto& [row, group] : byRow) {
        groups.push_back(std::move(group));
    }
    Group last{z.square(), {}};
    for (std::size_t k = 0; k < composition.size(); ++k) {
        last.terms.emplace_back(composition[k], mask.size() + k);
    }
    groups.push_back(std::move(last));

    // Columns read at many rows by convolution, the rest one group at a time, each loop split over
    // the workers.
    std::vector<Fp> total =
        convolved.empty() ? std::vector<Fp>(n)
                          : deepByConvolution(air, columns, convolved, oods, powers, z, cancel);
    UninitializedBuffer<Fp> p(n); // each group's sum, zeroed by the workers as they begin it
    Workers& workers = Workers::shared();
    for (const Group& group : groups) {
        cancel.check();
        Fp constant = Fp::zero();
        for (const auto& [poly, index] : group.terms) {
            constant += powers[index] * oods[index];
        }
        workers.forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            const std::span<Fp> sum(p.data() + begin, end - begin);
            std::fill(sum.begin(), sum.end(), Fp::zero());
            for (const auto& [poly, index] : group.terms) {
                if (poly->size() < n) { // h(x^stride): h's coefficients at multiples of stride
                    const std::size_t stride = n / poly->size();
                    for (std::size_t k = (begin + stride - 1) / stride * stride; k < end;
                         k += stride) {
                        sum[k - begin] += powers[index] * (*poly)[k / stride];
                    }
                    continue;
                }
                vector_field::scaleAdd(std::span<const Fp>(poly->data() + begin, end - begin),
                                       powers[index], sum);
            }
        });
        p[0] -= constant;
        if (!divideByLinearInPlace(p, group.point).isZero()) {
            throw std::logic_error("internal error: a DEEP quotient is not exact");
        }
        workers.forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) {
                total[k] += p[k];
            }
        });
    }
    return total;
}

std::vector<std::vector<Fp>> compositionHalves(const air::Air& air,
                                               const std::map<std::string, Fp>& values,
                                               const std::vector<std::vector<Fp>*>& columns,
                                               const Fp& alpha, const CancelFlag& cancel,
                                               const std::function<void(double)>& report) {
    const std::uint64_t n = air.traceLength();
    const int logTrace = std::countr_zero(n);
    std::array<std::vector<Fp>, 2> cosets;
    const ConstraintEvaluator evaluator(air, values);
    const Fp rootTwoN = rootOfUnity(logTrace + 1);
    const std::array<Fp, 2> offsets = {fieldGenerator(), fieldGenerator() * rootTwoN};
    for (std::uint64_t j = 0; j < 2; ++j) {
        const Fp& offset = offsets[j];
        std::vector<std::span<const Fp>> onCoset;
        std::vector<std::vector<Fp>> periods; // periodic columns' values over one period
        periods.reserve(columns.size());
        // Values in the transforms' bit-reversed order, which the evaluator reads as they are;
        // the second coset's straight from the first's.
        for (std::vector<Fp>* column : columns) {
            cancel.check();
            if (column->size() < n) {
                periods.push_back(periodicCosetValues(*column, n / column->size(), offset));
                onCoset.emplace_back(periods.back());
                continue;
            }
            if (j == 0) {
                cosetValuesBitReversedInPlace(*column, offset);
            } else {
                cosetValuesToCosetBitReversed(*column, offsets[0], offset);
            }
            onCoset.emplace_back(*column);
        }
        cosets[j].resize(n);
        evaluator.composition(onCoset, offset, alpha, cosets[j], cancel);
        cosetCoefficientsFromBitReversedInPlace(cosets[j], offset);
        if (j == 0) {
            report(0.5);
        }
    }
    for (std::vector<Fp>* column : columns) {
        cancel.check();
        if (column->size() == n) {
            cosetCoefficientsFromBitReversedInPlace(*column, offsets[1]);
        }
    }
    report(1.0);
    return splitIntoHalves(std::move(cosets));
}

std::vector<Fp> outOfDomainValues(const air::Air& air, const std::vector<std::vector<Fp>*>& columns,
                                  const std::vector<std::vector<Fp>>& halves, const Fp& z,
                                  std::size_t rowsForTransform) {
    const std::vector<air::MaskItem>& mask = air.mask();
    const std::uint64_t n = air.traceLength();
    const int logTrace = std::countr_zero(n);
    std::vector<Fp> oods(mask.size() + 2);
    // A column read at many rows (all_cairo's at 62 on average) is evaluated at every point
    // z·g^j at once, by one transform of T(z·y): about 11 products per coefficient instead of
    // one per point. The others, and the composition's halves at z², by Horner's rule.
    std::vector<std::pair<const std::vector<Fp>*, std::vector<std::size_t>>> byHorner;
    std::vector<Fp> onCoset;
    for (const auto& [column, items] : maskItemsByColumn(air)) {
        if (items.size() < rowsForTransform || columns[column]->size() < n) {
            byHorner.emplace_back(columns[column], items);
            continue;
        }
        onCoset.resize(n);
        evaluateOnCoset(*columns[column], z, onCoset); // T(z·g^bitrev(i)) in slot i
        for (const std::size_t i : items) {
            oods[i] = onCoset[bitReverse(wrappedRow(air, mask[i].row), logTrace)];
        }
    }
    onCoset = {};
    byHorner.emplace_back(&halves[0], std::vector<std::size_t>{mask.size()});
    byHorner.emplace_back(&halves[1], std::vector<std::size_t>{mask.size() + 1});
    Workers::shared().forEach(byHorner.size(), [&](std::size_t w) {
        const auto& [poly, items] = byHorner[w];
        // A periodic column's polynomial is h(x^stride), h its coefficients.
        const std::uint64_t stride = n / poly->size();
        std::vector<Fp> points;
        for (const std::size_t i : items) {
            points.push_back(i >= mask.size() ? z.square()
                                              : maskPoint(air, mask[i].row, z).pow(stride));
        }
        const std::vector<Fp> at = evaluatePolynomialAt(*poly, points);
        for (std::size_t q = 0; q < items.size(); ++q) {
            oods[items[q]] = at[q];
        }
    });
    return oods;
}

} // namespace proofdesk::stark
