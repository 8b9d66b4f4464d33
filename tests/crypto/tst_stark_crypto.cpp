#include "crypto/BigInt.h"
#include "crypto/Felt.h"
#include "crypto/Keccak.h"
#include "crypto/KeccakF.h"
#include "crypto/MontField.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"
#include "crypto/StarkCurve.h"

#include <QTest>

using namespace proofdesk::crypto;

namespace {

Felt f(const char* text) {
    return Felt::parse(text).value();
}

} // namespace

class StarkCryptoTest : public QObject {
    Q_OBJECT
private slots:
    // First of this suite to hash: a process hashes with small tables first and switches to the
    // large ones after some thousands of hashes (issue #48). Both give the published vectors and
    // the same hashes of 64 pseudo-random pairs, the last inputs' high bits included.
    void pedersenSmallAndLargeTablesAgree() {
        const auto published = [] {
            return pedersenHash(
                       f("0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cb"),
                       f("0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31a"))
                .toHex();
        };
        const std::string expected =
            "0x30e480bed5fe53fa909cc0f8c4d99b8f9f2c016be4c41e13a4848797979c662";
        QCOMPARE(published(), expected);
        std::vector<std::pair<Felt, Felt>> inputs;
        Felt seed = f("0x7a3");
        for (int i = 0; i < 64; ++i) {
            const Felt x = poseidonHashMany({seed, Felt::fromU64(std::uint64_t(i))});
            const Felt y = poseidonHashMany({x, seed});
            inputs.emplace_back(x, i % 8 == 0 ? -Felt::one() : y); // p - 1: every bit high
            seed = y;
        }
        std::vector<Felt> before;
        for (const auto& [x, y] : inputs) {
            before.push_back(pedersenHash(x, y));
        }
        Felt fold = Felt::zero();
        for (int i = 0; i < 5000; ++i) { // past the switch to the large tables
            fold = pedersenHash(fold, Felt::fromU64(std::uint64_t(i)));
        }
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            QCOMPARE(pedersenHash(inputs[i].first, inputs[i].second), before[i]);
        }
        QCOMPARE(published(), expected);
    }

    void feltParsingAndFormatting() {
        QCOMPARE(f("0x10").toDecimal(), std::string("16"));
        QCOMPARE(f("255").toHex(), std::string("0xff"));
        QCOMPARE(Felt::zero().toHex(), std::string("0x0"));
        // p itself reduces to zero; -1 is p - 1.
        QVERIFY(f("0x800000000000011000000000000000000000000000000000000000000000001").isZero());
        QCOMPARE(f("-1").toHex(),
                 std::string("0x800000000000011000000000000000000000000000000000000000000000000"));
        QCOMPARE(Felt::fromI64(-5), f("-5"));
        QCOMPARE(f("-5").toSignedDecimal(), std::string("-5"));
        QCOMPARE(f("12345678901234567890123456789").toDecimal(),
                 std::string("12345678901234567890123456789"));
        QVERIFY(!Felt::parse("0x").has_value());
        QVERIFY(!Felt::parse("12a").has_value());
        QVERIFY(!Felt::parse("0x1" + std::string(64, '0')).has_value()); // 2^256: too big
        QVERIFY(!Felt::fromLimbs(Felt::modulus()).has_value());
    }

    void feltArithmetic() {
        const Felt a = f("0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cb");
        const Felt b = f("0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31a");
        QCOMPARE((a + b) - b, a);
        QCOMPARE(a * b, b * a);
        QCOMPARE((a * b) * b.inverse(), a);
        QCOMPARE(a * a.inverse(), Felt::one());
        QCOMPARE(f("7") * f("6"), f("42"));
        QCOMPARE(f("-1") * f("-1"), Felt::one());
        QCOMPARE(-Felt::zero(), Felt::zero());
        // 2^255 mod p via repeated doubling vs parsing.
        Felt two255 = Felt::one();
        for (int i = 0; i < 255; ++i) {
            two255 += two255;
        }
        QCOMPARE(two255, Felt::parse("0x8" + std::string(63, '0')).value());
        QVERIFY(f("3") < f("4"));
        QCOMPARE(f("0x8").bitLength(), 4);
    }

    void feltSquareRoots() {
        const Felt x = f("123456789");
        const auto root = (x * x).sqrt();
        QVERIFY(root.has_value());
        QCOMPARE(*root * *root, x * x);
        QVERIFY(*root <= -*root);            // the smaller root
        QVERIFY(!f("3").sqrt().has_value()); // the generator is a non-residue
    }

    // 256-bit integer square roots (uint256_sqrt's fast path), floor(sqrt(n)) at the edges.
    void integerSquareRootsOf256BitNumbers() {
        using Limbs = Felt::Limbs;
        const Limbs max = {~0ULL, ~0ULL, ~0ULL, ~0ULL};
        QVERIFY(u256::isqrt(max) == (Limbs{~0ULL, ~0ULL, 0, 0}));       // 2^128 − 1
        QVERIFY(u256::isqrt(Limbs{0, 0, 1, 0}) == (Limbs{0, 1, 0, 0})); // sqrt(2^128) = 2^64
        QVERIFY(u256::isqrt(Limbs{15, 0, 0, 0}) == (Limbs{3, 0, 0, 0}));
        QVERIFY(u256::isqrt(Limbs{16, 0, 0, 0}) == (Limbs{4, 0, 0, 0}));
        QVERIFY(u256::isqrt(Limbs{0, 0, 0, 0}) == (Limbs{0, 0, 0, 0}));
        // (2^100 + 7)^2 − 1 has the root 2^100 + 6.
        const BigInt root = BigInt::powerOfTwo(100) + BigInt(7);
        const BigInt square = root * root - BigInt(1);
        QCOMPARE(BigInt::fromU256(u256::isqrt(*square.toU256())).toDecimal(),
                 (root - BigInt(1)).toDecimal());
    }

    void bigIntSquareRootsModuloPrimes() {
        using proofdesk::crypto::BigInt;
        QCOMPARE(BigInt::sqrtModPrime(BigInt(2), BigInt(7)), std::optional<BigInt>(BigInt(3)));
        QCOMPARE(BigInt::sqrtModPrime(BigInt(0), BigInt(7)), std::optional<BigInt>(BigInt(0)));
        QVERIFY(!BigInt::sqrtModPrime(BigInt(3), BigInt(7))); // 3 is not a square mod 7
        QVERIFY(BigInt::isQuadResidue(BigInt(14), BigInt(7)));
        QVERIFY(!BigInt::isQuadResidue(BigInt(5), BigInt(7)));
        // p ≡ 1 (mod 8) exercises the Tonelli-Shanks loop: 2^255-19 ≡ 5 (mod 8), the STARK
        // prime has 2^192 | p - 1.
        const BigInt stark = BigInt::fromFelt(-Felt::one()) + BigInt(1);
        const BigInt x = *BigInt::parse("123456789012345678901234567890");
        const auto root = BigInt::sqrtModPrime(x * x, stark);
        QVERIFY(root.has_value());
        QCOMPARE((*root * *root).mod(stark), (x * x).mod(stark));
        QVERIFY(*root <= stark - *root);
        const BigInt ed = BigInt::powerOfTwo(255) - BigInt(19);
        QCOMPARE((BigInt::sqrtModPrime(BigInt(4), ed)), std::optional<BigInt>(BigInt(2)));
        // A composite modulus (561 is a Carmichael number) ends with no root or a true one.
        for (int n = 1; n < 600; ++n) {
            if (const auto r = BigInt::sqrtModPrime(BigInt(n), BigInt(561))) {
                QCOMPARE((*r * *r).mod(BigInt(561)), BigInt(n).mod(BigInt(561)));
            }
        }
        QVERIFY(!BigInt::sqrtModPrime(BigInt(4), BigInt(0)));
    }

    void pedersenPublishedVectors() {
        QCOMPARE(pedersenHash(Felt::zero(), Felt::zero()).toHex(),
                 std::string("0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804"));
        QCOMPARE(
            pedersenHash(f("0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cb"),
                         f("0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31a"))
                .toHex(),
            std::string("0x30e480bed5fe53fa909cc0f8c4d99b8f9f2c016be4c41e13a4848797979c662"));
        // cairo-run prints pedersen(0,0) signed.
        QCOMPARE(pedersenHash(Felt::zero(), Felt::zero()).toSignedDecimal(),
                 std::string("-1528516508317877792526642961614204972800040744393150604467269738882"
                             "277939197"));
    }

    void pedersenChainFoldsFromTheRight() {
        const Felt a = f("1"), b = f("2"), c = f("3");
        QCOMPARE(pedersenHashChain({a, b, c}), pedersenHash(a, pedersenHash(b, c)));
        QCOMPARE(pedersenHashChain({a}), a);
    }

    void poseidonPublishedVectors() {
        std::array<Felt, 3> state = {f("1"), f("2"), f("3")};
        hadesPermutation(state);
        QCOMPARE(state[0].toDecimal(), std::string("44268220034948964621373152159347698225770315982"
                                                   "5582578145778919623645026501"));
        QCOMPARE(state[1].toDecimal(), std::string("22338325042509243837485539330711889032799289811"
                                                   "04663696710686541536735838182"));
        QCOMPARE(state[2].toDecimal(), std::string("25122221408111662872875410038264490320933718"
                                                   "32913959128171347018667852712082"));
        QCOMPARE(
            poseidonHashSingle(f("2186760088894496929164647809117137106281159735742428897928"
                                 "91157041292792362"))
                .toDecimal(),
            std::string("2835120893146788752888137145656423078969524407843035783270702964188823"
                        "073934"));
        QCOMPARE(
            poseidonHash(f("1253795"), f("18540013156130945068")).toDecimal(),
            std::string("3728236075036738806859312805338602994777210400954422078608451053211824"
                        "6655"));
        QCOMPARE(
            poseidonHashMany({f("84175983715088675913672849362079546"),
                              f("9384720329467203286234076408512594689579283578028960384690"),
                              f("291883989128409324823849293040390493094093"),
                              f("5849589438543859348593485948598349584395839402940940290490324"),
                              f("1836254780028456372728992049476335424263474849")})
                .toDecimal(),
            std::string("4710251332916095106469715719471301375369531762915483532672681004240697"
                        "4264"));
    }

    // The batched permutation (states side by side, for the prover's Poseidon commitments)
    // equals the permutation of each state, for counts with and without a remainder: the
    // published state (1, 2, 3) among others, p − 1 and 0 included.
    void poseidonBatchesMatchOneAtATime() {
        const Felt minusOne = Felt::zero() - Felt::one();
        for (const std::size_t n : {std::size_t(1), std::size_t(4), std::size_t(7)}) {
            std::vector<std::array<Felt, 3>> states;
            for (std::size_t i = 0; i < n; ++i) {
                states.push_back({Felt::fromU64(3 * i + 1), Felt::fromU64(3 * i + 2),
                                  i == 1 ? minusOne : Felt::fromU64(3 * i + 3)});
            }
            states.back()[1] = minusOne;
            std::vector<std::array<Felt::Limbs, 3>> words;
            for (const auto& state : states) {
                words.push_back({mont::toMont(state[0].limbs()), mont::toMont(state[1].limbs()),
                                 mont::toMont(state[2].limbs())});
            }
            hadesPermutationMontgomery(words);
            for (std::size_t i = 0; i < n; ++i) {
                std::array<Felt, 3> expected = states[i];
                hadesPermutation(expected);
                for (std::size_t j = 0; j < 3; ++j) {
                    QCOMPARE(mont::fromMont(words[i][j]), expected[j].limbs());
                }
            }
        }
    }

    void keccakF1600MatchesTheSponge() {
        // The all-zero state: first lane of Keccak-f[1600](0) is 0xF1258F7940E1DDE7.
        std::array<std::uint64_t, 25> zero{};
        keccakF1600(zero);
        QCOMPARE(zero[0], 0xF1258F7940E1DDE7ULL);
        // Keccak-256 built from the permutation equals Qt's Keccak-256, across a block boundary.
        const QByteArray message(200, 'a');
        std::array<std::uint64_t, 25> state{};
        QByteArray padded = message;
        padded.append('\x01');
        while (padded.size() % 136 != 0) {
            padded.append('\0');
        }
        padded[padded.size() - 1] = static_cast<char>(padded[padded.size() - 1] | 0x80);
        for (qsizetype block = 0; block < padded.size(); block += 136) {
            for (int lane = 0; lane < 17; ++lane) {
                std::uint64_t v = 0;
                for (int byte = 0; byte < 8; ++byte) {
                    v |= static_cast<std::uint64_t>(
                             static_cast<unsigned char>(padded[block + lane * 8 + byte]))
                         << (8 * byte);
                }
                state[static_cast<std::size_t>(lane)] ^= v;
            }
            keccakF1600(state);
        }
        QByteArray digest;
        for (int i = 0; i < 32; ++i) {
            digest.append(
                static_cast<char>(state[static_cast<std::size_t>(i / 8)] >> (8 * (i % 8))));
        }
        QCOMPARE(digest.toHex(), keccak256(message).toHex());
    }

    void curveBasics() {
        QVERIFY(stark::isOnCurve(stark::generator()));
        // n·G is the point at infinity; (n-1)·G = -G.
        QVERIFY(stark::toAffine(stark::multiply(stark::generator(), stark::order())).infinity);
        Felt::Limbs nMinus1 = stark::order();
        nMinus1[0] -= 1;
        const stark::Affine minusG = stark::toAffine(stark::multiply(stark::generator(), nMinus1));
        QCOMPARE(minusG.xFelt(), stark::generator().xFelt());
        QCOMPARE(minusG.yFelt(), -stark::generator().yFelt());
        const auto y = stark::recoverY(stark::generator().xFelt());
        QVERIFY(y.has_value());
        QVERIFY(*y == stark::generator().yFelt() || *y == -stark::generator().yFelt());
    }
};

QTEST_GUILESS_MAIN(StarkCryptoTest)
#include "tst_stark_crypto.moc"
