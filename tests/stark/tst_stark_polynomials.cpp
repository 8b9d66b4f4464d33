// The prover's polynomial work against its definitions (issue #21): NTTs, cosets and the
// bit-reversal permutation against Horner's rule; the out-of-domain values and the DEEP
// composition by transforms against the pointwise way; the composition on a coset against the
// verifier's sum at each point.

#include "RandomField.h"

#include "stark/air/Air.h"
#include "stark/air/Layout.h"
#include "stark/algebra/Ntt.h"
#include "stark/algebra/Polynomials.h"
#include "stark/algebra/VectorField.h"
#include "stark/commitment/CommittedTable.h"
#include "stark/prover/Composition.h"
#include "stark/prover/ConstraintEvaluator.h"

#include <QTest>

#include <bit>
#include <limits>
#include <map>
#include <memory>

using namespace proofdesk;
using namespace proofdesk::stark;
using proofdesk::stark::random_field::randomFp;
using proofdesk::stark::random_field::randomPolynomial;

class StarkPolynomialsTest : public QObject {
    Q_OBJECT

private slots:
    void nttsAgreeWithHorner() {
        QRandomGenerator random(3);
        // 15: more than one cache block of the transform.
        for (const int log : {0, 1, 3, 10, 15}) {
            const std::size_t n = std::size_t(1) << log;
            const std::vector<Fp> coefficients = randomPolynomial(random, n);
            std::vector<Fp> values = coefficients;
            forwardNtt(values);
            const Fp root = rootOfUnity(log);
            for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 16)) {
                QVERIFY(values[i] ==
                        evaluatePolynomial(coefficients, root.pow(bitReverse(i, log))));
            }
            inverseNttFromBitReversed(values);
            QVERIFY(values == coefficients);

