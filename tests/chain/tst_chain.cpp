// services/chain: RLP, block headers by fork, Merkle-Patricia proofs, Herodotus MMRs. Vectors are
// public facts written here (mainnet blocks 1 and 19426587, the published MMR values) and proofs
// made from our own anvil dev chain (data/devchain_vectors.json); the fixtures in
// ../shared/fixtures/ethereum are checked too when present.

#include "api/RequestWire.h"
#include "chain/BlockHeader.h"
#include "chain/ChainError.h"
#include "chain/ChainRegistry.h"
#include "chain/MerkleProof.h"
#include "chain/Mmr.h"
#include "chain/Rlp.h"
#include "crypto/Hex.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace proofdesk;
using namespace proofdesk::chain;
using nlohmann::json;

namespace {

QByteArray hex(const char* text) {
    return *crypto::fromHex(QString::fromLatin1(text));
}

std::string hex0x(const QByteArray& bytes) {
    return crypto::toHex0x(bytes).toStdString();
}

json readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return nullptr;
    }
    return json::parse(file.readAll().toStdString(), nullptr, false);
}

std::vector<QByteArray> nodes(const json& list) {
    std::vector<QByteArray> out;
    for (const json& node : list) {
        out.push_back(*crypto::fromHex(QString::fromStdString(node.get<std::string>())));
    }
    return out;
}

// Mainnet block 1 (public chain data).
json mainnetBlock1() {
    return {
        {"parentHash", "0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3"},
        {"sha3Uncles", "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"},
        {"miner", "0x05a56e2d52c817161883f50c441c3228cfe54d9f"},
        {"stateRoot", "0xd67e4d450343046425ae4271474353857ab860dbc0a1dde64b41b5cd3a532bf3"},
        {"transactionsRoot", "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"},
        {"receiptsRoot", "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"},
        {"logsBloom", "0x" + std::string(512, '0')},
        {"difficulty", "0x3ff800000"},
        {"number", "0x1"},
        {"gasLimit", "0x1388"},
        {"gasUsed", "0x0"},
        {"timestamp", "0x55ba4224"},
        {"extraData", "0x476574682f76312e302e302f6c696e75782f676f312e342e32"},
        {"mixHash", "0x969b900de27b6ac6a67742365dd65f55a0526c41fd18e1b16f1a1215c2e66f59"},
        {"nonce", "0x539bd4979fef1ec4"},
        {"hash", "0x88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6"},
        {"totalDifficulty", "0x7ff800000"},
        {"transactions", json::array()}};
}

// Mainnet block 19426587, the first Cancun block (public chain data).
json mainnetCancunBlock() {
    return {
        {"parentHash", "0xdb672c41cfd47c84ddb478ffde5a09b76964f77dceca0e62bdf719c965d73e7f"},
        {"sha3Uncles", "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"},
        {"miner", "0xdae56d85ff707b3d19427f23d8b03b7b76da1006"},
        {"stateRoot", "0xbd33ab68095087d81beb810b3f5d0b16050b3f798ae3978e440bab048dd78992"},
        {"transactionsRoot", "0x20cbdd2cd6113eb72dade6be7ec18fe6a7167a8a0af912a2171af909a8cda9f6"},
        {"receiptsRoot", "0x59c3691e83e0ddeafeedd07f5e30850cc6c963e85327aa1201fbe1f731ff3dbc"},
        {"logsBloom",
         "0x0021000000000001080801008000320000000060000000000005000080c2000400001000000060024404"
         "09000000010402011000890200000a201000042800440442148c0100208408004009012000200000040801"
         "644808800000600029068004012001020000002510000000020900c8122010020284000080021006000101"
         "000000401810621c0040000000001010000004800100404808000640255000002201000010002000000040"
         "c0000000000400a004000c0000884000304e00202400100402000000004204000004041008005600001000"
         "001000000003015030120012280000022020910040429204408020009000000010120000400000000400"},
        {"difficulty", "0x0"},
        {"number", "0x1286d1b"},
        {"gasLimit", "0x1c9c380"},
        {"gasUsed", "0x2830cd"},
        {"timestamp", "0x65f1b057"},
        {"extraData", "0xd883010d0e846765746888676f312e32312e37856c696e7578"},
        {"mixHash", "0x2617b147c1b3cf43a28d08d508ab2d8860c6cf40da58837676cfaaf4f9e07f62"},
        {"nonce", "0x0000000000000000"},
        {"baseFeePerGas", "0xe6ca77a30"},
        {"withdrawalsRoot", "0x6c119891018ed3a43d04197a8eb94d85f287304b8ace21b08e9f68cbd2f8de61"},
        {"blobGasUsed", "0x0"},
        {"excessBlobGas", "0x0"},
        {"parentBeaconBlockRoot",
         "0xb35bb80bc5f4e3d8f19b62f6274add24dca334db242546c3024403027aaf6412"},
        {"hash", "0xf8e2f40d98fe5862bc947c8c83d34799c50fb344d7445d020a8a946d891b62ee"}};
}

