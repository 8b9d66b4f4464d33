// Our STARK prover (issue #21): its pieces against their definitions (field assembly against the
// portable code, committed tables opened exactly as the verifier reads them,
// row hashing against Stone's byte hashes), then whole proofs of our own programs on every layout
// family, each accepted by our verifier and refused once tampered with; deterministic proofs;
// the constraint checker naming the constraint and row of a tampered run; Stone's proof JSON and
// annotations; cancellation. (Transforms and the out-of-domain work: tst_stark_polynomials;
// parameters: tst_stark_parameters; Stone's own verifier on our proofs: tst_stark_stone_oracle.)

#include "ProverRuns.h"
#include "RandomField.h"

#include "stark/algebra/Ntt.h"
#include "stark/algebra/Polynomials.h"
#include "stark/algebra/VectorField.h"
#include "stark/channel/ProofReader.h"
#include "stark/channel/ProofWriter.h"
#include "stark/commitment/CommittedTable.h"
#include "stark/commitment/PoseidonBatch.h"
#include "stark/commitment/RowHasher.h"
#include "stark/commitment/TableCommitment.h"
#include "stark/proof/Statement.h"
#include "stark/prover/ProofJson.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/TraceComponents.h"
#include "stark/verifier/ProofVerifier.h"
#include "stark/verifier/StarkVerifier.h"

#include "cairo/Runner.h"
#include "crypto/MontField.h"
#include "crypto/Poseidon.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <bit>

using namespace proofdesk;
using namespace proofdesk::stark;
using namespace proofdesk::stark::test_runs;
using proofdesk::crypto::Felt;
using proofdesk::stark::random_field::randomFp;
using proofdesk::stark::random_field::randomPolynomial;

namespace {

CommitmentHashes hashesNamed(const std::string& commitment, const std::string& friendly,
                             std::uint64_t layers) {
    return {*NamedHash::named(commitment), *NamedHash::named(friendly), layers};
}

} // namespace