            const Fp offset = Fp::fromU64(3);
            std::vector<Fp> coset(n);
            evaluateOnCoset(coefficients, offset, coset);
            QVERIFY(coset[n - 1] ==
                    evaluatePolynomial(coefficients, offset * root.pow(bitReverse(n - 1, log))));
            std::vector<Fp> natural = coefficients;
            cosetValuesInPlace(natural, offset);
            QVERIFY(natural[n / 2] ==
                    evaluatePolynomial(coefficients, offset * root.pow(std::uint64_t(n / 2))));
            cosetCoefficientsInPlace(natural, offset);
            QVERIFY(natural == coefficients);
            // From one coset's values straight to another's (the composition's second coset).
            std::vector<Fp> moved = coset;
            const Fp other = Fp::fromU64(7);
            cosetValuesToCosetBitReversed(moved, offset, other);
            std::vector<Fp> expected(n);
            evaluateOnCoset(coefficients, other, expected);
            QVERIFY(moved == expected);
        }
        // The permutation, small (direct swaps) and large (tiles).
        for (const int log : {4, 9, 13}) {
            const std::size_t n = std::size_t(1) << log;
            std::vector<Fp> values(n);
            for (std::size_t i = 0; i < n; ++i) {
                values[i] = Fp::fromU64(i);
            }
            bitReversePermute(values);
            for (std::size_t i = 0; i < n; ++i) {
                QCOMPARE(values[bitReverse(i, log)], Fp::fromU64(i));
            }
        }
        // bitReverse against bit-by-bit reversal: every width, bits above it ignored.
        for (int bits = 0; bits <= 64; ++bits) {
            const std::uint64_t value = random.generate64();
            std::uint64_t expected = 0;
            for (int i = 0; i < bits; ++i) {
                expected = (expected << 1) | ((value >> i) & 1);
            }
            QCOMPARE(bitReverse(value, bits), expected);
        }
        // Folded onto a small coset: the values at x0·ω_8^bitrev(i).
        const std::vector<Fp> big = randomPolynomial(random, 64);
        const Fp x0 = Fp::fromU64(7);
        const auto small = evaluateOnSmallCoset({big}, x0, 3);
        for (std::uint64_t i = 0; i < 8; ++i) {
            QVERIFY(small[0][i] ==
                    evaluatePolynomial(big, x0 * rootOfUnity(3).pow(bitReverse(i, 3))));
        }
        // Both halvings of one pass are the two folds, on the vector path and the scalar one, also
        // written in place.
        for (const bool vectors : {true, false}) {
            vector_field::setEnabled(vectors);
            const Fp factor = randomFp(random);
            std::vector<Fp> plus(32), minus(32), one(32), other(32);
            foldModuloPair(big, factor, plus, minus);
            foldModulo(big, factor, one);
            foldModulo(big, -factor, other);
            QVERIFY(plus == one);
            QVERIFY(minus == other);
            std::vector<Fp> inPlace = big; // the halves written over the polynomial
            const std::span<Fp> halves(inPlace);
            foldModuloPair(inPlace, factor, halves.first(32), halves.subspan(32));
            QVERIFY(std::equal(one.begin(), one.end(), inPlace.begin()));
            QVERIFY(std::equal(other.begin(), other.end(), inPlace.begin() + 32));
        }
        vector_field::setEnabled(true);
        // On several cosets at once (a decommitment's), exactly as one at a time.
        const std::vector<Fp> other = randomPolynomial(random, 64);
        const std::vector<Fp> x0s = {Fp::fromU64(7), Fp::fromU64(11), Fp::fromU64(13)};
        const auto batched = evaluateOnSmallCosets({big, other}, x0s, 3);
        QCOMPARE(batched.size(), x0s.size());
        for (std::size_t c = 0; c < x0s.size(); ++c) {
            const auto single = evaluateOnSmallCoset({big, other}, x0s[c], 3);
            QVERIFY(batched[c] == single);
        }
        // Cosets of one larger domain, as a decommitment queries them: some share x0^32, x0^16
        // (their remainders' halvings), one is queried twice; each value as Horner's rule has it.
        const Fp offset = Fp::fromU64(3);
        const Fp omega = rootOfUnity(9);
        const std::vector<Fp> domainCosets = {offset,
                                              offset * omega.pow(8),
                                              offset * omega.pow(256),
                                              offset * omega.pow(128),
                                              offset * omega.pow(40),
                                              offset * omega.pow(8)};
        const auto shared = evaluateOnSmallCosets({big, other}, domainCosets, 3);
        for (std::size_t c = 0; c < domainCosets.size(); ++c) {
            for (std::uint64_t i = 0; i < 8; ++i) {
                const Fp point = domainCosets[c] * rootOfUnity(3).pow(bitReverse(i, 3));
                QVERIFY(shared[c][0][i] == evaluatePolynomial(big, point));
                QVERIFY(shared[c][1][i] == evaluatePolynomial(other, point));
            }
        }
        // Several points at once, as Horner's rule one point at a time: on the vector path (eight
        // segments in the lanes, up to four points a pass) and the scalar one, for sizes it takes
        // and sizes it leaves to the scalar code.
        for (const bool vectors : {true, false}) {
            vector_field::setEnabled(vectors);
            for (const std::size_t size : {std::size_t(64), std::size_t(72), std::size_t(1024),
                                           std::size_t(60), std::size_t(8)}) {
                const std::vector<Fp> poly = randomPolynomial(random, size);
                for (const std::size_t count : {1, 2, 3, 4, 5, 9}) {
                    const std::vector<Fp> points = randomPolynomial(random, count);
                    const std::vector<Fp> at = evaluatePolynomialAt(poly, points);
                    QCOMPARE(at.size(), count);
                    for (std::size_t q = 0; q < count; ++q) {
                        QVERIFY(at[q] == evaluatePolynomial(poly, points[q]));
                    }
                }
            }
        }
        vector_field::setEnabled(true);
        // Division by x − a is exact at a root.
        const Fp a = Fp::fromU64(5);
        std::vector<Fp> p = {-a, Fp::one()}; // x − a
        std::vector<Fp> q(1);
        QVERIFY(divideByLinear(p, a, q).isZero());
        QVERIFY(q[0] == Fp::one());
    }

    // The out-of-domain values and the DEEP composition of columns read at many rows, by one
    // transform and by convolution on a coset, are exactly those of Horner's rule and of dividing
    // point by point: random columns on layout plain, every column one way, then the other.
    void outOfDomainWorkByTransformsMatchesThePointwiseWay() {
        QRandomGenerator random(29);
        const std::unique_ptr<air::Air> air = air::buildAir(*air::layoutNamed("plain"), 64);
        const air::LayoutSpec& layout = *air::layoutNamed("plain");
        const std::size_t n = air->traceLength();
        std::vector<std::vector<Fp>> columns;
        for (std::size_t c = 0; c < layout.columnsFirst + layout.columnsInteraction; ++c) {
            columns.push_back(randomPolynomial(random, n));
        }
        const std::vector<std::vector<Fp>> halves = {randomPolynomial(random, n),
                                                     randomPolynomial(random, n)};
        std::vector<std::vector<Fp>*> all;
        for (auto& column : columns) {
            all.push_back(&column);
        }
        const std::vector<std::vector<Fp>> before = columns;
        const Fp z = randomFp(random);
        const Fp alpha = randomFp(random);
        const std::size_t never = std::numeric_limits<std::size_t>::max();
        const std::vector<Fp> byHorner = outOfDomainValues(*air, all, halves, z, never);
        QVERIFY(outOfDomainValues(*air, all, halves, z, 1) == byHorner);
        QVERIFY(outOfDomainValues(*air, all, halves, z, 8) == byHorner); // some columns each way
        const std::size_t mask = air->mask().size();
        QCOMPARE(byHorner.size(), mask + 2);
        QVERIFY(byHorner[0] == evaluatePolynomial(*all[air->mask()[0].column],
                                                  z * air->traceGenerator().pow(std::uint64_t(
                                                          (air->mask()[0].row + std::int64_t(n)) %
                                                          std::int64_t(n)))));
        const std::vector<Fp> divided =
            deepComposition(*air, all, {&halves[0], &halves[1]}, byHorner, z, alpha, {}, never);
        const std::vector<Fp> convolved =
            deepComposition(*air, all, {&halves[0], &halves[1]}, byHorner, z, alpha, {}, 1);
        QCOMPARE(convolved.size(), n);
        QVERIFY(convolved == divided);
        QVERIFY(columns == before); // transformed there and back in place
        // Plain's columns are read at 2 to 16 rows: from 8 rows on by convolution, the rest
        // divided.
        QVERIFY(deepComposition(*air, all, {&halves[0], &halves[1]}, byHorner, z, alpha, {}, 8) ==
                divided);
    }

    // The prover's composition on a coset, evaluated chunk by chunk from the columns' values in
    // the transforms' bit-reversed order (a cell read at another row is another chunk's lanes,
    // rotated when the row passes a multiple of N/128), equals at every point checked the sum the
    // verifier forms from the mask values there (Air::compositionAt). Random columns and values:
    // plain (1,024 rows, so every chunk's rows are 8 apart and most cells rotate) and small
    // (2^15 rows, periodic columns and domains repeating every 16 to 2^15 rows).
    void compositionOnACosetMatchesTheVerifiersSum() {
        QRandomGenerator random(31);
        for (const auto& [name, steps] : {std::pair{"plain", 64}, std::pair{"small", 2048}}) {
            const air::LayoutSpec& layout = *air::layoutNamed(name);
            const std::unique_ptr<air::Air> air = air::buildAir(layout, std::uint64_t(steps));
            const std::size_t n = air->traceLength();
            const int logN = std::countr_zero(n);
            std::map<std::string, Fp> values;
            for (const std::string& value : air->valueNames()) {
                values[value] = randomFp(random);
            }
            const Fp offset = fieldGenerator() * randomFp(random);
            std::vector<std::vector<Fp>> coefficients, onCoset;
            std::vector<std::span<const Fp>> columns;
            for (std::size_t c = 0; c < layout.columnsFirst + layout.columnsInteraction; ++c) {
                coefficients.push_back(randomPolynomial(random, n));
                onCoset.push_back(coefficients.back());
                cosetValuesBitReversedInPlace(onCoset.back(), offset);
            }
            for (const std::vector<Fp>& column : onCoset) {
                columns.emplace_back(column);
            }
            const Fp alpha = randomFp(random);
            std::vector<Fp> composition(n);
            ConstraintEvaluator(*air, values).composition(columns, offset, alpha, composition);

            const Fp& g = air->traceGenerator();
            // The first and last chunks, and random slots.
            std::vector<std::size_t> checked = {0, 1, 127, 128, n - 1};
            for (int i = 0; i < 24; ++i) {
                checked.push_back(random.bounded(quint32(n)));
            }
            for (const std::size_t slot : checked) {
                const std::uint64_t row = bitReverse(slot, logN);
                std::vector<Fp> mask;
                for (const air::MaskItem& item : air->mask()) {
                    const std::uint64_t at =
                        std::uint64_t((std::int64_t(row) + item.row) % std::int64_t(n) +
                                      std::int64_t(n)) %
                        n;
                    mask.push_back(onCoset[item.column][bitReverse(at, logN)]);
                }
                const Fp point = offset * g.pow(row);
                QVERIFY2(
                    composition[slot] == air->compositionAt(point, mask, values, alpha),
                    qPrintable(QStringLiteral("%1, slot %2").arg(QLatin1String(name)).arg(slot)));
            }
            // The values read are the columns' own at those points.
            const air::MaskItem& item = air->mask().back();
            const std::uint64_t row = bitReverse(n / 2 + 3, logN);
            QVERIFY(onCoset[item.column][n / 2 + 3] ==
                    evaluatePolynomial(coefficients[item.column], offset * g.pow(row)));
        }
    }
};

QTEST_GUILESS_MAIN(StarkPolynomialsTest)
#include "tst_stark_polynomials.moc"
