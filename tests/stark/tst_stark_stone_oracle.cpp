// Our proofs against Stone's own verifier, where a developer has one (issue #21): Stone's
// cpu_air_verifier is not part of this project, and CI has none, so every case skips without it.

#include "ProverRuns.h"

#include "stark/prover/ProofJson.h"
#include "stark/prover/StarkProver.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace proofdesk::stark;
using namespace proofdesk::stark::test_runs;

class StarkStoneOracleTest : public QObject {
    Q_OBJECT

private slots:
    // Stone's own verifier, where a developer has one (PROOFDESK_STONE_VERIFIER: the path of
    // Stone v3's cpu_air_verifier, which seeds its channel as stone6 does;
    // PROOFDESK_STONE5_VERIFIER: one of the Stone before v3, commit ba85f37, which seeds it as
    // stone5 does; neither is part of this project, and CI has none and skips): it accepts our
    // proof files of each layout family, in both channels and with both seeds, and refuses one with
    // a byte of the proof changed.
    void stonesVerifierAcceptsOurProofs_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("profile");
        QTest::addColumn<int>("seed");
        const int stone6 = int(SeedVariant::Stone6);
        const int stone5 = int(SeedVariant::Stone5);
        QTest::newRow("plain, stone") << "plain" << int(ChannelProfile::Stone) << stone6;
        QTest::newRow("plain, integrity") << "plain" << int(ChannelProfile::Integrity) << stone6;
        QTest::newRow("small, stone") << "small" << int(ChannelProfile::Stone) << stone6;
        QTest::newRow("recursive, integrity")
            << "recursive" << int(ChannelProfile::Integrity) << stone6;
        QTest::newRow("dynamic, stone") << "dynamic" << int(ChannelProfile::Stone) << stone6;
        QTest::newRow("dynamic with the mod builtins, stone")
            << "dynamic mod" << int(ChannelProfile::Stone) << stone6;
        QTest::newRow("small, stone, stone5") << "small" << int(ChannelProfile::Stone) << stone5;
        QTest::newRow("plain, integrity, stone5")
            << "plain" << int(ChannelProfile::Integrity) << stone5;
        QTest::newRow("recursive, integrity, stone5")
            << "recursive" << int(ChannelProfile::Integrity) << stone5;
    }

    void stonesVerifierAcceptsOurProofs() {
        QFETCH(QString, layout);
        QFETCH(int, profile);
        QFETCH(int, seed);
        const char* variable = SeedVariant(seed) == SeedVariant::Stone5
                                   ? "PROOFDESK_STONE5_VERIFIER"
                                   : "PROOFDESK_STONE_VERIFIER";
        const QString verifier = qEnvironmentVariable(variable);
        if (verifier.isEmpty()) {
            QSKIP(qPrintable(QStringLiteral("%1 (the path of Stone's cpu_air_verifier) is not set")
                                 .arg(QLatin1String(variable))));
        }
        const CairoRun run =
            layout == QStringLiteral("dynamic mod")
                ? modBuiltinsRun("dynamic")
                : (layout == QStringLiteral("dynamic")
                       ? countdownRun("dynamic", 20, dynamicParamsWithout({"keccak", "ecdsa"}))
                       : countdownRun(layout.toStdString()));
        ProverOptions options;
        options.parameters = testParameters(run, ChannelProfile(profile));
        options.seedVariant = SeedVariant(seed);
        const ProverResult result = proveCairoRun(run, options);
        nlohmann::ordered_json proof =
            stoneProofJson(result, options.parameters, defaultProverConfig(), run);
        QTemporaryDir dir;
        const auto stoneAccepts = [&](const nlohmann::ordered_json& file) {
            QFile out(dir.filePath(QStringLiteral("proof.json")));
            if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
                qFatal("cannot write the proof file");
            }
            out.write(QByteArray::fromStdString(file.dump()));
            out.close();
            QProcess stone;
            stone.start(verifier, {QStringLiteral("--in_file=") + out.fileName(),
                                   QStringLiteral("--logtostderr")});
            if (!stone.waitForFinished(120000)) {
                qFatal("Stone's verifier did not finish");
            }
            return stone.exitStatus() == QProcess::NormalExit && stone.exitCode() == 0;
        };
        QVERIFY(stoneAccepts(proof));
        std::string hex = proof["proof_hex"];
        hex[hex.size() / 2] = hex[hex.size() / 2] == '0' ? '1' : '0';
        proof["proof_hex"] = hex;
        QVERIFY(!stoneAccepts(proof));
    }
};

QTEST_GUILESS_MAIN(StarkStoneOracleTest)
#include "tst_stark_stone_oracle.moc"
