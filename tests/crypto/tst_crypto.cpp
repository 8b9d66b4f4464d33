#include "crypto/Eip712.h"
#include "crypto/Hex.h"
#include "crypto/Keccak.h"
#include "crypto/KeccakF.h"
#include "crypto/Secp256k1.h"

#include <QTest>

using namespace proofdesk::crypto;

namespace {

QByteArray hex(const char* text) {
    return fromHex(QString::fromLatin1(text)).value();
}

// The Mail example of EIP-712 itself (eips.ethereum.org/EIPS/eip-712, assets/eip-712/Example.js).
nlohmann::json mailTypedData() {
    return nlohmann::json::parse(R"({
      "types": {
        "EIP712Domain": [{"name":"name","type":"string"},{"name":"version","type":"string"},
                         {"name":"chainId","type":"uint256"},
                         {"name":"verifyingContract","type":"address"}],
        "Person": [{"name":"name","type":"string"},{"name":"wallet","type":"address"}],
        "Mail": [{"name":"from","type":"Person"},{"name":"to","type":"Person"},
                 {"name":"contents","type":"string"}]
      },
      "primaryType": "Mail",
      "domain": {"name":"Ether Mail","version":"1","chainId":1,
                 "verifyingContract":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
      "message": {"from":{"name":"Cow","wallet":"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
                  "to":{"name":"Bob","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
                  "contents":"Hello, Bob!"}
    })");
}

const char* kMailSignature = "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"
                             "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c";

} // namespace

class CryptoTest : public QObject {
    Q_OBJECT
private slots:
    void keccakKnownAnswers() {
        QCOMPARE(keccak256({}).toHex(),
                 QByteArray("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"));
        QCOMPARE(keccak256("cow").toHex(),
                 QByteArray("c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"));
    }

    // The permutation run several states at a time (AVX-512: eight, AVX2: four, with rotations
    // as additions and byte shuffles) gives what the one-state permutation gives, and that is
    // Keccak-f[1600]: the zero state's first lane after one permutation is the known
    // 0xF1258F7940E1DDE7.
    void keccakPermutationsSideBySideMatchOneAtATime() {
        std::array<std::uint64_t, 25> zero{};
        proofdesk::crypto::keccakF1600(zero);
        QCOMPARE(zero[0], std::uint64_t(0xF1258F7940E1DDE7ULL));
        std::vector<std::array<std::uint64_t, 25>> states(13), expected;
        std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
        for (auto& state : states) {
            for (std::uint64_t& lane : state) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                lane = seed;
            }
        }
        expected = states;
        for (auto& state : expected) {
            proofdesk::crypto::keccakF1600(state);
        }
        std::vector<std::uint64_t> lanes(200);
        for (std::size_t i = 0; i < 25; ++i) {
            for (std::size_t j = 0; j < 8; ++j) {
                lanes[8 * i + j] = states[j][i];
            }
        }
        proofdesk::crypto::keccakF1600Many(states.data(), states.size());
        QVERIFY(states == expected);
        proofdesk::crypto::keccakF1600Lanes8(lanes.data());
        for (std::size_t i = 0; i < 25; ++i) {
            for (std::size_t j = 0; j < 8; ++j) {
                QCOMPARE(lanes[8 * i + j], expected[j][i]);
            }
        }
    }

    void hexParsing() {
        QCOMPARE(fromHex(u"0x00ff").value(), QByteArray("\x00\xff", 2));
        QCOMPARE(fromHex(u"ABcd").value(), QByteArray("\xab\xcd", 2));
        QVERIFY(!fromHex(u"0x0").has_value());
        QVERIFY(!fromHex(u"0xzz").has_value());
        QVERIFY(parseAddress(u"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826").has_value());
        QVERIFY(!parseAddress(u"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD82").has_value());
        QVERIFY(!parseAddress(u"CD2a3d9F938E13CD947Ec05AbC7FE734Df8DD82600").has_value());
        QCOMPARE(toChecksumAddress(hex("cd2a3d9f938e13cd947ec05abc7fe734df8dd826")),
                 QStringLiteral("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"));
    }

    void eip712MailExample() {
        const nlohmann::json typed = mailTypedData();
        QCOMPARE(eip712::encodeType(typed["types"], "Mail"),
                 std::string("Mail(Person from,Person to,string contents)Person(string name,"
                             "address wallet)"));
        QCOMPARE(eip712::typeHash(typed["types"], "Mail").toHex(),
                 QByteArray("a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2"));
        QCOMPARE(eip712::hashStruct(typed["types"], "Mail", typed["message"]).toHex(),
                 QByteArray("c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e"));
        QCOMPARE(eip712::domainSeparator(typed).toHex(),
                 QByteArray("f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f"));
        QCOMPARE(eip712::signingDigest(typed).toHex(),
                 QByteArray("be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"));
    }

    void eip712DomainTypeIsDerivedWhenAbsent() {
        nlohmann::json typed = mailTypedData();
        typed["types"].erase("EIP712Domain");
        QCOMPARE(eip712::signingDigest(typed).toHex(),
                 QByteArray("be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"));
    }

    void eip712RejectsMalformedData() {
        nlohmann::json typed = mailTypedData();
        typed["message"]["from"]["wallet"] = "0x1234";
        QVERIFY_THROWS_EXCEPTION(TypedDataError, eip712::signingDigest(typed));
        typed = mailTypedData();
        typed["message"].erase("contents");
        QVERIFY_THROWS_EXCEPTION(TypedDataError, eip712::signingDigest(typed));
        typed = mailTypedData();
        typed["types"]["Mail"][2]["type"] = "strang";
        QVERIFY_THROWS_EXCEPTION(TypedDataError, eip712::signingDigest(typed));
        QVERIFY_THROWS_EXCEPTION(TypedDataError, eip712::signingDigest(nlohmann::json::array()));
    }

    void eip712ArraysAndIntegers() {
        // int8 -1 is 0xff..ff; uint8 256 does not fit; arrays hash their encoded elements.
        QCOMPARE(encodeIntegerWord(-1, 8, true).toHex(), QByteArray(64, 'f'));
        QCOMPARE(encodeIntegerWord("0x10", 256, false).toHex().right(2), QByteArray("10"));
        QCOMPARE(encodeIntegerWord("-128", 8, true).toHex().right(2), QByteArray("80"));
        QVERIFY_THROWS_EXCEPTION(TypedDataError, encodeIntegerWord(256, 8, false));
        QVERIFY_THROWS_EXCEPTION(TypedDataError, encodeIntegerWord("-129", 8, true));
        QVERIFY_THROWS_EXCEPTION(TypedDataError, encodeIntegerWord("-1", 256, false));
        QVERIFY_THROWS_EXCEPTION(TypedDataError, encodeIntegerWord("12a", 256, false));
        const nlohmann::json types = {{"L", {{{"name", "xs"}, {"type", "uint256[]"}}}}};
        QByteArray expected = eip712::typeHash(types, "L");
        expected += keccak256(encodeIntegerWord(1, 256, false) + encodeIntegerWord(2, 256, false));
        QCOMPARE(eip712::hashStruct(types, "L", {{"xs", {1, 2}}}), keccak256(expected));
    }

    void mailSignatureRecoversCow() {
        RecoverableSignature signature;
        QCOMPARE(parseSignature(hex(kMailSignature), &signature), SignatureProblem::None);
        QCOMPARE(signature.recoveryId, 1);
        const auto signer = recoverAddress(eip712::signingDigest(mailTypedData()), signature);
        QVERIFY(signer.has_value());
        QCOMPARE(signer->toHex(), QByteArray("cd2a3d9f938e13cd947ec05abc7fe734df8dd826"));
    }

    void signingReproducesTheEipSignature() {
        // RFC 6979 makes the signature deterministic: the EIP's published r, s, v come back.
        const QByteArray cow = keccak256("cow");
        QCOMPARE(addressOfPrivateKey(cow)->toHex(),
                 QByteArray("cd2a3d9f938e13cd947ec05abc7fe734df8dd826"));
        const auto signature = signDigest(eip712::signingDigest(mailTypedData()), cow);
        QVERIFY(signature.has_value());
        QCOMPARE(*signature, hex(kMailSignature));
    }

    void personalSignVectorOfAnvilAccount0() {
        const QByteArray key =
            hex("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
        QCOMPARE(toChecksumAddress(addressOfPrivateKey(key).value()),
                 QStringLiteral("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"));
        const QByteArray digest = keccak256("\x19"
                                            "Ethereum Signed Message:\n11hello world");
        QCOMPARE(signDigest(digest, key)->toHex(),
                 QByteArray("a461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c"
                            "96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b"));
    }

    void signatureRefusals() {
        RecoverableSignature signature;
        QByteArray raw = hex(kMailSignature);
        QCOMPARE(parseSignature(raw.left(64), &signature), SignatureProblem::WrongLength);
        QByteArray badV = raw;
        badV[64] = 29;
        QCOMPARE(parseSignature(badV, &signature), SignatureProblem::BadRecoveryId);
        QByteArray zeroOne = raw;
        zeroOne[64] = 1;
        QCOMPARE(parseSignature(zeroOne, &signature), SignatureProblem::None);
        QCOMPARE(signature.recoveryId, 1);
        // s' = n - s is the same signature's high-s twin: refused (EIP-2).
        const QByteArray highS =
            raw.left(32) + hex("f8d666c92cfb3eac09bbc205fa0bf00eb2d7b3d4f8517d33c63c3b76ca7d2bdf") +
            QByteArray(1, 27);
        QCOMPARE(parseSignature(highS, &signature), SignatureProblem::HighS);
    }

    void recoveryFromAnotherDigestGivesAnotherAddress() {
        RecoverableSignature signature;
        QCOMPARE(parseSignature(hex(kMailSignature), &signature), SignatureProblem::None);
        const auto signer = recoverAddress(keccak256("something else"), signature);
        QVERIFY(!signer || signer->toHex() != "cd2a3d9f938e13cd947ec05abc7fe734df8dd826");
    }
};

QTEST_GUILESS_MAIN(CryptoTest)
#include "tst_crypto.moc"
