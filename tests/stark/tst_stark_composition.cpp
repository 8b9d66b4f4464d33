// The composition's vector path against the field's own arithmetic: rows held in the vector
// path's form (vector_field::rows) give the field's sums, differences, products and linear
// combinations, and the constraint evaluator gives the same composition values with its nodes
// in that form as with Montgomery words, on layouts of every size of group and chunk. Built a
// second time over the portable model of the intrinsics (tst_stark_composition_emulated), so a
// CPU without AVX-512 IFMA tests the vector code too.

#include "RandomField.h"
#include "stark/Parallel.h"
#include "stark/air/Air.h"
#include "stark/air/AirBuilder.h"
#include "stark/algebra/VectorField.h"
#include "stark/prover/ConstraintEvaluator.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace proofdesk::stark;
using proofdesk::stark::random_field::randomFp;
using proofdesk::stark::random_field::randomPolynomial;

namespace {

// 64-byte aligned storage for packed rows.
class PackedBuffer {
public:
    explicit PackedBuffer(std::size_t rows)
        : m_data(vector_field::alignedWords(m_words, vector_field::rows::words(rows))) {}
    std::uint64_t* data() { return m_data; }

private:
    std::vector<std::uint64_t> m_words;
    std::uint64_t* m_data;
};

// Random values with the extremes mixed in: 0, 1 and p − 1 at fixed places.
std::vector<Fp> valuesWithExtremes(QRandomGenerator& random, std::size_t n) {
    std::vector<Fp> values = randomPolynomial(random, n);
    const Fp minusOne = Fp::zero() - Fp::one();
    for (std::size_t i = 0; i < n; i += 3) {
        values[i] = i % 2 == 0 ? minusOne : (i % 9 == 0 ? Fp::one() : Fp::zero());
    }
    return values;
}

// The composition of random columns on a coset for `layout` at `steps` steps, with the vector
// path on or off.
std::vector<Fp> compositionOf(const std::string& layout, std::uint64_t steps, bool vectors) {
    const std::unique_ptr<air::Air> air = air::buildAir(*air::layoutNamed(layout), steps);
    QRandomGenerator random(29);
    std::map<std::string, Fp> values;
    for (const std::string& name : air->valueNames()) {
        values[name] = randomFp(random);
    }
    std::size_t columnCount = 0;
    for (const air::MaskItem& cell : air->arena().cells()) {
        columnCount = std::max<std::size_t>(columnCount, cell.column + 1);
    }
    const std::uint64_t n = air->traceLength();
    std::vector<std::vector<Fp>> columns;
    std::vector<std::span<const Fp>> spans;
    for (std::size_t c = 0; c < columnCount; ++c) {
        columns.push_back(randomPolynomial(random, n));
    }
    for (const std::vector<Fp>& column : columns) {
        spans.emplace_back(column);
    }
    const Fp offset = randomFp(random);
    const Fp alpha = randomFp(random);
    const ConstraintEvaluator evaluator(*air, values);
    vector_field::setEnabled(vectors);
    std::vector<Fp> out(n);
    evaluator.composition(spans, offset, alpha, out);
    vector_field::setEnabled(true);
    return out;
}

} // namespace

class StarkCompositionTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!vector_field::enabled()) {
            QSKIP("this CPU has no AVX-512 IFMA: tst_stark_composition_emulated runs these "
                  "cases over the model of its intrinsics");
        }
    }

    void packedRowsMatchTheField() {
        namespace rows = vector_field::rows;
        QRandomGenerator random(41);
        constexpr std::size_t n = 64;
        const std::vector<Fp> a = valuesWithExtremes(random, n);
        std::vector<Fp> b = valuesWithExtremes(random, n);
        std::rotate(b.begin(), b.begin() + 1, b.end()); // extremes meet random values too
        PackedBuffer pa(n), pb(n), sum(n), difference(n), product(n), negated(n), chained(n);
        rows::load(a.data(), n, pa.data());
        rows::load(b.data(), n, pb.data());
        rows::add(pa.data(), pb.data(), sum.data(), n);
        rows::subtract(pa.data(), pb.data(), difference.data(), n);
        rows::multiply(pa.data(), pb.data(), product.data(), n);
        rows::negate(pa.data(), negated.data(), n);
        // Results feed further operations without a conversion: (a + b)·(a − b) − (−a)·(a·b).
        rows::multiply(sum.data(), difference.data(), chained.data(), n);
        rows::multiply(negated.data(), product.data(), product.data(), n); // in place
        rows::subtract(chained.data(), product.data(), chained.data(), n);
        const auto stored = [&](PackedBuffer& rowsOf) {
            std::vector<Fp> out(n);
            rows::store(rowsOf.data(), n, out.data());
            return out;
        };
        std::vector<Fp> expectSum(n), expectDifference(n), expectNegated(n), expectChained(n);
        for (std::size_t i = 0; i < n; ++i) {
            expectSum[i] = a[i] + b[i];
            expectDifference[i] = a[i] - b[i];
            expectNegated[i] = -a[i];
            expectChained[i] = (a[i] + b[i]) * (a[i] - b[i]) - (-a[i]) * (a[i] * b[i]);
        }
        QVERIFY(stored(sum) == expectSum);
        QVERIFY(stored(difference) == expectDifference);
        QVERIFY(stored(negated) == expectNegated);
        QVERIFY(stored(chained) == expectChained);
        // A constant's rows; a load and a store give the words back.
        PackedBuffer filled(n);
        rows::fill(b[5], n, filled.data());
        QVERIFY(stored(filled) == std::vector<Fp>(n, b[5]));
        QVERIFY(stored(pa) == a);
    }

    void linearCombinationsMatchTheField() {
        // Fifteen products are summed before a reduction: counts around and far past that, and
        // none. Terms are doubled (below 2p in the vector form, as sums leave them), p − 1 among
        // them; the combination comes back below 2p, a row like any other.
        namespace rows = vector_field::rows;
        QRandomGenerator random(43);
        constexpr std::size_t n = 16;
        const Fp minusOne = Fp::zero() - Fp::one();
        for (const std::size_t count : {0, 1, 14, 15, 16, 31, 200}) {
            std::vector<std::vector<Fp>> terms;
            std::vector<PackedBuffer> packedTerms;
            std::vector<const std::uint64_t*> pointers;
            const std::vector<Fp> coefficients = valuesWithExtremes(random, count);
            for (std::size_t k = 0; k < count; ++k) {
                std::vector<Fp> term = valuesWithExtremes(random, n);
                term[k % n] = minusOne;
                packedTerms.emplace_back(n);
                rows::load(term.data(), n, packedTerms.back().data());
                // Doubled in the vector form: minusOne + minusOne is its largest sum.
                rows::add(packedTerms.back().data(), packedTerms.back().data(),
                          packedTerms.back().data(), n);
                for (Fp& value : term) {
                    value = value + value;
                }
                terms.push_back(std::move(term));
            }
            for (PackedBuffer& term : packedTerms) {
                pointers.push_back(term.data());
            }
            PackedBuffer combined(n);
            rows::combine(pointers.data(), coefficients.data(), count, combined.data(), n);
            std::vector<Fp> combination(n);
            rows::store(combined.data(), n, combination.data());
            // out += combined·factor, into words already holding values.
            const std::vector<Fp> factor = valuesWithExtremes(random, n);
            const std::vector<Fp> before = valuesWithExtremes(random, n);
            std::vector<Fp> out = before;
            rows::multiplyAddInto(combined.data(), factor.data(), out.data(), n);
            for (std::size_t i = 0; i < n; ++i) {
                Fp expected = Fp::zero();
                for (std::size_t k = 0; k < count; ++k) {
                    expected += coefficients[k] * terms[k][i];
                }
                QVERIFY2(combination[i] == expected,
                         qPrintable(QStringLiteral("%1 terms, row %2").arg(count).arg(i)));
                QVERIFY2(out[i] == before[i] + expected * factor[i],
                         qPrintable(QStringLiteral("%1 terms, row %2").arg(count).arg(i)));
            }
        }
    }

    void compositionMatchesAcrossPaths_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("steps");
        // plain at 4 steps: a chunk of 64 lanes; small: groups of many constraints; recursive:
        // the bitwise builtin's diluted pool and periodic columns.
        QTest::newRow("plain, 64 rows") << "plain" << 4;
        QTest::newRow("plain, 1,024 rows") << "plain" << 64;
        QTest::newRow("small") << "small" << 512;
        QTest::newRow("recursive") << "recursive" << 512;
    }

    void compositionMatchesAcrossPaths() {
        QFETCH(QString, layout);
        QFETCH(int, steps);
        const std::vector<Fp> scalar = compositionOf(layout.toStdString(), steps, false);
        const std::vector<Fp> vector = compositionOf(layout.toStdString(), steps, true);
        QCOMPARE(vector.size(), scalar.size());
        for (std::size_t i = 0; i < scalar.size(); ++i) {
            QVERIFY2(vector[i] == scalar[i], qPrintable(QStringLiteral("point %1").arg(i)));
        }
        // Not all zero: the columns are random, so the constraints do not hold.
        QVERIFY(std::any_of(scalar.begin(), scalar.end(), [](const Fp& v) { return !v.isZero(); }));
    }
};

QTEST_GUILESS_MAIN(StarkCompositionTest)
#include "tst_stark_composition.moc"
