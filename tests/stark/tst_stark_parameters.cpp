// The prover's parameter chooser (issues #21 and #48): every trace size and security target met
// exactly as the verifier counts bits, for Stone's and Integrity's channels and for both profiles
// (`size`: the smallest proof, Stone's usual parameters at 96 bits; `time`: the blow-up the cost
// model predicts fastest, 2, and the queries the rest of the bits need).

#include "stark/proof/ProofParameters.h"
#include "stark/prover/ParameterChooser.h"

#include <QTest>

#include <bit>
#include <cmath>

using namespace proofdesk::stark;

class StarkParametersTest : public QObject {
    Q_OBJECT
private slots:
    void parametersMeetTheirSecurityTarget() {
        for (const int log : {4, 8, 14, 20, 24, 28}) {
            for (const int target : {40, 80, 96, 128}) {
                for (const auto& [profile, optimize] :
                     {std::pair{ChannelProfile::Stone, Optimize::Size},
                      std::pair{ChannelProfile::Integrity, Optimize::Size},
                      std::pair{ChannelProfile::Stone, Optimize::Time},
                      std::pair{ChannelProfile::Integrity, Optimize::Time}}) {
                    const ProofParameters p =
                        chooseParameters(std::uint64_t(1) << log, target, profile, optimize);
                    QVERIFY2(securityBits(p) >= target, qPrintable(QString::number(log)));
                    QVERIFY(securityBits(p) < target + p.logCosets);
                    int folds = 0;
                    for (const int step : p.friSteps) {
                        QVERIFY(step >= 0 && step <= 4);
                        folds += step;
                    }
                    QCOMPARE(folds + std::countr_zero(p.lastLayerDegreeBound), log);
                    QCOMPARE(p.friSteps.front(), 0);
                }
            }
        }
        // The default profile is Stone's: 18 queries, 24 bits of work, last layer 64, blow-up 16.
        const ProofParameters stone = chooseParameters(std::uint64_t(1) << 20);
        QCOMPARE(stone.queries, std::uint64_t(18));
        QCOMPARE(stone.proofOfWorkBits, 24);
        QCOMPARE(stone.lastLayerDegreeBound, std::uint64_t(64));
        QCOMPARE(stone.logCosets, 4);
        QCOMPARE(stone.friSteps, (std::vector<int>{0, 4, 4, 4, 2}));
        QCOMPARE(stone.channelHash, std::string("keccak256"));
        // Lower targets take a smaller blow-up, as long as 18 queries cover the rest.
        const ProofParameters low = chooseParameters(std::uint64_t(1) << 20, 32);
        QCOMPARE(low.logCosets, 2);
        QCOMPARE(low.queries, std::uint64_t(12));
        QCOMPARE(low.proofOfWorkBits, 8);
        const ProofParameters middle = chooseParameters(std::uint64_t(1) << 20, 64);
        QCOMPARE(middle.logCosets, 3);
        QCOMPARE(middle.queries, std::uint64_t(16));
        QCOMPARE(chooseParameters(std::uint64_t(1) << 20, 128).logCosets, 4);
        // The speed profile reaches the same 96 bits from an eighth of the evaluation domain:
        // blow-up 2, four times the queries, the same work and FRI.
        const ProofParameters fast =
            chooseParameters(std::uint64_t(1) << 20, 96, ChannelProfile::Stone, Optimize::Time);
        QCOMPARE(fast.logCosets, 1);
        QCOMPARE(fast.queries, std::uint64_t(72));
        QCOMPARE(fast.proofOfWorkBits, 24);
        QCOMPARE(securityBits(fast), 96);
        QCOMPARE(fast.friSteps, stone.friSteps);
        // The cost model behind it: a blow-up's commitment costs more than the halvings its
        // extra queries add (72 queries at blow-up 2: 12.25 units of halving, 36 at 4: 16.5),
        // at every security target the tests above ask for.
        QVERIFY(std::abs(predictedProvingCost(1, 72) - (2 * 13.9 + 12.25)) < 1e-6);
        QVERIFY(std::abs(predictedProvingCost(2, 36) - (4 * 13.9 + 16.5)) < 1e-6);
        for (const int target : {40, 80, 96, 128, 256}) {
            QCOMPARE(chooseParameters(std::uint64_t(1) << 20, target, ChannelProfile::Stone,
                                      Optimize::Time)
                         .logCosets,
                     1);
        }
        // Integrity's channel stays within the 48 queries its verifier takes: at 96 bits blow-up
        // 4 (36 queries), at 128 bits blow-up 8 (35).
        const ProofParameters integrityFast =
            chooseParameters(std::uint64_t(1) << 20, 96, ChannelProfile::Integrity, Optimize::Time);
        QCOMPARE(integrityFast.logCosets, 2);
        QCOMPARE(integrityFast.queries, std::uint64_t(36));
        for (const int target : {40, 80, 96, 128, 200}) {
            QVERIFY(chooseParameters(std::uint64_t(1) << 20, target, ChannelProfile::Integrity,
                                     Optimize::Time)
                        .queries <= 48);
        }
        QCOMPARE(
            chooseParameters(std::uint64_t(1) << 20, 128, ChannelProfile::Integrity, Optimize::Time)
                .logCosets,
            3);
        QCOMPARE(optimizeNamed("time"), std::optional<Optimize>(Optimize::Time));
        QCOMPARE(optimizeNamed("size"), std::optional<Optimize>(Optimize::Size));
        QVERIFY(!optimizeNamed("fast"));
        const ProofParameters integrity =
            chooseParameters(std::uint64_t(1) << 20, 96, ChannelProfile::Integrity);
        QCOMPARE(integrity.channelHash, std::string("poseidon3"));
        QVERIFY(integrity.verifierFriendlyChannelUpdates);
    }
};

QTEST_MAIN(StarkParametersTest)
#include "tst_stark_parameters.moc"