MmrHash word(std::uint64_t value) {
    MmrHash out{};
    for (int i = 0; i < 8; ++i) {
        out[31 - std::size_t(i)] = std::uint8_t(value >> (8 * i));
    }
    return out;
}

} // namespace

class ChainTest : public QObject {
    Q_OBJECT

private slots:
    void rlpEncodesKnownVectors() {
        QCOMPARE(rlpEncodeBytes("dog").toHex(), QByteArray("83646f67"));
        QCOMPARE(rlpEncodeBytes({}).toHex(), QByteArray("80"));
        QCOMPARE(rlpEncodeBytes(hex("0f")).toHex(), QByteArray("0f"));
        QCOMPARE(rlpEncodeBytes(minimalBigEndian(1024)).toHex(), QByteArray("820400"));
        QCOMPARE(rlpEncodeList(rlpEncodeBytes("cat") + rlpEncodeBytes("dog")).toHex(),
                 QByteArray("c88363617483646f67"));
        QCOMPARE(rlpEncodeList({}).toHex(), QByteArray("c0"));
        const QByteArray lorem("Lorem ipsum dolor sit amet, consectetur adipisicing elit");
        QCOMPARE(rlpEncodeBytes(lorem).left(2).toHex(), QByteArray("b838"));
        const RlpItem item = rlpDecode(rlpEncodeList(rlpEncodeBytes(lorem) + rlpEncodeList({})));
        QVERIFY(item.isList);
        QCOMPARE(item.items.size(), std::size_t(2));
        QCOMPARE(item.items[0].bytes, lorem);
        QVERIFY(item.items[1].isList);
    }

