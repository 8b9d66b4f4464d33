// Our STARK verifier against real Stone proofs (../shared/fixtures, skipped without them): every
// proof of a layout we describe verifies, with the statement and facts it carries; a bit flipped
// anywhere in proof_hex, a changed public input or a swapped layout is refused by the check that
// should catch it.

#include "stark/verifier/ProofVerifier.h"
#include "stark/verifier/VerdictJson.h"

#include "core/BoundedJson.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace proofdesk::stark;

namespace {

const QString kFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo");

nlohmann::json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return nlohmann::json();
    }
    return proofdesk::core::parseJsonBounded(file.readAll().toStdString());
}

// Every Stone proof among the fixtures: proofs/stone/*.json with a proof_hex, runs/*/proof.json.
QStringList fixtureProofs() {
    QStringList paths;
    const QDir stone(kFixtures + QStringLiteral("/proofs/stone"));
    for (const QString& name :
         stone.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        if (readJson(stone.filePath(name)).contains("proof_hex")) {
            paths << stone.filePath(name);
        }
    }
    const QDir runs(kFixtures + QStringLiteral("/runs"));
    for (const QString& run : runs.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (QFile::exists(runs.filePath(run + QStringLiteral("/proof.json")))) {
            paths << runs.filePath(run + QStringLiteral("/proof.json"));
        }
    }
    return paths;
}

// Moonsong's bootloader proof (starknet_with_keccak, 2^20 rows) carries 734 out-of-domain values
// where the layout's 734 mask cells and 2 composition columns take 736 (every other proof of the
// layout carries 736, cairo-lang's at 2^20 rows too, and verifies): it is refused there.
bool outOfDomainSectionShort(const QString& path) {
    return path.contains(QStringLiteral("moonsong_bootloader_fibonacci_starknet_with_keccak"));
}

std::string hexOf(const std::vector<std::uint8_t>& bytes) {
    static const char* digits = "0123456789abcdef";
    std::string out = "0x";
    for (const std::uint8_t b : bytes) {
        out.push_back(digits[b >> 4]);
        out.push_back(digits[b & 15]);
    }
    return out;
}

} // namespace

class StarkVerifierTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!QDir(kFixtures).exists()) {
            QSKIP("../shared/fixtures is not here");
        }
    }

    void everyFixtureProof_data() {
        QTest::addColumn<QString>("path");
        for (const QString& path : fixtureProofs()) {
            const QByteArray row = QFileInfo(path).dir().dirName().toUtf8() + '/' +
                                   QFileInfo(path).fileName().toUtf8();
            QTest::newRow(row.constData()) << path;
        }
    }

    void everyFixtureProof() {
        QFETCH(QString, path);
        const nlohmann::json proof = readJson(path);
        const Verdict verdict = verifyStoneProof(proof);
        const std::string layout = proof["public_input"]["layout"].get<std::string>();
        if (outOfDomainSectionShort(path)) {
            QVERIFY(!verdict.valid);
            QCOMPARE(verdict.failedCheck,
                     std::string("the out-of-domain values: element 734 is not below the prime"));
            return;
        }
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        QVERIFY(verdict.seedVariant.has_value());
        // Integrity's file names say which serialisation seeded the channel.
        const QString name = QFileInfo(path).fileName();
        if (name.contains(QStringLiteral("stone5"))) {
            QVERIFY(*verdict.seedVariant == SeedVariant::Stone5);
        } else if (name.contains(QStringLiteral("stone6"))) {
            QVERIFY(*verdict.seedVariant == SeedVariant::Stone6);
        }
        bool pages = false;
        for (const auto& cell : proof["public_input"]["public_memory"]) {
            pages = pages || cell["page"].get<int>() != 0;
        }
        if (pages) {
            // Output in continuous pages (SHARP's fact topology, as in cairo-lang's example),
            // which a strict statement (the default for Cairo 0) does not take: verified, and the
            // statement's absence explained.
            QVERIFY(!verdict.statement.has_value());
            QVERIFY2(verdict.statementError.find("continuous memory pages") != std::string::npos,
                     verdict.statementError.c_str());
            // The output cells, pages included, are every cell of the output segment.
            const MemorySegment* output = verdict.publicInput->segment("output");
            QVERIFY(output != nullptr);
            QCOMPARE(verdict.publicInput->outputCells().size(),
                     std::size_t(output->stop - output->begin));
            return;
        }
        QVERIFY2(verdict.statement.has_value(), verdict.statementError.c_str());
        QVERIFY(verdict.statement->layout == layout);
        if (name.contains(QStringLiteral("cairo1"))) {
            QVERIFY(verdict.statement->memoryVerification == MemoryVerification::Cairo1);
        } else if (name.contains(QStringLiteral("cairo0"))) {
            QVERIFY(verdict.statement->memoryVerification == MemoryVerification::Strict);
        }
        QVERIFY(verdict.securityBits > 0);
        // Every byte of the proof belongs to a section the verifier read.
        QCOMPARE(verdict.trace.sections.back().end, verdict.trace.proofBytes);
    }

    void integrityProofsCarryTheirFactsAndTheirProgramHash() {
        const nlohmann::json proof = readJson(
            kFixtures +
            QStringLiteral("/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json"));
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(verdict.valid);
        const nlohmann::json json = verdictJson(verdict);
        QVERIFY(json["layout"] == "recursive");
        QVERIFY(json["nSteps"] == 65536);
        QVERIFY(json["stoneVersion"] == "stone6");
        QVERIFY(json["securityBits"] == 18 * 2 + 24);
        QVERIFY(json["statement"]["memoryVerification"] == "strict");
        // Integrity's fibonacci example: fibonacci_claim_index 10000 (its input fixture).
        QVERIFY(json["statement"]["output"][0] == "0x2710");
        QVERIFY(json["statement"]["builtins"] ==
                nlohmann::json({"output", "pedersen", "range_check", "bitwise"}));
        QVERIFY(json["statement"]["programHash"].is_string());
        QCOMPARE(json["statement"]["sharpFactHash"].get<std::string>().size(), std::size_t(66));
    }

    void theProgramHashAgreesWithTheCompiledProgram() {
        // Moonsong's proof of fibonacci.json: the hash read from the proof's public memory is the
        // compute_program_hash_chain of the compiled program (published for that bytecode).
        const nlohmann::json proof = readJson(
            kFixtures + QStringLiteral("/runs/moonsong_fibonacci_starknet_with_keccak/proof.json"));
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(verdict.statement.has_value());
        QVERIFY(verdict.statement->programHash.has_value());
        QVERIFY(verdict.statement->programHash->toHex() ==
                "0x6fc56a47599a5cc20bb3c6d4c5397f872bb6269f036e383f4c13986d4020952");
    }

    void aFlippedBitIsCaughtInEverySection_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("felt channel, keccak and poseidon commitments")
            << kFixtures +
                   QStringLiteral(
                       "/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json");
        QTest::newRow("felt channel, blake commitments, first FRI step 0")
            << kFixtures + QStringLiteral(
                               "/proofs/stone/integrity_small_cairo0_stone6_blake2s_248_lsb.json");
        QTest::newRow("mixed hashes below 10 verifier-friendly layers")
            << kFixtures +
                   QStringLiteral("/proofs/stone/swiftness_recursive_cairo0_stone6_nvf10.json");
        QTest::newRow("dynamic layout: the mask order its parameters give")
            << kFixtures +
                   QStringLiteral("/proofs/stone/swiftness_dynamic_cairo0_stone6_nvf10.json");
    }

    void aFlippedBitIsCaughtInEverySection() {
        QFETCH(QString, path);
        const nlohmann::json proof = readJson(path);
        const Verdict reference = verifyStoneProof(proof);
        QVERIFY(reference.valid);
        const std::vector<std::uint8_t> bytes =
            proofBytesFromHex(proof["proof_hex"].get<std::string>());
        // The stage that must catch a flip in each section.
        const std::map<std::string, Stage> expected = {
            {"trace commitment", Stage::OutOfDomain},
            {"interaction commitment", Stage::OutOfDomain},
            {"composition commitment", Stage::OutOfDomain},
            {"out-of-domain values", Stage::OutOfDomain},
            {"FRI commitments and last layer", Stage::ProofOfWork},
            {"proof-of-work nonce", Stage::ProofOfWork},
            {"trace decommitment", Stage::Decommitment},
            {"interaction decommitment", Stage::Decommitment},
            {"composition decommitment", Stage::Decommitment},
            {"FRI decommitments", Stage::Fri}};
        for (const ProofSection& section : reference.trace.sections) {
            // Three places in the section: its first, middle and last 32-byte word; the word's last
            // byte keeps every felt below p.
            const std::size_t words = (section.end - section.begin) / 32;
            for (const std::size_t word : {std::size_t(0), words / 2, words - 1}) {
                std::vector<std::uint8_t> mutated = bytes;
                const std::size_t at = section.begin + 32 * word + 31;
                mutated[at] ^= 0x04;
                nlohmann::json bad = proof;
                bad["proof_hex"] = hexOf(mutated);
                VerifyOptions options;
                options.seedVariant = reference.seedVariant;
                const Verdict verdict = verifyStoneProof(bad, options);
                QVERIFY2(!verdict.valid, (section.name + " at byte " + std::to_string(at)).c_str());
                // A `dynamic` proof carries out-of-domain values of the builtins its run leaves
                // out, which no constraint reads: the changed transcript then fails the proof of
                // work instead.
                const bool unreadCell = section.name == "out-of-domain values" &&
                                        verdict.failedStage == Stage::ProofOfWork &&
                                        proof["public_input"]["layout"] == "dynamic";
                QVERIFY2(
                    verdict.failedStage == expected.at(section.name) || unreadCell,
                    (section.name + " at byte " + std::to_string(at) + ": " + verdict.failedCheck)
                        .c_str());
            }
        }
    }

    void aTruncatedProofSaysWhatIsMissing() {
        nlohmann::json proof = readJson(
            kFixtures +
            QStringLiteral("/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json"));
        std::string hex = proof["proof_hex"].get<std::string>();
        hex.resize(hex.size() - 2 * 1204);
        proof["proof_hex"] = hex;
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(!verdict.valid);
        QVERIFY(*verdict.failedStage == Stage::Transcript);
        QVERIFY2(verdict.failedCheck.starts_with("proof ends early"), verdict.failedCheck.c_str());
        QVERIFY2(verdict.failedCheck.find("FRI layer") != std::string::npos,
                 verdict.failedCheck.c_str());
    }

    void aChangedStatementIsRefused_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<int>("stage");
        QTest::newRow("public memory value") << QStringLiteral("memory") << int(Stage::OutOfDomain);
        QTest::newRow("n_steps") << QStringLiteral("n_steps") << int(Stage::Parameters);
        QTest::newRow("layout") << QStringLiteral("layout") << int(Stage::PublicInput);
        QTest::newRow("rc_max") << QStringLiteral("rc_max") << int(Stage::OutOfDomain);
        QTest::newRow("output segment end") << QStringLiteral("output") << int(Stage::OutOfDomain);
    }

    void aChangedStatementIsRefused() {
        QFETCH(QString, change);
        QFETCH(int, stage);
        nlohmann::json proof = readJson(
            kFixtures +
            QStringLiteral("/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json"));
        nlohmann::json& input = proof["public_input"];
        if (change == QStringLiteral("memory")) {
            input["public_memory"][10]["value"] = "0x1234";
        } else if (change == QStringLiteral("n_steps")) {
            input["n_steps"] = 32768;
        } else if (change == QStringLiteral("layout")) {
            input["layout"] = "small";
        } else if (change == QStringLiteral("rc_max")) {
            input["rc_max"] = input["rc_max"].get<int>() + 1;
        } else {
            input["memory_segments"]["output"]["stop_ptr"] =
                input["memory_segments"]["output"]["stop_ptr"].get<int>() + 1;
        }
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(!verdict.valid);
        QVERIFY2(verdict.failedStage == Stage(stage), verdict.failedCheck.c_str());
    }

    void aDynamicProofIsReadWithItsOwnParameters() {
        // The `dynamic` layout places every column by the public input's dynamic_params: its
        // proof verifies with its statement, the 941 out-of-domain values in Stone's order.
        const nlohmann::json proof = readJson(
            kFixtures + QStringLiteral("/proofs/stone/swiftness_dynamic_cairo0_stone6_nvf10.json"));
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        QCOMPARE(verdict.trace.maskSize, std::size_t(941));
        QCOMPARE(verdict.trace.constraints, std::size_t(419));
        QVERIFY(verdict.statement.has_value());
        QVERIFY(verdict.statement->memoryVerification == MemoryVerification::Strict);
        // The proof-mode header declares all eleven builtins of the layout; the unused ones'
        // empty segments share one address and are told apart by their order.
        QVERIFY(verdict.statement->builtins.has_value());
        QCOMPARE(verdict.statement->builtins->size(), std::size_t(11));
        QVERIFY(verdict.statement->builtins->at(1) == "pedersen");
        QVERIFY(verdict.statement->builtins->at(10) == "mul_mod");
        QVERIFY(verdict.statement->output.size() == 4);
        QVERIFY(verdict.statement->output[3] == proofdesk::crypto::Felt::fromU64(10000));
    }

    void dynamicParametersThatDoNotFitAreRefused_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("words");
        QTest::addColumn<int>("stage");
        const auto row = [](const char* title, const char* name, const char* value,
                            const char* words, Stage stage) {
            QTest::newRow(title) << QByteArray(name) << QByteArray(value) << QByteArray(words)
                                 << int(stage);
        };
        row("a column moved", "cpu__registers__ap_offset", "11", "out-of-domain check",
            Stage::OutOfDomain);
        row("a parameter missing", "cpu__registers__fp_offset", "", "dynamic_params lacks",
            Stage::Parameters);
        row("an unknown parameter", "cpu__registers__sp_offset", "3", "does not take",
            Stage::Parameters);
        row("a step not a power of two", "cpu_component_step", "3", "not a power of two",
            Stage::Parameters);
        row("a column beyond the trace", "cpu__registers__ap_column", "4000", "trace columns",
            Stage::Parameters);
        row("a row ratio below one hash", "pedersen_builtin_row_ratio", "256", "not a multiple",
            Stage::Parameters);
        row("a value out of range", "memory_units_row_ratio", "9223372036854775807", "out of range",
            Stage::Parameters);
        row("a used builtin with no room", "uses_bitwise_builtin", "1", "not a power of two",
            Stage::Parameters);
        row("an unused builtin with cells", "uses_pedersen_builtin", "0", "does not use",
            Stage::PublicInput);
    }

    void dynamicParametersThatDoNotFitAreRefused() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, words);
        QFETCH(int, stage);
        nlohmann::json proof = readJson(
            kFixtures + QStringLiteral("/proofs/stone/swiftness_dynamic_cairo0_stone6_nvf10.json"));
        nlohmann::json& params = proof["public_input"]["dynamic_params"];
        if (value.isEmpty()) {
            params.erase(name.toStdString());
        } else {
            params[name.toStdString()] = std::stoull(value.toStdString());
        }
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(!verdict.valid);
        QVERIFY2(verdict.failedCheck.find(words.toStdString()) != std::string::npos,
                 verdict.failedCheck.c_str());
        QVERIFY2(verdict.failedStage == Stage(stage), verdict.failedCheck.c_str());
    }

    void aStaticLayoutTakesNoDynamicParameters() {
        nlohmann::json proof = readJson(
            kFixtures +
            QStringLiteral("/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json"));
        proof["public_input"]["dynamic_params"] = {{"cpu_component_step", 1}};
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(!verdict.valid);
        QVERIFY2(verdict.failedCheck.find("takes no dynamic_params") != std::string::npos,
                 verdict.failedCheck.c_str());
    }

    void theMockProversProofIsNotAStarkProof() {
        const nlohmann::json mocked = {{"mocked", true}, {"layout", "recursive"}};
        const Verdict verdict = verifyStoneProof(mocked);
        QVERIFY(!verdict.valid);
        QVERIFY2(verdict.failedCheck.starts_with("not a STARK proof"), verdict.failedCheck.c_str());
    }

    void absurdParametersAreRefusedCheaply_data() {
        QTest::addColumn<QByteArray>("pointer");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("words");
        QTest::newRow("a billion queries") << QByteArray("/proof_parameters/stark/fri/n_queries")
                                           << QByteArray("1000000000") << QByteArray("n_queries");
        QTest::newRow("steps that do not add up")
            << QByteArray("/proof_parameters/stark/fri/last_layer_degree_bound") << QByteArray("64")
            << QByteArray("FRI steps sum");
        QTest::newRow("a log size over 64") << QByteArray("/proof_parameters/stark/log_n_cosets")
                                            << QByteArray("70") << QByteArray("log_n_cosets");
        QTest::newRow("an unknown hash") << QByteArray("/proof_parameters/commitment_hash")
                                         << QByteArray("\"sha3\"") << QByteArray("commitment_hash");
        QTest::newRow("an unknown layout")
            << QByteArray("/public_input/layout") << QByteArray("\"tiny\"")
            << QByteArray("is not a Cairo layout");
        QTest::newRow("n_steps not a power of two")
            << QByteArray("/public_input/n_steps") << QByteArray("65535")
            << QByteArray("power of two");
        QTest::newRow("bad hex") << QByteArray("/proof_hex") << QByteArray("\"0x12zz\"")
                                 << QByteArray("non-hex");
    }

    void absurdParametersAreRefusedCheaply() {
        QFETCH(QByteArray, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, words);
        nlohmann::json proof = readJson(
            kFixtures +
            QStringLiteral("/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json"));
        proof[nlohmann::json::json_pointer(pointer.toStdString())] =
            nlohmann::json::parse(value.toStdString());
        const Verdict verdict = verifyStoneProof(proof);
        QVERIFY(!verdict.valid);
        QVERIFY2(verdict.failedCheck.find(words.toStdString()) != std::string::npos,
                 verdict.failedCheck.c_str());
        // Refused before any cryptography.
        QVERIFY2(verdict.failedStage == Stage::Parameters ||
                     verdict.failedStage == Stage::PublicInput ||
                     verdict.failedStage == Stage::Transcript,
                 verdict.failedCheck.c_str());
    }
};

QTEST_GUILESS_MAIN(StarkVerifierTest)
#include "tst_stark_verifier.moc"