class StarkProverTest : public QObject {
    Q_OBJECT

private slots:
    void fieldAssemblyAgreesWithThePortableCode() {
#ifdef PROOFDESK_MONT_MULX
        using namespace proofdesk::crypto::mont;
        QRandomGenerator random(11);
        const Limbs p = {1, 0, 0, kP3};
        std::vector<Limbs> samples = {
            {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, kP3}, sub(Limbs{}, one())};
        for (int i = 0; i < 20000; ++i) {
            samples.push_back(randomFp(random).montgomery());
        }
        for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
            const Limbs& a = samples[i];
            const Limbs& b = samples[i + 1];
            QVERIFY(add(a, b) == addPortable(a, b));
            QVERIFY(sub(a, b) == subPortable(a, b));
            const Limbs lazy = mulLazyPortable(a, b);
            QVERIFY(reduce(lazy) == reducePortable(lazy));
            if (kCpuHasMulx) {
                QVERIFY(mulLazyMulx(a, b) == lazy);
            }
        }
        QVERIFY(reduce(p) == Limbs{});
#else
        QSKIP("no field assembly in this build (not x86-64, not optimised, or sanitized)");
#endif
    }

    // The AVX-512 IFMA butterflies give the scalar transforms' values exactly: both directions,
    // sizes with and without whole-array levels, inputs at 0, 1, p − 1 and random (every carry).
    void vectorTransformsMatchScalar() {
        if (!vector_field::enabled()) {
            QSKIP("this CPU has no AVX-512 IFMA: only the scalar transforms run here");
        }
        QRandomGenerator random(11);
        const Fp minusOne = Fp::zero() - Fp::one();
        for (const int log : {6, 7, 11, 14, 17}) {
            const std::size_t n = std::size_t(1) << log;
            std::vector<Fp> input = randomPolynomial(random, n);
            for (std::size_t i = 0; i < n; i += 3) {
                input[i] = i % 2 == 0 ? minusOne : (i % 9 == 0 ? Fp::one() : Fp::zero());
            }
            std::vector<Fp> scalar = input;
            std::vector<Fp> vector = input;
            vector_field::setEnabled(false);
            forwardNtt(scalar);
            vector_field::setEnabled(true);
            forwardNtt(vector);
            QVERIFY2(vector == scalar, qPrintable(QStringLiteral("forward, 2^%1").arg(log)));
            for (const bool vectors : {false, true}) {
                vector_field::setEnabled(vectors);
                std::vector<Fp> values = input;
                inverseNttFromBitReversed(values);
                (vectors ? vector : scalar) = values;
            }
            QVERIFY2(vector == scalar, qPrintable(QStringLiteral("inverse, 2^%1").arg(log)));
            std::vector<Fp> roundTrip = input;
            forwardNtt(roundTrip);
            inverseNttFromBitReversed(roundTrip);
            QVERIFY(roundTrip == input);
            // Products taken in the first pass, from another array and in place, both paths.
            const std::vector<Fp> factors = randomPolynomial(random, n);
            std::vector<Fp> products(n);
            for (std::size_t k = 0; k < n; ++k) {
                products[k] = input[k] * factors[k];
            }
            forwardNtt(products);
            for (const bool vectors : {false, true}) {
                vector_field::setEnabled(vectors);
                std::vector<Fp> fused(n);
                forwardNttOfProducts(input, factors, fused);
                QVERIFY2(fused == products, qPrintable(QStringLiteral("products, 2^%1").arg(log)));
                std::vector<Fp> inPlace = input;
                forwardNttOfProducts(inPlace, factors, inPlace);
                QVERIFY(inPlace == products);
            }
            // The remainder modulo x^(n/s) − f over s slices (64: five rounds of products).
            const Fp f = factors[1];
            const std::size_t s = n >= 512 ? 64 : 8;
            std::vector<Fp> remainder(n / s);
            for (std::size_t k = 0; k < n / s; ++k) {
                for (std::size_t t = s; t-- > 0;) {
                    remainder[k] = remainder[k] * f + input[k + t * n / s];
                }
            }
            for (const bool vectors : {false, true}) {
                vector_field::setEnabled(vectors);
                std::vector<Fp> folded(n / s);
                foldModulo(input, f, folded);
                QVERIFY2(folded == remainder, qPrintable(QStringLiteral("fold, 2^%1").arg(log)));
            }
        }
        // All p − 1: the largest products and sums at every level.
        std::vector<Fp> scalar(std::size_t(1) << 12, minusOne);
        std::vector<Fp> vector = scalar;
        vector_field::setEnabled(false);
        forwardNtt(scalar);
        vector_field::setEnabled(true);
        forwardNtt(vector);
        QVERIFY(vector == scalar);
        QCOMPARE(vector[0], minusOne * Fp::fromU64(scalar.size()));
    }

    // The element-wise products the constraint evaluator uses, vector and scalar, against the
    // scalar field's definition: lengths with and without a scalar tail, aliased output, and
    // p − 1 (the largest sums before reduction).
    void elementwiseArithmeticMatchesTheField() {
        QRandomGenerator random(13);
        const Fp minusOne = Fp::zero() - Fp::one();
        for (const std::size_t n :
             {std::size_t(1), std::size_t(8), std::size_t(13), std::size_t(128)}) {
            std::vector<Fp> a = randomPolynomial(random, n);
            std::vector<Fp> b = randomPolynomial(random, n);
            std::vector<Fp> start = randomPolynomial(random, n);
            for (std::size_t i = 0; i < n; i += 2) {
                a[i] = minusOne;
                b[i] = minusOne;
                start[i] = minusOne;
            }
            const Fp c = minusOne;
            for (const bool vectors : {false, true}) {
                vector_field::setEnabled(vectors);
                std::vector<Fp> product(n), sum = start, scaled = start, aliased = a;
                vector_field::multiply(a, b, product);
                vector_field::multiplyAdd(a, b, sum);
                vector_field::scaleAdd(a, c, scaled);
                vector_field::multiply(aliased, b, aliased);
                std::vector<Fp> powers = a;
                vector_field::scaleByPowers(powers, b[0], c);
                std::vector<Fp> plusPowers = a;
                vector_field::addPowers(plusPowers, b[0], c);
                Fp power = b[0];
                for (std::size_t i = 0; i < n; ++i) {
                    QVERIFY(powers[i] == a[i] * power);
                    QVERIFY(plusPowers[i] == a[i] + power);
                    power *= c;
                    QVERIFY(product[i] == a[i] * b[i]);
                    QVERIFY(sum[i] == start[i] + a[i] * b[i]);
                    QVERIFY(scaled[i] == start[i] + c * a[i]);
                    QVERIFY(aliased[i] == a[i] * b[i]);
                }
            }
        }
        vector_field::setEnabled(true);
    }

    // Hades on many states at once (the Poseidon commitments' row and node hashing), vector and
    // scalar, against crypto's permutation of each state: counts with and without a tail of
    // fewer than sixteen states, and the states 0 and p − 1 among random ones.
    void batchedPoseidonMatchesThePermutation() {
        QRandomGenerator random(21);
        const Fp minusOne = Fp::zero() - Fp::one();
        for (const std::size_t n :
             {std::size_t(1), std::size_t(8), std::size_t(16), std::size_t(19), std::size_t(64)}) {
            std::vector<HadesState> start(n);
            for (std::size_t i = 0; i < n; ++i) {
                start[i] = {randomFp(random), randomFp(random), randomFp(random)};
            }
            start[0] = {minusOne, minusOne, minusOne};
            if (n > 1) {
                start[1] = {};
            }
            for (const bool vectors : {false, true}) {
                vector_field::setEnabled(vectors);
                std::vector<HadesState> states = start;
                hadesPermuteAll(states);
                for (std::size_t i = 0; i < n; ++i) {
                    std::array<Felt, 3> expected = {start[i].s0.toFelt(), start[i].s1.toFelt(),
                                                    start[i].s2.toFelt()};
                    crypto::hadesPermutation(expected);
                    QVERIFY2(states[i].s0.toFelt() == expected[0] &&
                                 states[i].s1.toFelt() == expected[1] &&
                                 states[i].s2.toFelt() == expected[2],
                             qPrintable(QStringLiteral("state %1 of %2, vectors %3")
                                            .arg(i)
                                            .arg(n)
                                            .arg(vectors)));
                }
            }
        }
        vector_field::setEnabled(true);
    }

    // A Merkle level hashed in batches equals each pair's hash, for every commitment hash.
    void batchedPairHashingMatchesEachPair() {
        QRandomGenerator random(22);
        std::vector<Digest> children(2 * 37);
        for (Digest& child : children) {
            child = feltAsDigest(randomFp(random));
        }
        for (const char* name :
             {"keccak256", "keccak256_masked160_lsb", "blake256_masked248_lsb", "poseidon3"}) {
            const NamedHash hash = *NamedHash::named(name);
            std::vector<Digest> parents(children.size() / 2);
            hashPairs(hash, children.data(), parents.size(), parents.data());
            for (std::size_t i = 0; i < parents.size(); ++i) {
                QVERIFY2(parents[i] == *hash.hashPair(children[2 * i], children[2 * i + 1]), name);
            }
        }
    }

    // The in-place division split over the workers (scalar blocks of 2^14, or eight blocks a
    // worker in vector lanes; and a remainder) agrees with the serial one on both paths.
    void divisionInPlaceMatchesTheSerialOne() {
        QRandomGenerator random(21);
        for (const std::size_t n : {1, 2, 1000, 10000, (1 << 16) + 3, 1 << 17}) {
            const std::vector<Fp> p = randomPolynomial(random, n);
            const Fp a = randomPolynomial(random, 1)[0];
            std::vector<Fp> quotient(n > 1 ? n - 1 : 0);
            const Fp remainder = divideByLinear(p, a, quotient);
            QVERIFY(remainder == evaluatePolynomial(p, a));
            for (const bool vector : {false, true}) { // the vector path on again at the end
                vector_field::setEnabled(vector);
                std::vector<Fp> inPlace = p;
                QVERIFY(divideByLinearInPlace(inPlace, a) == remainder);
                QVERIFY(inPlace.back() == Fp::zero());
                QVERIFY(std::equal(quotient.begin(), quotient.end(), inPlace.begin()));
            }
        }
    }

    void rowHashingMatchesStonesByteHashes() {
        QRandomGenerator random(5);
        for (const char* name : {"keccak256", "keccak256_masked160_lsb", "keccak256_masked160_msb",
                                 "blake256", "blake256_masked248_lsb", "poseidon3"}) {
            const NamedHash hash = *NamedHash::named(name);
            for (const std::size_t width : {1u, 2u, 5u, 23u}) {
                const std::size_t rows = 9;
                std::vector<std::vector<Fp>> columns(width, std::vector<Fp>(rows));
                // Fed a column at a time, and three columns at a time (as a commitment feeds
                // them), the last call taking the rest.
                auto hasher = RowHasher::make(hash, rows, width);
                auto together = RowHasher::make(hash, rows, width);
                std::vector<std::span<const Fp>> batch;
                for (std::vector<Fp>& column : columns) {
                    for (Fp& cell : column) {
                        cell = randomFp(random);
                    }
                    hasher->absorb(column, 1);
                    batch.emplace_back(column);
                    if (batch.size() == 3 || &column == &columns.back()) {
                        together->absorbColumns(batch, 1);
                        batch.clear();
                    }
                }
                const std::vector<Digest> digests = hasher->finish();
                const std::vector<Digest> batched = together->finish();
                for (std::size_t row = 0; row < rows; ++row) {
                    std::vector<std::uint8_t> bytes(32 * width);
                    for (std::size_t c = 0; c < width; ++c) {
                        toMontgomeryBytes(columns[c][row], bytes.data() + 32 * c);
                    }
                    const QByteArray where = QStringLiteral("%1, %2 columns")
                                                 .arg(QString::fromLatin1(name))
                                                 .arg(width)
                                                 .toUtf8();
                    QVERIFY2(digests[row] == *hash.hashBytes(bytes), where.constData());
                    QVERIFY2(batched[row] == *hash.hashBytes(bytes), where.constData());
                }
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 RowHasher::make(*NamedHash::named("pedersen"), 1, 1));
    }

    void committedTablesOpenAsTheVerifierReads_data() {
        QTest::addColumn<int>("polynomials");
        QTest::addColumn<int>("rowWidth");
        QTest::addColumn<QString>("commitment");
        QTest::addColumn<QString>("friendly");
        QTest::addColumn<int>("friendlyLayers");
        QTest::addColumn<int>("storedDepth");
        QTest::addColumn<int>("maxBlockEntries"); // below 64: blocks smaller than a polynomial
        QTest::newRow("trace, keccak") << 3 << 1 << "keccak256_masked160_msb"
                                       << "keccak256_masked160_msb" << 0 << 16 << (1 << 20);
        QTest::newRow("trace, subtrees recomputed") << 4 << 1 << "blake256_masked248_lsb"
                                                    << "blake256_masked248_lsb" << 0 << 3 << 64;
        QTest::newRow("trace, poseidon top layers") << 2 << 1 << "keccak256_masked160_lsb"
                                                    << "poseidon3" << 5 << 2 << 64;
        QTest::newRow("trace, all poseidon") << 2 << 1 << "keccak256_masked160_lsb"
                                             << "poseidon3" << 1000 << 4 << 64;
        QTest::newRow("one column, paired leaves") << 1 << 1 << "keccak256_masked160_lsb"
                                                   << "poseidon3" << 3 << 2 << 64;
        QTest::newRow("FRI layer, cosets of 8") << 1 << 8 << "keccak256"
                                                << "keccak256" << 0 << 1 << 64;
        QTest::newRow("trace, folded blocks") << 3 << 1 << "keccak256_masked160_msb"
                                              << "keccak256_masked160_msb" << 0 << 16 << 16;
        QTest::newRow("trace, folded blocks, subtrees") << 4 << 1 << "keccak256_masked160_lsb"
                                                        << "poseidon3" << 2 << 3 << 8;
        QTest::newRow("one column, folded blocks") << 1 << 1 << "keccak256_masked160_lsb"
                                                   << "poseidon3" << 3 << 2 << 4;
        QTest::newRow("FRI layer, folded blocks") << 1 << 8 << "keccak256"
                                                  << "keccak256" << 0 << 1 << 2;
    }

    void committedTablesOpenAsTheVerifierReads() {
        QFETCH(int, polynomials);
        QFETCH(int, rowWidth);
        QFETCH(QString, commitment);
        QFETCH(QString, friendly);
        QFETCH(int, friendlyLayers);
        QFETCH(int, storedDepth);
        QFETCH(int, maxBlockEntries);
        QRandomGenerator random(9);
        std::vector<std::vector<Fp>> polys;
        for (int i = 0; i < polynomials; ++i) {
            polys.push_back(randomPolynomial(random, 64));
        }
        const CommitmentHashes hashes = hashesNamed(
            commitment.toStdString(), friendly.toStdString(), std::uint64_t(friendlyLayers));
        const EvaluationDomain domain{9, Fp::fromU64(3), std::size_t(rowWidth)};
        CommittedTable table({polys.begin(), polys.end()}, domain, hashes, {}, storedDepth,
                             std::size_t(maxBlockEntries));
        const Digest root = table.commit();
        CommittedTable wholeBlocks({polys.begin(), polys.end()}, domain, hashes, {}, storedDepth);
        QVERIFY(wholeBlocks.commit() == root);

        // Rows as the verifier asks them: ascending, with neighbours and far ones.
        const std::vector<std::uint64_t> rows = {0, 1, 5, 17, 18, table.shape().rows - 1};
        std::set<Cell> known;
        if (rowWidth > 1) {
            known.insert({5, 3}); // a cell the verifier computed itself (FRI)
        }
        auto transcript = makeTranscript("keccak256", Digest{});
        ProofWriter writer(*transcript);
        writer.beginQueryPhase();
        table.decommit(writer, rows, known);

        auto readerTranscript = makeTranscript("keccak256", Digest{});
        ProofReader reader(writer.bytes(), *readerTranscript);
        reader.beginQueryPhase();
        std::map<Cell, Fp> knownValues;
        for (const Cell& cell : known) {
            knownValues[cell] = table.row(cell.first)[cell.second];
        }
        const auto opened = decommitTable(reader, table.shape(), root, rows, knownValues, hashes,
                                          Stage::Decommitment, "test table");
        QCOMPARE(reader.remaining(), std::size_t(0));
        // The cells are the polynomials at offset·ω^bitrev(entry).
        const Fp omega = rootOfUnity(domain.logDomain);
        for (const std::uint64_t row : rows) {
            for (std::size_t p = 0; p < polys.size(); ++p) {
                for (std::size_t u = 0; u < std::size_t(rowWidth); ++u) {
                    const std::uint64_t entry = row * std::uint64_t(rowWidth) + u;
                    const Fp x = domain.offset * omega.pow(bitReverse(entry, domain.logDomain));
                    QVERIFY(opened.at(row)[p * std::size_t(rowWidth) + u] ==
                            evaluatePolynomial(polys[p], x));
                }
            }
        }
        // A different table does not open against this root.
        polys[0][0] += Fp::one();
        CommittedTable other({polys.begin(), polys.end()}, domain, hashes, {}, storedDepth);
        other.commit();
        ProofWriter otherWriter(*transcript);
        other.decommit(otherWriter, rows, known);
        ProofReader otherReader(otherWriter.bytes(), *readerTranscript);
        otherReader.beginQueryPhase();
        QVERIFY_THROWS_EXCEPTION(Rejection,
                                 decommitTable(otherReader, table.shape(), root, rows, knownValues,
                                               hashes, Stage::Decommitment, "test table"));
    }

    void provesEveryLayoutFamilyAndOurVerifierAccepts_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<int>("profile");
        QTest::addColumn<int>("seed");
        QTest::newRow("plain, stone") << "plain" << int(ChannelProfile::Stone) << 6;
        QTest::newRow("plain, integrity stone5") << "plain" << int(ChannelProfile::Integrity) << 5;
        QTest::newRow("small, stone") << "small" << int(ChannelProfile::Stone) << 6;
        QTest::newRow("recursive, stone") << "recursive" << int(ChannelProfile::Stone) << 6;
        QTest::newRow("dex, stone") << "dex" << int(ChannelProfile::Stone) << 6;
        // (all_cairo, whose smallest trace is 2^19 rows: provesKeccakInvocations.)
        // Every column placed by the public input's dynamic_params; Keccak, ECDSA and the mod
        // builtins left out (their constraints keep their places), the rest in 2^16 rows.
        QTest::newRow("dynamic, stone") << "dynamic" << int(ChannelProfile::Stone) << 6;
    }

    void provesEveryLayoutFamilyAndOurVerifierAccepts() {
        QFETCH(QString, layout);
        QFETCH(int, profile);
        QFETCH(int, seed);
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        if (layout == QStringLiteral("recursive") || layout == QStringLiteral("dynamic")) {
            QSKIP("the layout's smallest trace (2^16 rows) is too slow under sanitizers");
        }
        if (layout == QStringLiteral("dex")) {
            QSKIP("dex has small's builtins in other ratios; under sanitizers small runs them");
        }
#endif
        const CairoRun run =
            layout == QStringLiteral("dynamic")
                ? countdownRun("dynamic", 20,
                               dynamicParamsWithout({"keccak", "ecdsa", "add_mod", "mul_mod"}))
                : countdownRun(layout.toStdString());
        const ProofParameters parameters = testParameters(run, ChannelProfile(profile));
        ProverOptions options;
        options.parameters = parameters;
        options.seedVariant = seed == 5 ? SeedVariant::Stone5 : SeedVariant::Stone6;
        const ProverResult result = proveCairoRun(run, options);
        QVERIFY(!result.proof.empty());
        QCOMPARE(result.timings.size(), std::size_t(8));
        const VerificationTrace trace =
            verifyStark(parameters, run.publicInput, options.seedVariant, result.proof);
        QCOMPARE(trace.proofBytes, result.proof.size());

        // The same run proves to the same bytes, with the vector field arithmetic or without.
        if (layout == QStringLiteral("plain")) {
            QVERIFY(proveCairoRun(run, options).proof == result.proof);
            if (vector_field::enabled()) {
                vector_field::setEnabled(false);
                const ProverResult scalar = proveCairoRun(run, options);
                vector_field::setEnabled(true);
                QVERIFY(scalar.proof == result.proof);
            }
        }

        // A flipped byte anywhere is refused: commitments, values, decommitments.
        for (const std::size_t at : {std::size_t(5), result.proof.size() / 3,
                                     result.proof.size() / 2, result.proof.size() - 7}) {
            std::vector<std::uint8_t> tampered = result.proof;
            tampered[at] ^= 0x10;
            QVERIFY_THROWS_EXCEPTION(
                Rejection, verifyStark(parameters, run.publicInput, options.seedVariant, tampered));
        }
        // And the proof is about this statement only.
        PublicInput other = run.publicInput;
        other.publicMemory.back().value += Fp::one();
        QVERIFY_THROWS_EXCEPTION(Rejection,
                                 verifyStark(parameters, other, options.seedVariant, result.proof));
    }

    void proofFilesAreStones() {
        const CairoRun run = countdownRun("plain");
        ProverOptions options;
        options.parameters = testParameters(run, ChannelProfile::Integrity);
        options.annotations = true;
        const ProverResult result = proveCairoRun(run, options);
        const nlohmann::ordered_json proof =
            stoneProofJson(result, options.parameters, defaultProverConfig(), run);
        for (const char* key : {"annotations", "private_input", "proof_hex", "proof_parameters",
                                "prover_config", "public_input"}) {
            QVERIFY2(proof.contains(key), key);
        }
        QVERIFY(proof["proof_hex"].get<std::string>().starts_with("0x"));
        const Verdict verdict = verifyStoneProof(nlohmann::json::parse(proof.dump()));
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());

        // Annotations as Stone writes them, byte ranges adding up to the proof.
        const std::vector<std::string>& lines = result.annotations;
        QCOMPARE(lines.front(), std::string("title cpu air Proof Protocol"));
        const QRegularExpression sent(QStringLiteral(
            R"(^P->V\[(\d+):(\d+)\]: /cpu air/STARK/[^:]+: .*\((0x[0-9a-f]+.*)\)$)"));
        std::size_t covered = 0;
        int commitments = 0, interaction = 0;
        for (const std::string& line : lines) {
            const QString text = QString::fromStdString(line);
            if (line.starts_with("P->V")) {
                const auto match = sent.match(text);
                QVERIFY2(match.hasMatch(), line.c_str());
                QCOMPARE(match.captured(1).toULongLong(), covered);
                covered = match.captured(2).toULongLong();
                commitments += text.contains(QStringLiteral("Commitment: Hash(0x")) ? 1 : 0;
            }
            interaction += text.contains(QStringLiteral(
                               "V->P: /cpu air/STARK/Interaction: Interaction element #"))
                               ? 1
                               : 0;
        }
        QCOMPARE(covered, result.proof.size());
        QCOMPARE(interaction, 3);
        QCOMPARE(commitments, 3 + int(options.parameters.friSteps.size()) - 1);
        QCOMPARE(lines.back().rfind("Data count: ", 0), std::size_t(0));
        QVERIFY(std::find(lines.begin(), lines.end(),
                          "Byte count: " + std::to_string(result.proof.size())) != lines.end());
    }

    void theCheckerNamesTheBrokenConstraintAndRow() {
        CairoRun run = countdownRun("plain");
        // A step that pushes (an assert_eq writing [ap]): make the pushed value wrong in memory,
        // as a broken VM would, so that step no longer computes what it wrote.
        std::uint64_t step = 0;
        for (std::uint64_t k = 4; k < run.trace.size(); ++k) {
            const std::uint64_t instruction =
                smallValue(run.memory[run.trace[k].pc], "the instruction");
            const bool assertEq = (instruction >> (48 + 14)) & 1;
            const bool dstIsAp = ((instruction >> 48) & 1) == 0 && (instruction & 0xffff) == 0x8000;
            if (assertEq && dstIsAp) {
                step = k;
                break;
            }
        }
        QVERIFY(step != 0);
        run.memory[run.trace[step].ap] += Fp::one();
        try {
            prove(run, testParameters(run, ChannelProfile::Stone), true);
            QFAIL("the tampered run was proven");
        } catch (const ConstraintCheckFailed& e) {
            QCOMPARE(e.violation().constraint, std::string("cpu/opcodes/assert_eq/assert_eq"));
            QCOMPARE(e.violation().row, 16 * step);
            const std::string text = e.what();
            QVERIFY2(text.find("cpu/operands/mem_dst/value[" + std::to_string(step) + "]") !=
                         std::string::npos,
                     text.c_str());
        }
        // Without the checker the same run still fails, later and less helpfully: the
        // composition does not match at the out-of-domain point.
        QVERIFY_THROWS_EXCEPTION(TraceError,
                                 prove(run, testParameters(run, ChannelProfile::Stone)));
    }

    void runsTheTraceCannotHoldAreRefusedSayingWhy() {
        CairoRun run = countdownRun("plain");
        run.publicInput.rcMax = run.publicInput.rcMin; // bounds too narrow for the offsets
        try {
            prove(run, testParameters(run, ChannelProfile::Stone));
            QFAIL("proven with impossible range-check bounds");
        } catch (const TraceError& e) {
            QVERIFY2(std::string(e.what()).find("outside the public input's bounds") !=
                         std::string::npos,
                     e.what());
        }
        // A layout the prover cannot take, saying why and naming those it proves.
        const auto refusedSaying = [](const CairoRun& refused, const std::string& reason) {
            try {
                prove(refused, testParameters(countdownRun("plain"), ChannelProfile::Stone));
                return false;
            } catch (const std::invalid_argument& e) {
                const std::string message = e.what();
                qInfo("%s", e.what());
                return message.find(reason) != std::string::npos &&
                       message.find("; the prover proves ") != std::string::npos &&
                       message.find(", plain, ") != std::string::npos;
            }
        };
        CairoRun other = countdownRun("plain");
        other.publicInput.layout = "dynamic";
        QVERIFY(refusedSaying(other, "dynamic_params lacks"));
        other.publicInput.layout = "no_such_layout";
        QVERIFY(refusedSaying(other, "no_such_layout"));
        // all_cairo, whose AIR (as Stone's) does not constrain the mod builtins, with a run that
        // uses add_mod: the proof would not cover it.
        CairoRun withMod = countdownRun("plain");
        withMod.publicInput.layout = "all_cairo";
        withMod.publicInput.segments["add_mod"] = {1000, 1007};
        try {
            prove(withMod, testParameters(countdownRun("plain"), ChannelProfile::Stone));
            QFAIL("add_mod proven on all_cairo");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find(
                         "layout all_cairo does not constrain the add_mod builtin") !=
                         std::string::npos,
                     e.what());
        }
        // Parameters that do not fit the trace, with the reason.
        ProofParameters wrong = testParameters(run, ChannelProfile::Stone);
        wrong.friSteps.push_back(2);
        try {
            prove(countdownRun("plain"), wrong);
            QFAIL("proven with FRI steps that do not fit");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("FRI steps sum to") != std::string::npos, e.what());
        }
    }

    // The Keccak builtin on layout all_cairo (whose smallest trace is 2^19 rows; its other
    // builtins, range-check-96 and the unconstrained mod builtins among them, stay empty): two
    // invocations of a program of our own, one on the all-zero state (whose output's first lane
    // is Keccak-f[1600]'s known 0xf1258f7940e1dde7), one with words at the 200-bit edge; our
    // verifier accepts the proof, and a run whose memory holds a wrong output is refused naming
    // the cell. (starknet_with_keccak's trace, Keccak's columns placed its own way, is proven by
    // tst_proof_provers' PIE: the bootloader runs on it.)
    void provesKeccakInvocations() {
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("all_cairo's smallest trace (2^19 rows) is too slow under sanitizers");
#endif
        const std::string top = "1606938044258990275541962092341162602522202993782792835301375";
        const std::vector<std::vector<std::string>> states = {
            {"0", "0", "0", "0", "0", "0", "0", "0"},
            {top, "1", top, "340282366920938463463374607431768211455", "0", top, "7", top}};
        const cairo::Program program = cairo::Program::fromJson(
            test::Asm::keccakInvocations(states).proofModeProgram({"keccak"}));
        cairo::RunOptions runOptions;
        runOptions.layout = "all_cairo";
        runOptions.proofMode = true;
        cairo::CairoRunner runner(program, runOptions);
        runner.run();
        CairoRun run = cairoRunOf(runner);
        const MemorySegment& keccak = builtinSegment(run, "keccak");
        QCOMPARE(keccak.stop - keccak.begin, std::uint64_t(32));
        QCOMPARE(run.at(keccak.begin + 8)->toFelt().limbs()[0], 0xf1258f7940e1dde7ULL);

        const ProofParameters parameters = testParameters(run, ChannelProfile::Stone);
        const ProverResult result = prove(run, parameters);
        const VerificationTrace trace =
            verifyStark(parameters, run.publicInput, SeedVariant::Stone6, result.proof);
        QCOMPARE(trace.proofBytes, result.proof.size());

        run.memory[keccak.begin + 16 + 9] += Fp::one();
        try {
            prove(run, parameters);
            QFAIL("a wrong keccak output was proven");
        } catch (const TraceError& e) {
            QVERIFY2(std::string(e.what()).find("keccak builtin's output at address " +
                                                std::to_string(keccak.begin + 25)) !=
                         std::string::npos,
                     e.what());
        }
    }

    // add_mod and mul_mod on dynamic_params that place them, every other builtin left out: the
    // run's operations (a batch of two each) and the trace's padding instances, 0 + 0 = 0
    // (mod 0) on the zero segment. mul_mod's range-checked parts bring rc_min to 0, so the run
    // takes 2^17 rows to fill the pool's gaps. Every constraint holds (--check) and our verifier
    // accepts; a c the builtin does not compute is refused naming the instance.
    void provesTheModBuiltinsOnDynamic() {
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("the run's smallest trace (2^17 rows) is too slow under sanitizers");
#endif
        // No layout params: the run takes Proofdesk's placement (cairo::defaultDynamicParams)
        // with the program's builtins.
        CairoRun run = modBuiltinsRun("dynamic");
        QCOMPARE(run.publicInput.dynamicParams.at("uses_mul_mod_builtin"), std::uint64_t(1));
        QCOMPARE(run.publicInput.dynamicParams.at("uses_keccak_builtin"), std::uint64_t(0));
        QCOMPARE(run.publicInput.rcMin, std::uint64_t(0));
        QCOMPARE(traceRows(run.publicInput), std::uint64_t(1) << 17);
        const MemorySegment& add = builtinSegment(run, "add_mod");
        const MemorySegment& mul = builtinSegment(run, "mul_mod");
        QCOMPARE(add.stop - add.begin, std::uint64_t(14));
        QCOMPARE(mul.stop - mul.begin, std::uint64_t(14));
        QCOMPARE(run.privateInput["mul_mod"]["instances"].size(), std::size_t(2));
        QVERIFY(run.privateInput["add_mod"]["zero_value_address"].is_number_unsigned());
        // The statement names the program's builtins, though the undeclared output's empty
        // segment starts where add_mod's does (the final pointers tell them apart).
        QCOMPARE(builtinSegment(run, "output").begin, add.begin);
        const Statement statement = readStatement(run.publicInput, MemoryVerification::Relaxed);
        QVERIFY(statement.builtins.has_value());
        QVERIFY(*statement.builtins == std::vector<std::string>({"add_mod", "mul_mod"}));

        const ProofParameters parameters = testParameters(run, ChannelProfile::Stone);
        const ProverResult result = prove(run, parameters, true);
        const VerificationTrace trace =
            verifyStark(parameters, run.publicInput, SeedVariant::Stone6, result.proof);
        QCOMPARE(trace.proofBytes, result.proof.size());

        // 2^95 · 4 = 2^96 − 2 (mod 2^96 + 3): mul_mod's first instance, c at values_ptr + 32.
        const std::uint64_t values = run.at(mul.begin + 4)->toFelt().limbs()[0];
        QCOMPARE(run.at(values + 32)->toFelt().limbs()[0], ~std::uint64_t(2));
        run.memory[values + 32] += Fp::one();
        try {
            prove(run, parameters);
            QFAIL("a wrong mul_mod result was proven");
        } catch (const TraceError& e) {
            QVERIFY2(std::string(e.what()).find("the mul_mod instance 0: mul_mod: a * b != c") !=
                         std::string::npos,
                     e.what());
        }
        // The trace's unused instances read the zero segment: without its address, or with one
        // that does not hold zeros, the run is refused before any commitment.
        run.memory[values + 32] -= Fp::one();
        const auto refusal = [&](const CairoRun& broken) {
            try {
                prove(broken, parameters);
                return std::string();
            } catch (const TraceError& e) {
                return std::string(e.what());
            }
        };
        CairoRun withoutZeros = run;
        withoutZeros.privateInput["add_mod"].erase("zero_value_address");
        QCOMPARE(refusal(withoutZeros),
                 std::string("the private input's add_mod has no zero_value_address, where the "
                             "trace's unused instances read their zeros (cairo-run writes it)"));
        CairoRun notZeros = run;
        notZeros.privateInput["mul_mod"]["zero_value_address"] = values;
        QCOMPARE(refusal(notZeros), "the mul_mod zero_value_address " + std::to_string(values) +
                                        " does not hold four zeros");
        // Parameters that put a mul_mod part on the cell of the CPU's off0 are refused naming
        // both, before any commitment.
        nlohmann::json overlapping = cairo::defaultDynamicParams({"add_mod", "mul_mod"});
        overlapping["mul_mod__carry0__part0_suboffset"] =
            overlapping["cpu__decode__off0_suboffset"];
        try {
            prove(modBuiltinsRun("dynamic", overlapping), parameters);
            QFAIL("a trace whose parameters overlap was proven");
        } catch (const TraceError& e) {
            QVERIFY2(
                std::string(e.what()).find(
                    "range-check pool's cell at row " +
                    std::to_string(2 * overlapping.at("cpu__decode__off0_suboffset").get<int>()) +
                    " of column 5 holds both cpu/decode/off0 and "
                    "mul_mod/carry0/part0") != std::string::npos,
                e.what());
        }
    }

    void cancellingStopsTheRun() {
        const CairoRun run = countdownRun("plain");
        std::atomic<bool> cancel{false};
        ProverOptions options;
        options.parameters = testParameters(run, ChannelProfile::Stone);
        options.cancel.flag = &cancel;
        std::vector<std::string> phases;
        options.progress = [&](const ProverProgress& progress) {
            phases.push_back(progress.phase);
            if (progress.phase == "interaction") {
                cancel.store(true);
            }
        };
        QVERIFY_THROWS_EXCEPTION(ProofCancelled, proveCairoRun(run, options));
        QVERIFY(std::find(phases.begin(), phases.end(), "composition") == phases.end());
    }

    // The progress the server turns into a time estimate: every phase in order, the fraction
    // never going back, the whole run adding up to 1, for a small blow-up (the `time` profile's)
    // and a large one (`size`'s), whose phases weigh differently.
    void progressRisesThroughEveryPhaseToTheEnd() {
        const CairoRun run = countdownRun("plain");
        for (const int logCosets : {2, 4}) {
            ProverOptions options;
            options.parameters = testParameters(run, ChannelProfile::Stone);
            options.parameters.logCosets = logCosets;
            std::vector<std::string> phases;
            double last = 0;
            bool monotone = true;
            options.progress = [&](const ProverProgress& progress) {
                if (phases.empty() || phases.back() != progress.phase) {
                    phases.push_back(progress.phase);
                }
                monotone = monotone && progress.fraction >= last;
                last = progress.fraction;
            };
            proveCairoRun(run, options);
            QVERIFY(monotone);
            QCOMPARE(phases, (std::vector<std::string>{"trace", "trace commitment", "interaction",
                                                       "composition", "out of domain", "fri",
                                                       "proof of work", "decommitment"}));
            QVERIFY2(std::abs(last - 1.0) < 1e-9, std::to_string(last).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(StarkProverTest)
#include "tst_stark_prover.moc"
