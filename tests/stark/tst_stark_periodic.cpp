// Periodic columns: a column whose values repeat every P rows of an N-row trace is held as the P
// coefficients of h, its polynomial being h(x^(N/P)). Its values on cosets, its commitment and
// openings, the composition, the out-of-domain values and the DEEP composition that read it must
// each be what the whole polynomial gives: every result here is compared with the same work on
// the column expanded to N coefficients.

#include "RandomField.h"
#include "stark/Parallel.h"
#include "stark/air/Air.h"
#include "stark/air/AirBuilder.h"
#include "stark/algebra/Ntt.h"
#include "stark/algebra/Polynomials.h"
#include "stark/commitment/CommittedTable.h"
#include "stark/prover/Composition.h"

#include <QRandomGenerator>
#include <QTest>

#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace proofdesk::stark;
using proofdesk::stark::random_field::randomFp;
using proofdesk::stark::random_field::randomPolynomial;

namespace {

// h(x^(n/|h|)) as n coefficients.
std::vector<Fp> expanded(const std::vector<Fp>& h, std::size_t n) {
    std::vector<Fp> dense(n);
    const std::size_t stride = n / h.size();
    for (std::size_t t = 0; t < h.size(); ++t) {
        dense[t * stride] = h[t];
    }
    return dense;
}

// Trace columns of `air` with random coefficients; those in `periods` periodic (that many
// coefficients), the rest with N.
std::vector<std::vector<Fp>> randomColumns(const air::Air& air,
                                           const std::map<std::size_t, std::size_t>& periods,
                                           QRandomGenerator& random) {
    std::size_t count = 0;
    for (const air::MaskItem& cell : air.arena().cells()) {
        count = std::max<std::size_t>(count, cell.column + 1);
    }
    std::vector<std::vector<Fp>> columns;
    for (std::size_t c = 0; c < count; ++c) {
        const auto period = periods.find(c);
        columns.push_back(
            randomPolynomial(random, period == periods.end() ? air.traceLength() : period->second));
    }
    return columns;
}

std::vector<std::vector<Fp>*> pointersTo(std::vector<std::vector<Fp>>& columns) {
    std::vector<std::vector<Fp>*> out;
    for (std::vector<Fp>& column : columns) {
        out.push_back(&column);
    }
    return out;
}

} // namespace

class StarkPeriodicTest : public QObject {
    Q_OBJECT

private slots:
    void valuesOnCosetsAreThePolynomials_data() {
        QTest::addColumn<int>("period");
        QTest::addColumn<int>("points");
        // N = 256. stride ≥ points: one value everywhere; h larger than the coset it lands on:
        // folded; smaller: padded; a constant column.
        QTest::newRow("stride past the coset") << 4 << 16;
        QTest::newRow("h folded") << 16 << 64;
        QTest::newRow("h as large as its coset") << 64 << 256;
        QTest::newRow("h padded") << 8 << 256;
        QTest::newRow("constant") << 1 << 32;
        QTest::newRow("one point") << 32 << 1;
    }

    void valuesOnCosetsAreThePolynomials() {
        QFETCH(int, period);
        QFETCH(int, points);
        constexpr std::size_t n = 256;
        QRandomGenerator random(std::uint32_t(period * 1000 + points));
        const std::vector<Fp> h = randomPolynomial(random, std::size_t(period));
        const std::vector<Fp> dense = expanded(h, n);
        const std::uint64_t stride = n / h.size();
        const Fp offset = randomFp(random);

        std::vector<Fp> out(static_cast<std::size_t>(points));
        evaluatePeriodicOnCoset(h, stride, offset, out);
        const int logPoints = std::countr_zero(out.size());
        const Fp omega = rootOfUnity(logPoints);
        for (std::size_t i = 0; i < out.size(); ++i) {
            const Fp x = offset * omega.pow(bitReverse(i, logPoints));
            QVERIFY2(out[i] == evaluatePolynomial(dense, x),
                     qPrintable(QStringLiteral("slot %1").arg(i)));
        }

        const std::vector<Fp> period0 = periodicCosetValues(h, stride, offset);
        QCOMPARE(period0.size(), h.size());
        const Fp g = rootOfUnity(std::countr_zero(n));
        for (std::size_t k = 0; k < n; ++k) { // the values repeat past the period
            QVERIFY2(period0[k % h.size()] == evaluatePolynomial(dense, offset * g.pow(k)),
                     qPrintable(QStringLiteral("point %1").arg(k)));
        }
    }