    void rlpRejectsNonCanonicalAndTruncatedInput_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("trailing bytes") << hex("8100ff");
        QTest::newRow("single byte wrapped") << hex("8105");
        QTest::newRow("truncated string") << hex("83646f");
        QTest::newRow("truncated list") << hex("c883636174");
        QTest::newRow("long form for short payload") << hex("b803646f67");
        QTest::newRow("length with leading zero") << (hex("b90038") + QByteArray(56, 'a'));
        QTest::newRow("empty input") << QByteArray();
    }

    void rlpRejectsNonCanonicalAndTruncatedInput() {
        QFETCH(QByteArray, input);
        QVERIFY_THROWS_EXCEPTION(ChainError, rlpDecode(input));
    }

    void headerHashesMatchForFrontierAndCancun() {
        const BlockHeader one = headerFromRpc(mainnetBlock1());
        QCOMPARE(one.fields.size(), std::size_t(15));
        QCOMPARE(one.rlp.size(), 532);
        QVERIFY(one.hashMatches());
        QCOMPARE(one.number, std::uint64_t(1));
        QCOMPARE(headerFieldValue(one, QStringLiteral("Difficulty"))->toStdString(),
                 std::string("0x3ff800000"));
        QCOMPARE(headerFieldValue(one, QStringLiteral("Nonce"))->toStdString(),
                 std::string("0x539bd4979fef1ec4"));
        QCOMPARE(headerFieldValue(one, QStringLiteral("GasUsed"))->toStdString(),
                 std::string("0x0"));

        const BlockHeader cancun = headerFromRpc(mainnetCancunBlock());
        QCOMPARE(cancun.fields.size(), std::size_t(20));
        QVERIFY(cancun.hashMatches());
        QCOMPARE(cancun.number, std::uint64_t(19426587));
        // Decoding the RLP gives the same header back.
        const BlockHeader again = headerFromRlp(cancun.rlp);
        QCOMPARE(again.hash, cancun.hash);
        QCOMPARE(again.fields, cancun.fields);
    }

    void headerMismatchAndGapsAreCaught() {
        json tampered = mainnetCancunBlock();
        tampered["gasUsed"] = "0x2830ce";
        QVERIFY(!headerFromRpc(tampered).hashMatches());
        json gap = mainnetCancunBlock();
        gap.erase("withdrawalsRoot");
        QVERIFY_THROWS_EXCEPTION(ChainError, headerFromRpc(gap));
        json shortHash = mainnetBlock1();
        shortHash["stateRoot"] = "0x1234";
        QVERIFY_THROWS_EXCEPTION(ChainError, headerFromRpc(shortHash));
        json missing = mainnetBlock1();
        missing.erase("nonce");
        QVERIFY_THROWS_EXCEPTION(ChainError, headerFromRpc(missing));
    }

    void devChainPragueHeaderHashes() {
        const json vectors = readJson(QStringLiteral(PROOFDESK_TEST_DATA "/devchain_vectors.json"));
        const BlockHeader header = headerFromRpc(vectors["block"]);
        QCOMPARE(header.fields.size(), std::size_t(21)); // anvil serves Prague headers
        QVERIFY(header.hashMatches());
    }

    void littleEndianWordsCutTheRlp() {
        const auto words = littleEndianWords(hex("0102030405060708090a"));
        QCOMPARE(words.size(), std::size_t(2));
        QCOMPARE(words[0], std::uint64_t(0x0807060504030201));
        QCOMPARE(words[1], std::uint64_t(0x0a09));
    }

    void devChainProofsVerify() {
        const json vectors = readJson(QStringLiteral(PROOFDESK_TEST_DATA "/devchain_vectors.json"));
        const QByteArray stateRoot = hex(vectors["block"]["stateRoot"].get<std::string>().c_str());
        const json& contract = vectors["contract"];
        const AccountState state =
            verifyAccountProof(stateRoot, hex(contract["address"].get<std::string>().c_str()),
                               nodes(contract["accountProof"]), false);
        QVERIFY(state.exists);
        QCOMPARE(hex0x(state.storageRoot), contract["storageHash"].get<std::string>());
        QCOMPARE(hex0x(state.codeHash), contract["codeHash"].get<std::string>());
        const std::vector<std::string> expected{"0x2a", "0x7", "0x0", "0x0"};
        for (std::size_t i = 0; i < 4; ++i) {
            const json& slot = contract["storageProof"][i];
            const QByteArray value =
                verifyStorageProof(state.storageRoot, hex(slot["key"].get<std::string>().c_str()),
                                   nodes(slot["proof"]));
            QCOMPARE(quantityHex(value).toStdString(), expected[i]);
        }

        const json& eoa = vectors["eoa"];
        const AccountState funded =
            verifyAccountProof(stateRoot, hex(eoa["address"].get<std::string>().c_str()),
                               nodes(eoa["accountProof"]), false);
        QCOMPARE(quantityHex(funded.balance).toStdString(), eoa["balance"].get<std::string>());
        QCOMPARE(quantityHex(funded.nonce).toStdString(), eoa["nonce"].get<std::string>());

        const json& absent = vectors["absent"];
        const AccountState none =
            verifyAccountProof(stateRoot, hex(absent["address"].get<std::string>().c_str()),
                               nodes(absent["accountProof"]), false);
        QVERIFY(!none.exists);
        QCOMPARE(none.storageRoot, emptyTrieRoot());
        // An empty storage trie: anvil sends ["0x80"], geth sends [].
        QVERIFY(verifyStorageProof(emptyTrieRoot(), QByteArray(32, 0), {hex("80")}).isEmpty());
        QVERIFY(verifyStorageProof(emptyTrieRoot(), QByteArray(32, 0), {}).isEmpty());
    }

    void tamperedProofsAreRefused() {
        const json vectors = readJson(QStringLiteral(PROOFDESK_TEST_DATA "/devchain_vectors.json"));
        const QByteArray stateRoot = hex(vectors["block"]["stateRoot"].get<std::string>().c_str());
        const json& contract = vectors["contract"];
        const QByteArray address = hex(contract["address"].get<std::string>().c_str());
        std::vector<QByteArray> proof = nodes(contract["accountProof"]);
        // A flipped byte in the last node breaks the hash chain.
        std::vector<QByteArray> flipped = proof;
        flipped.back()[flipped.back().size() - 1] ^= 1;
        QVERIFY_THROWS_EXCEPTION(ChainError,
                                 verifyAccountProof(stateRoot, address, flipped, false));
        // Another root.
        QVERIFY_THROWS_EXCEPTION(ChainError,
                                 verifyAccountProof(emptyCodeHash(), address, proof, false));
        // A node too many.
        std::vector<QByteArray> longer = proof;
        longer.push_back(proof.front());
        QVERIFY_THROWS_EXCEPTION(ChainError, verifyAccountProof(stateRoot, address, longer, false));
        // A proof cut short.
        std::vector<QByteArray> shorter(proof.begin(), proof.end() - 1);
        QVERIFY_THROWS_EXCEPTION(ChainError,
                                 verifyAccountProof(stateRoot, address, shorter, false));
        // Another key's proof does not prove this key: its path leads elsewhere.
        const QByteArray other = hex("00000000000000000000000000000000000000bb");
        QVERIFY_THROWS_EXCEPTION(
            ChainError,
            verifyAccountProof(stateRoot, other, nodes(vectors["absent"]["accountProof"]), false));
    }

    void mmrMatchesPublishedVectors() {
        QCOMPARE(toHex(Mmr::genesisLeaf(HashingFunction::Keccak)).toStdString(),
                 std::string("0xce92cc894a17c107be8788b58092c22cd0634d1489ca0ce5b4a045a1ce31b168"));
        QCOMPARE(*mmrHashFromHex(QStringLiteral(
                     "0x2241b3b7f1c4b9cf63e670785891de91f7237b1388f6635c1898ae397ad32dd")),
                 Mmr::genesisLeaf(HashingFunction::Poseidon));
        QCOMPARE(toHex(Mmr::withGenesis(HashingFunction::Keccak).root()).toStdString(),
                 std::string("0x5d8d23518dd388daa16925ff9475c5d1c06430d21e0422520d6a56402f42937b"));
        QCOMPARE(toHex(Mmr::withGenesis(HashingFunction::Poseidon).root()).toStdString(),
                 std::string("0x06759138078831011e3bc0b4a135af21c008dda64586363531697207fb5a2bae"));
        QCOMPARE(toHex(Mmr::hashPair(HashingFunction::Keccak, word(3), word(4))).toStdString(),
                 std::string("0x2e174c10e159ea99b867ce3205125c24a42d128804e4070ed6fcc8cc98166aa0"));
        QCOMPARE(*mmrHashFromHex(QStringLiteral(
                     "0x508c780b8cd26ffaa0ba03933770a02987d3d94870e70bc388f9bef69af180d")),
                 Mmr::hashPair(HashingFunction::Poseidon, word(3), word(4)));

        // Leaves "1".."6" appended to an empty MMR: 10 elements, the last at index 9.
        for (const auto& [function, root] :
             {std::pair{HashingFunction::Keccak,
                        "0x4c466c582074f6351b729134d42c66b15b7e1218fa63f1bfd614045ea96cd66a"},
              std::pair{HashingFunction::Poseidon,
                        "0x3c5f312ba85ad56867cd2de63d79e4ba910c90d9e82437d023846a044d10952"}}) {
            Mmr mmr(function);
            std::uint64_t last = 0;
            for (std::uint64_t leaf = 1; leaf <= 6; ++leaf) {
                last = mmr.append(word(leaf));
            }
            QCOMPARE(last, std::uint64_t(9));
            QCOMPARE(mmr.size(), std::uint64_t(10));
            QCOMPARE(mmr.peaks().size(), std::size_t(2));
            QCOMPARE(mmr.root(), *mmrHashFromHex(QString::fromLatin1(root)));
            // Rebuilt from its persisted state, it goes on identically.
            Mmr restored = *Mmr::fromState(function, mmr.leaves(), mmr.peaks());
            mmr.append(word(7));
            restored.append(word(7));
            QCOMPARE(restored.root(), mmr.root());
        }
        // Genesis + 1, 0x1, 2, 0x2, 3, 0x3: the published bags.
        for (const auto& [function, bag] :
             {std::pair{HashingFunction::Keccak,
                        "0x46d676ef5c3e8c6668ec577baee408f7b149d05b3ea31f4f2ad0d2a0ddc2a9b3"},
              std::pair{HashingFunction::Poseidon,
                        "0x1b6fe636cf8f005b539f3d5c9ca5b5f435e995ecf51894fd3045a5e8389d467"}}) {
            Mmr mmr = Mmr::withGenesis(function);
            for (std::uint64_t leaf : {1, 1, 2, 2, 3, 3}) {
                mmr.append(word(leaf));
            }
            QCOMPARE(mmr.size(), std::uint64_t(11));
            QCOMPARE(mmr.bag(), *mmrHashFromHex(QString::fromLatin1(bag)));
        }
        const std::vector<std::uint64_t> elements{1, 2, 4, 5, 8, 9, 11, 12, 16, 17, 19};
        for (std::uint64_t leaf = 0; leaf < elements.size(); ++leaf) {
            QCOMPARE(Mmr::elementIndexOfLeaf(leaf), elements[leaf]);
        }
        QVERIFY(!Mmr::fromState(HashingFunction::Keccak, 3, {word(1)}));
    }

    void chainKindsAgreeWithTheProvableList() {
        const auto& provable = api::request_enums::kProvableChainIds;
        for (const std::string& id : api::request_enums::kChainIds) {
            const bool listed = std::find(provable.begin(), provable.end(), id) != provable.end();
            QCOMPARE(canBeOrigin(QString::fromStdString(id)), listed);
        }
        QVERIFY(!chainKind(QStringLiteral("137")));
        ChainRegistry registry;
        QString error;
        QVERIFY(!registry.addAssignment(QStringLiteral("137=http://x"), &error));
        QVERIFY(!registry.addAssignment(QStringLiteral("1=ftp://x"), &error));
        QVERIFY(registry.addAssignment(QStringLiteral("1 = https://rpc.example.org"), &error));
        QCOMPARE(*registry.rpcUrl(QStringLiteral("1")), QStringLiteral("https://rpc.example.org"));
    }

    void fixtureHeadersAndProofs() {
        const QString root = QStringLiteral(PROOFDESK_FIXTURES_DIR "/ethereum");
        if (!QDir(root).exists()) {
            QSKIP("../shared/fixtures is not here");
        }
        int headers = 0;
        for (const QString& name :
             QDir(root + QStringLiteral("/mainnet/blocks")).entryList({QStringLiteral("*.json")})) {
            const json block = readJson(root + QStringLiteral("/mainnet/blocks/") + name);
            if (!block.contains("parentHash")) {
                continue; // the RLP-keyed file
            }
            const BlockHeader header = headerFromRpc(block);
            QVERIFY2(header.hashMatches(), qPrintable(name));
            ++headers;
        }
        QVERIFY(headers >= 9);
        // Every indexed header: our RLP, its hash, and its Poseidon MMR leaf.
        const json rlpIndex = readJson(root + QStringLiteral("/vectors/header_rlp_index.json"));
        int leaves = 0;
        for (const json& entry : rlpIndex["headers"]) {
            const QByteArray rlp = hex(entry["rlp"].get<std::string>().c_str());
            const BlockHeader header = headerFromRlp(rlp);
            QCOMPARE(hex0x(header.hash), entry["hash"].get<std::string>());
            QCOMPARE(
                Mmr::blockLeaf(HashingFunction::Poseidon, rlp, header.hash),
                *mmrHashFromHex(QString::fromStdString(entry["poseidonLeaf"].get<std::string>())));
            ++leaves;
        }
        QVERIFY(leaves >= 10);
        const json index = readJson(root + QStringLiteral("/vectors/getproof_index.json"));
        int proofs = 0;
        for (const json& entry : index["proofs"]) {
            const json proof =
                readJson(root + QLatin1Char('/') +
                         QString::fromStdString(entry["proofFile"].get<std::string>()));
            const json& result = proof.contains("result") ? proof["result"] : proof;
            const AccountState state =
                verifyAccountProof(hex(entry["stateRoot"].get<std::string>().c_str()),
                                   hex(entry["address"].get<std::string>().c_str()),
                                   nodes(result["accountProof"]), false);
            QCOMPARE(hex0x(state.storageRoot), entry["account"]["storageHash"].get<std::string>());
            for (const json& slot : entry.value("storage", json::array())) {
                for (const json& candidate : result["storageProof"]) {
                    const QByteArray key = hex(candidate["key"].get<std::string>().c_str());
                    if (stripLeadingZeros(key) !=
                        stripLeadingZeros(hex(slot["key"].get<std::string>().c_str()))) {
                        continue;
                    }
                    QByteArray padded = QByteArray(32 - key.size(), 0) + key;
                    const QByteArray value =
                        verifyStorageProof(state.storageRoot, padded, nodes(candidate["proof"]));
                    QCOMPARE(quantityHex(value).toStdString(), slot["value"].get<std::string>());
                    ++proofs;
                }
            }
        }
        QVERIFY(proofs >= 1);
        // The Goerli on-chain MMR (genesis + 10 blocks newest first).
        const json mmr = readJson(root + QStringLiteral("/vectors/herodotus_mmr_vectors.json"));
        const json& goerli = mmr["goerliOnchainTest"];
        Mmr keccak = Mmr::withGenesis(HashingFunction::Keccak);
        Mmr poseidon = Mmr::withGenesis(HashingFunction::Poseidon);
        for (const json& step : goerli["appendOrder"]) {
            keccak.append(
                *mmrHashFromHex(QString::fromStdString(step["keccak"].get<std::string>())));
            poseidon.append(
                *mmrHashFromHex(QString::fromStdString(step["poseidon"].get<std::string>())));
        }
        QCOMPARE(keccak.size(), std::uint64_t(19));
        QCOMPARE(toHex(keccak.root()).toStdString(),
                 std::string("0xc87c3ba0942e428ad5432078aa7bb0b9d423616a3a1c8c7fc27b546a81465aaf"));
        QCOMPARE(toHex(poseidon.root()).toStdString(),
                 std::string("0x06bdd6350f4f5600876f13fb1ee9be09565e37f4ab97971268bc0eb2df5ed6b9"));
    }
};

QTEST_GUILESS_MAIN(ChainTest)
#include "tst_chain.moc"
