// The pieces of our STARK verifier on their own: the field, the hashes and their masks, Stone's
// two channels, table commitments, the FRI fold, the diluted check's closed form, and the shape of
// every layout's AIR (constraint count and mask size, as Stone's generated definitions have them).

#include "cairo/vm/Layout.h"
#include "stark/air/Air.h"
#include "stark/channel/ProofReader.h"
#include "stark/channel/Transcript.h"
#include "stark/commitment/TableCommitment.h"
#include "stark/field/Fp.h"
#include "stark/fri/FriVerifier.h"
#include "stark/proof/PublicInput.h"

#include "core/BoundedJson.h"
#include "crypto/Poseidon.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <string_view>

using namespace proofdesk::stark;
using proofdesk::crypto::Felt;

namespace {

const QString kFixtures = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo");

Fp randomFp(QRandomGenerator& random) {
    Felt::Limbs limbs{random.generate64(), random.generate64(), random.generate64(),
                      random.generate64() & 0x07ffffffffffffffULL};
    return Fp::fromFelt(Felt::fromLimbsReduced(limbs));
}

} // namespace

class StarkProtocolTest : public QObject {
    Q_OBJECT

private slots:
    void fieldArithmeticAgreesWithFelt() {
        QRandomGenerator random(7);
        for (int i = 0; i < 200; ++i) {
            const Fp a = randomFp(random), b = randomFp(random);
            QVERIFY((a * b).toFelt() == a.toFelt() * b.toFelt());
            QVERIFY((a + b).toFelt() == a.toFelt() + b.toFelt());
            QVERIFY((a - b).toFelt() == a.toFelt() - b.toFelt());
            if (!a.isZero()) {
                QVERIFY(a * a.inverse() == Fp::one());
            }
        }
        std::vector<Fp> values = {Fp::fromU64(2), Fp::fromU64(3), Fp::fromU64(5)};
        invertAll(values);
        QVERIFY(values[2] * Fp::fromU64(5) == Fp::one());
    }

    void rootsOfUnityHaveTheirOrder() {
        for (const int log : {1, 4, 16, 20}) {
            const Fp root = rootOfUnity(log);
            QVERIFY(root.pow(std::uint64_t(1) << log) == Fp::one());
            QVERIFY(root.pow(std::uint64_t(1) << (log - 1)) == -Fp::one());
        }
        QCOMPARE(bitReverse(0b0011, 4), std::uint64_t(0b1100));
    }

    void wireForms() {
        // Stone's byte channels send the Montgomery word (value·2^256 mod p); the felt channel
        // the value.
        const Fp seven = Fp::fromU64(7);
        std::uint8_t bytes[32];
        toStandardBytes(seven, bytes);
        QCOMPARE(int(bytes[31]), 7);
        toMontgomeryBytes(seven, bytes);
        QVERIFY(*fromMontgomeryBytes(bytes) == seven);
        QVERIFY(fromStandardBytes(bytes) != std::optional<Fp>(seven));
        std::uint8_t tooLarge[32];
        std::memset(tooLarge, 0xff, 32);
        QVERIFY(!fromStandardBytes(tooLarge));
    }