    void commitmentsAreTheWholePolynomials_data() {
        QTest::addColumn<int>("maxBlockEntries");
        QTest::addColumn<int>("storedDepth");
        QTest::newRow("whole cosets") << (1 << 20) << 16;
        QTest::newRow("folded blocks, subtrees recomputed") << 16 << 3;
    }

    void commitmentsAreTheWholePolynomials() {
        QFETCH(int, maxBlockEntries);
        QFETCH(int, storedDepth);
        QRandomGenerator random(17);
        constexpr std::size_t n = 64;
        std::vector<std::vector<Fp>> held = {
            randomPolynomial(random, n), randomPolynomial(random, 8), randomPolynomial(random, 1),
            randomPolynomial(random, 32)};
        std::vector<std::vector<Fp>> whole;
        for (const std::vector<Fp>& h : held) {
            whole.push_back(expanded(h, n));
        }
        const CommitmentHashes hashes{*NamedHash::named("keccak256_masked160_lsb"),
                                      *NamedHash::named("keccak256_masked160_lsb"), 0};
        const EvaluationDomain domain{8, Fp::fromU64(3), 1};
        CommittedTable periodic({held.begin(), held.end()}, domain, hashes, {}, storedDepth,
                                std::size_t(maxBlockEntries));
        CommittedTable expected({whole.begin(), whole.end()}, domain, hashes, {}, storedDepth,
                                std::size_t(maxBlockEntries));
        QVERIFY(periodic.commit() == expected.commit());
        for (const std::uint64_t row : {0, 1, 77, 128, 255}) {
            QVERIFY2(periodic.row(row) == expected.row(row),
                     qPrintable(QStringLiteral("row %1").arg(row)));
        }
    }

    void compositionAndOutOfDomainAreTheWholeColumns_data() {
        QTest::addColumn<int>("manyRows"); // rows read from which a column takes the transforms
        QTest::newRow("as the prover chooses") << 0;
        QTest::newRow("every column by transforms") << 1;
    }

    void compositionAndOutOfDomainAreTheWholeColumns() {
        QFETCH(int, manyRows);
        // small at 512 steps (8,192 rows): Pedersen's columns 3 to 18 periodic, as a run that
        // hashes nothing has them, one of them constant.
        const std::unique_ptr<air::Air> air = air::buildAir(*air::layoutNamed("small"), 512);
        const std::uint64_t n = air->traceLength();
        QRandomGenerator random(41);
        std::map<std::string, Fp> values;
        for (const std::string& name : air->valueNames()) {
            values[name] = randomFp(random);
        }
        std::map<std::size_t, std::size_t> periods;
        for (std::size_t c = 3; c <= 18; ++c) {
            periods[c] = c == 7 ? 1 : 512;
        }
        std::vector<std::vector<Fp>> held = randomColumns(*air, periods, random);
        std::vector<std::vector<Fp>> whole;
        for (const std::vector<Fp>& column : held) {
            whole.push_back(expanded(column, n));
        }
        const Fp alpha = randomFp(random);
        const Fp z = randomFp(random);
        const Fp deepAlpha = randomFp(random);

        const auto run = [&](std::vector<std::vector<Fp>>& columns) {
            const std::vector<std::vector<Fp>*> all = pointersTo(columns);
            const std::vector<std::vector<Fp>> halves =
                compositionHalves(*air, values, all, alpha, {}, [](double) {});
            const std::size_t rows = manyRows == 0 ? kRowsForTransform : std::size_t(manyRows);
            const std::vector<Fp> oods = outOfDomainValues(*air, all, halves, z, rows);
            const std::size_t convolved =
                manyRows == 0 ? kRowsForConvolution : std::size_t(manyRows);
            std::vector<Fp> deep = deepComposition(*air, all, {&halves[0], &halves[1]}, oods, z,
                                                   deepAlpha, {}, convolved);
            return std::make_tuple(halves, oods, std::move(deep));
        };
        const auto [heldHalves, heldOods, heldDeep] = run(held);
        const auto [wholeHalves, wholeOods, wholeDeep] = run(whole);
        QVERIFY(heldHalves == wholeHalves);
        QVERIFY(heldOods == wholeOods);
        QVERIFY(heldDeep == wholeDeep);
        // The periodic columns are as they were (held, not turned into values).
        for (const auto& [column, period] : periods) {
            QCOMPARE(held[column].size(), period);
            QVERIFY(expanded(held[column], n) == whole[column]);
        }
    }
};

QTEST_GUILESS_MAIN(StarkPeriodicTest)
#include "tst_stark_periodic.moc"