    void byteHashesAndMasks() {
        QRandomGenerator random(1);
        for (const int size : {0, 1, 135, 136, 137, 300}) {
            QByteArray data(size, Qt::Uninitialized);
            for (char& c : data) {
                c = char(random.bounded(256));
            }
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.constData());
            QCOMPARE(QByteArray(reinterpret_cast<const char*>(
                                    keccak256({bytes, std::size_t(size)}).data()),
                                32),
                     QCryptographicHash::hash(data, QCryptographicHash::Keccak_256));
            QCOMPARE(QByteArray(reinterpret_cast<const char*>(
                                    blake2s256({bytes, std::size_t(size)}).data()),
                                32),
                     QCryptographicHash::hash(data, QCryptographicHash::Blake2s_256));
        }
        const std::uint8_t abc[] = {'a', 'b', 'c'};
        const Digest full = keccak256(abc);
        const Digest lsb = *NamedHash::named("keccak256_masked160_lsb")->hashBytes(abc);
        const Digest msb = *NamedHash::named("keccak256_masked160_msb")->hashBytes(abc);
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(lsb[std::size_t(i)], i < 12 ? std::uint8_t(0) : full[std::size_t(i)]);
            QCOMPARE(msb[std::size_t(i)], i < 20 ? full[std::size_t(i)] : std::uint8_t(0));
        }
        QVERIFY(!NamedHash::named("keccak256_masked161_lsb"));
        QVERIFY(!NamedHash::named("sha256"));
    }

    // The prover's grinder finds the smallest nonce the proof-of-work check accepts, on one thread
    // and on two (which search chunks of 16,384 nonces side by side); Keccak's are hashed eight at
    // a time lane by lane, a masked Keccak's heads read after masking, blake256 one at a time.
    void grindingFindsTheSmallestNonce() {
        for (const char* name : {"keccak256", "keccak256_masked160_msb", "blake256"}) {
            const auto named = NamedHash::named(name);
            QVERIFY(named);
            const NamedHash& hash = *named;
            for (const int bits : {9, 16}) {
                Digest seed{};
                seed[0] = std::uint8_t(bits);
                seed[31] = std::uint8_t(std::string_view(name).size());
                std::uint64_t smallest = 0;
                while (!proofOfWorkHolds(hash, seed, bits, smallest)) {
                    ++smallest;
                }
                for (const int threads : {1, 2}) {
                    QCOMPARE(grindProofOfWork(hash, seed, bits, threads), smallest);
                }
            }
        }
    }

    void theFeltChannelIsAPoseidonChain() {
        // absorb(m): state = poseidon_many(state + 1, m…); draw: poseidon(state, counter).
        const Fp seed = Fp::fromU64(1234);
        auto transcript = makeTranscript("poseidon3", feltAsDigest(seed));
        std::uint8_t word[32];
        toStandardBytes(Fp::fromU64(99), word);
        QVERIFY(transcript->absorb({word, 32}));
        const Felt state =
            proofdesk::crypto::poseidonHashMany({Felt::fromU64(1235), Felt::fromU64(99)});
        QVERIFY(transcript->drawFelt().toFelt() ==
                proofdesk::crypto::poseidonHash(state, Felt::zero()));
        QVERIFY(transcript->drawFelt().toFelt() ==
                proofdesk::crypto::poseidonHash(state, Felt::fromU64(1)));
        std::uint8_t tooLarge[32];
        std::memset(tooLarge, 0xff, 32);
        QVERIFY(!transcript->absorb({tooLarge, 32}));
    }

    void theByteChannelReproducesStoneDraws() {
        // The channel of a real Stone proof, seeded from its public input, must draw the
        // interaction elements, the composition coefficient and the out-of-domain point the proof's
        // annotations record (felt channel), independently of any AIR.
        const QString path =
            kFixtures +
            QStringLiteral("/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json");
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            QSKIP("../shared/fixtures is not here");
        }
        const nlohmann::json proof =
            proofdesk::core::parseJsonBounded(file.readAll().toStdString());
        std::vector<std::string> drawn;
        for (const std::string line : proof["annotations"]) {
            if (line.starts_with("V->P") && line.find("Field Element(") != std::string::npos) {
                const auto at = line.find("Field Element(") + 14;
                drawn.push_back(line.substr(at, line.find(')', at) - at));
            }
        }
        const PublicInput input = parsePublicInput(proof["public_input"]);
        const auto* layout = air::layoutNamed("recursive");
        const auto seed = NamedHash::named("poseidon3")
                              ->hashBytes(publicInputSeedBytes(input, *layout, SeedVariant::Stone6,
                                                               1000, "pedersen"));
        auto transcript = makeTranscript("poseidon3", *seed);
        std::vector<std::uint8_t> bytes;
        const std::string hexText = proof["proof_hex"];
        for (std::size_t i = 2; i + 1 < hexText.size(); i += 2) {
            bytes.push_back(std::uint8_t(std::stoi(hexText.substr(i, 2), nullptr, 16)));
        }
        ProofReader reader(bytes, *transcript);
        reader.readCommitment("trace");
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(reader.drawFelt().toFelt().toHex(), drawn[std::size_t(i)]);
        }
        reader.readCommitment("interaction");
        QCOMPARE(reader.drawFelt().toFelt().toHex(), drawn[6]);
        reader.readCommitment("composition");
        QCOMPARE(reader.drawFelt().toFelt().toHex(), drawn[7]);
    }

    void aTableCommitmentOpensOnlyToItsRows() {
        // A 8-row, 3-column table, its tree built by hand from rowLeaf and hashPair.
        const TableShape shape{8, 3};
        const CommitmentHashes hashes{*NamedHash::named("keccak256_masked160_lsb"),
                                      *NamedHash::named("poseidon3"), 1};
        std::vector<std::vector<Fp>> rows;
        std::vector<Digest> level;
        for (std::uint64_t r = 0; r < 8; ++r) {
            rows.push_back({Fp::fromU64(r), Fp::fromU64(10 * r), Fp::fromU64(100 * r)});
            level.push_back(*rowLeaf(rows.back(), shape, hashes));
        }
        std::vector<std::vector<Digest>> tree = {level};
        for (int depth = 3; depth > 0; --depth) {
            std::vector<Digest> parents;
            for (std::size_t i = 0; i < level.size(); i += 2) {
                parents.push_back(
                    *hashes.forChildDepth(std::uint64_t(depth)).hashPair(level[i], level[i + 1]));
            }
            level = parents;
            tree.push_back(level);
        }
        const Digest root = level[0];
        // Decommit rows 2 and 3 (siblings) and 6: cells, then nodes 7 (leaf pair of 6: row 7),
        // then level 1 siblings: (2,3)'s parent 1 needs node 0; (6,7)'s parent 3 needs 2... here
        // written in Stone's order: leaf level 7, then parents' siblings 0 and 2, then none.
        std::vector<std::uint8_t> proof;
        auto transcript = makeTranscript("keccak256", Digest{});
        const auto push = [&](const std::uint8_t* data) {
            proof.insert(proof.end(), data, data + 32);
        };
        for (const std::uint64_t r : {2, 3, 6}) {
            for (const Fp& cell : rows[r]) {
                std::uint8_t word[32];
                toMontgomeryBytes(cell, word);
                push(word);
            }
        }
        push(tree[0][7].data());
        push(tree[1][0].data());
        push(tree[1][2].data());
        {
            ProofReader reader(proof, *transcript);
            reader.beginQueryPhase();
            const auto opened = decommitTable(reader, shape, root, {2, 3, 6}, {}, hashes,
                                              Stage::Decommitment, "test table");
            QVERIFY(opened.at(6)[2] == Fp::fromU64(600));
            QCOMPARE(reader.remaining(), std::size_t(0));
        }
        proof[32 * 4 + 31] ^= 1; // row 3, column 1
        ProofReader reader(proof, *transcript);
        reader.beginQueryPhase();
        try {
            decommitTable(reader, shape, root, {2, 3, 6}, {}, hashes, Stage::Decommitment,
                          "test table");
            QFAIL("a changed cell was accepted");
        } catch (const Rejection& rejection) {
            QVERIFY(std::string(rejection.what()) == "test table: Merkle root mismatch");
        }
    }

    void oneFriFoldHalvesTheDegree() {
        // f(x) = g(x²) + x·h(x²): fold(f(x), f(−x), a, 1/x) = 2·(g + a·h)(x²).
        QRandomGenerator random(3);
        const Fp g0 = randomFp(random), g1 = randomFp(random), h0 = randomFp(random),
                 h1 = randomFp(random), a = randomFp(random), x = randomFp(random);
        const auto f = [&](const Fp& t) {
            const Fp t2 = t.square();
            return g0 + g1 * t2 + t * (h0 + h1 * t2);
        };
        const Fp x2 = x.square();
        const Fp expected = Fp::fromU64(2) * (g0 + g1 * x2 + a * (h0 + h1 * x2));
        QVERIFY(friFold(f(x), f(-x), a, x.inverse()) == expected);
        // FRI's domain pairs x and −x at consecutive indices.
        QVERIFY(friDomainElement(10, 0, 6) == -friDomainElement(10, 0, 7));
    }

    void theDilutedCheckClosedFormMatchesCairoLang() {
        QFile file(kFixtures + QStringLiteral("/proofs/stone/cairo_lang_example_expected.json"));
        if (!file.open(QIODevice::ReadOnly)) {
            QSKIP("../shared/fixtures is not here");
        }
        const nlohmann::json expected =
            proofdesk::core::parseJsonBounded(file.readAll().toStdString())["diluted_test"];
        const Fp z = Fp::fromFelt(*Felt::parse(expected["z"].get<std::string>()));
        const Fp alpha = Fp::fromFelt(*Felt::parse(expected["alpha"].get<std::string>()));
        QCOMPARE(
            dilutedFinalValue(expected["spacing"], expected["n_bits"], z, alpha).toFelt().toHex(),
            expected["res"].get<std::string>());
    }

    void everyLayoutHasStonesShape_data() {
        QTest::addColumn<QByteArray>("layout");
        QTest::addColumn<int>("constraints");
        QTest::addColumn<int>("mask");
        QTest::newRow("plain") << QByteArray("plain") << 47 << 49;
        QTest::newRow("small") << QByteArray("small") << 179 << 201;
        QTest::newRow("dex") << QByteArray("dex") << 179 << 200;
        QTest::newRow("recursive") << QByteArray("recursive") << 93 << 133;
        QTest::newRow("recursive_with_poseidon")
            << QByteArray("recursive_with_poseidon") << 124 << 192;
        QTest::newRow("recursive_large_output")
            << QByteArray("recursive_large_output") << 124 << 192;
        QTest::newRow("starknet") << QByteArray("starknet") << 198 << 271;
        QTest::newRow("all_solidity") << QByteArray("all_solidity") << 230 << 286;
        QTest::newRow("starknet_with_keccak") << QByteArray("starknet_with_keccak") << 347 << 734;
        // Stone's all_cairo: starknet_with_keccak's builtins and range-check-96; add_mod's and
        // mul_mod's interaction elements are drawn, but it has no constraints for them.
        QTest::newRow("all_cairo") << QByteArray("all_cairo") << 350 << 743;
    }

    void everyLayoutHasStonesShape() {
        QFETCH(QByteArray, layout);
        QFETCH(int, constraints);
        QFETCH(int, mask);
        const auto air = air::buildAir(*air::layoutNamed(layout.toStdString()), 1 << 16);
        QCOMPARE(int(air->constraints().size()), constraints);
        QCOMPARE(int(air->mask().size()), mask);
        QCOMPARE(air->traceLength(), std::uint64_t(1) << 20);
    }

    void theKeccakBuiltinNeedsAWholeComponent() {
        // 16 Keccak instances of 32,768 rows are laid out together: a shorter trace cannot hold
        // them, and the AIR says so rather than dividing the rows.
        try {
            air::buildAir(*air::layoutNamed("starknet_with_keccak"), 1 << 14);
            QFAIL("a starknet_with_keccak AIR of 2^18 rows was built");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("layout starknet_with_keccak: the keccak builtin needs a trace "
                                 "of at least 524288 rows; this one has 262144"));
        }
    }

    void theDynamicLayoutPlacedLikeStaticOnesReadsOnlyItsMask() {
        // Proofdesk's dynamic_params (every column where all_cairo.layout has it, add_mod's and
        // mul_mod's cells, which all_cairo.layout does not place, in cells it leaves free), with
        // every builtin in use: every cell the constraints read is one of the 941 cells of
        // Stone's mask for the dynamic layout (the AIR is refused otherwise), and they come in
        // Stone's order: starknet_with_keccak's (the static layout with the same builtins but the
        // last three), then range-check-96, add_mod and mul_mod.
        const nlohmann::json json =
            proofdesk::cairo::defaultDynamicParams(proofdesk::cairo::dynamicLayoutBuiltins());
        QCOMPARE(json.size(), air::layoutParameterNames("dynamic").size());
        air::LayoutParameters params;
        for (const auto& [name, value] : json.items()) {
            params[name] = value.get<std::uint64_t>();
        }
        const auto layout = air::layoutFor("dynamic", params);
        const auto dynamicAir = air::buildAir(*layout, 1 << 15);
        QCOMPARE(dynamicAir->mask().size(), std::size_t(941));
        const std::vector<air::Constraint>& constraints = dynamicAir->constraints();
        QCOMPARE(constraints.size(), std::size_t(419));
        const auto keccak = air::buildAir(*air::layoutNamed("starknet_with_keccak"), 1 << 15);
        for (std::size_t i = 0; i < keccak->constraints().size(); ++i) {
            QCOMPARE(constraints[i].name, keccak->constraints()[i].name);
        }
        QCOMPARE(constraints[347].name, std::string("range_check96_builtin/value"));
        QCOMPARE(constraints[350].name, std::string("add_mod/init_p0_address"));
        QCOMPARE(constraints[387].name, std::string("add_mod/addition_constraint_0"));
        QCOMPARE(constraints[388].name, std::string("mul_mod/init_p0_address"));
        QCOMPARE(constraints[418].name, std::string("mul_mod/multiplication_constraint_0"));

        // Left out, a builtin keeps its places; used, it must fit the trace.
        params["uses_ecdsa_builtin"] = 0;
        const auto withoutEcdsa = air::buildAir(*air::layoutFor("dynamic", params), 1 << 15);
        QCOMPARE(withoutEcdsa->constraints().size(), std::size_t(419));
        QCOMPARE(withoutEcdsa->constraints()[82].name, std::string("ecdsa: not used by this run"));
        try {
            air::buildAir(*air::layoutFor("dynamic", params), 1 << 13);
            QFAIL("a Keccak component was built in a trace too short for it");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("keccak builtin needs a trace of at least") !=
                         std::string::npos,
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(StarkProtocolTest)
#include "tst_stark_protocol.moc"
