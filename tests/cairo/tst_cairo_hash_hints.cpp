// The cairo_keccak and cairo_blake2s hints (the permutation or compression is done by the hint
// and checked by Cairo), and EC helpers.

#include "HintFixture.h"

#include "crypto/Blake2s.h"
#include "crypto/Sha256.h"

#include <QCryptographicHash>

using namespace proofdesk::cairo;
using proofdesk::test::Fixture;
namespace crypto = proofdesk::crypto;

namespace {

const std::map<std::string, std::uint64_t> kKeccakConstants = {{"KECCAK_STATE_SIZE_FELTS", 25},
                                                               {"BLOCK_SIZE", 3},
                                                               {"BYTES_IN_WORD", 8},
                                                               {"KECCAK_FULL_RATE_IN_BYTES", 136}};

// Keccak-f[1600] of the all-zero state starts with this lane.
const Felt kFirstLaneOfZeroPermutation = *Felt::parse("0xF1258F7940E1DDE7");

} // namespace

class CairoKeccakHintsTest : public QObject {
    Q_OBJECT
private slots:
    void blockPermutationWritesThePermutedLanes() {
        Fixture f({"keccak_ptr"}, kKeccakConstants);
        const Relocatable lanes = f.memory.addSegment();
        for (int i = 0; i < 25; ++i) {
            f.memory.set(lanes + i, Felt::zero());
        }
        f.set("keccak_ptr", lanes + 25);
        f.run(
            "from starkware.cairo.common.cairo_keccak.keccak_utils import keccak_func\n"
            "_keccak_state_size_felts = int(ids.KECCAK_STATE_SIZE_FELTS)\nassert 0 <= "
            "_keccak_state_size_felts < 100\n\noutput_values = keccak_func(memory.get_range(\n    "
            "ids.keccak_ptr - _keccak_state_size_felts, _keccak_state_size_felts))\n"
            "segments.write_arg(ids.keccak_ptr, output_values)");
        QCOMPARE(f.memory.get(lanes + 25).felt(), kFirstLaneOfZeroPermutation);
        QVERIFY(f.memory.isSet(lanes + 49));
    }

    void finalizePadsWithDummyPermutations() {
        Fixture f({"keccak_ptr_end"}, kKeccakConstants);
        const Relocatable end = f.memory.addSegment();
        f.set("keccak_ptr_end", end);
        if (Fixture::execution == HintExecution::PythonOnly) {
            // In a program, an earlier hint of the scope (_block_permutation's) imported it.
            f.run("from starkware.cairo.common.cairo_keccak.keccak_utils import keccak_func");
        }
        f.run("# Add dummy pairs of input and output.\n_keccak_state_size_felts = "
              "int(ids.KECCAK_STATE_SIZE_FELTS)\n_block_size = int(ids.BLOCK_SIZE)\nassert 0 <= "
              "_keccak_state_size_felts < 100\nassert 0 <= _block_size < 10\ninp = [0] * "
              "_keccak_state_size_felts\npadding = (inp + keccak_func(inp)) * _block_size\n"
              "segments.write_arg(ids.keccak_ptr_end, padding)");
        QCOMPARE(f.memory.segmentUsedSize(end.segment), std::uint64_t(150)); // 3 × (25 + 25)
        QCOMPARE(f.memory.get(end + 25).felt(), kFirstLaneOfZeroPermutation);
        QCOMPARE(f.memory.get(end + 125).felt(), kFirstLaneOfZeroPermutation);
    }

    // Issue #46: texts of older cairo-lang versions. unsafe_keccak_finalize: keccak256 of two
    // 16-byte words, 0 and 1; poseidon_hash_many's loop tests on the elements left.
    void olderVersionsTexts() {
        Fixture f({"keccak_state", "high", "low"}, {}, {{"keccak_state", "KeccakState"}});
        const Relocatable words = f.memory.addSegment();
        f.memory.set(words, Felt::zero());
        f.memory.set(words + 1, Felt::one());
        f.setAt("keccak_state", 0, words);
        f.setAt("keccak_state", 1, words + 2);
        f.run("from eth_hash.auto import keccak\nkeccak_input = bytearray()\nn_elms = "
              "ids.keccak_state.end_ptr - ids.keccak_state.start_ptr\nfor word in "
              "memory.get_range(ids.keccak_state.start_ptr, n_elms):\n    keccak_input += "
              "word.to_bytes(16, 'big')\nhashed = keccak(keccak_input)\nids.high = "
              "int.from_bytes(hashed[:16], 'big')\nids.low = int.from_bytes(hashed[16:32], "
              "'big')");
        // keccak256 of the 32 bytes of uint256 1 (abi.encode(1)): 0xb10e2d52…b7fa0cf6.
        QCOMPARE(f.get("high"), *Felt::parse("0xb10e2d527612073b26eecdfd717e6a32"));
        QCOMPARE(f.get("low"), *Felt::parse("0x0cf44b4afac2b0732d9fcbe2b7fa0cf6"));

        Fixture g({"elements_end", "elements"});
        const Relocatable elements = g.memory.addSegment();
        g.set("elements", elements);
        g.set("elements_end", elements + 9);
        g.run("memory[ap] = to_felt_or_relocatable(ids.elements_end - ids.elements >= 10)");
        QCOMPARE(g.memory.get(g.vm->ap).felt(), Felt::zero());
        g.vm->ap = g.vm->ap + 1;
        g.run("memory[ap] = to_felt_or_relocatable(ids.elements_end - ids.elements >= 2)");
        QCOMPARE(g.memory.get(g.vm->ap).felt(), Felt::one());
    }

    void writeArgsAndSplits() {
        Fixture f({"inputs", "low", "high", "high3", "low3", "n_bytes", "n_words_to_copy",
                   "n_bytes_left"},
                  kKeccakConstants);
        const Relocatable inputs = f.memory.addSegment();
        f.set("inputs", inputs);
        f.set("low", *Felt::parse("0x10000000000000005")); // 2^64 + 5
        f.set("high", Felt::fromU64(7));
        f.run("segments.write_arg(ids.inputs, [ids.low % 2 ** 64, ids.low // 2 ** 64])\n"
              "segments.write_arg(ids.inputs + 2, [ids.high % 2 ** 64, ids.high // 2 ** 64])");
        QCOMPARE(f.memory.get(inputs).felt(), Felt::fromU64(5));
        QCOMPARE(f.memory.get(inputs + 1).felt(), Felt::one());
        QCOMPARE(f.memory.get(inputs + 2).felt(), Felt::fromU64(7));
        QCOMPARE(f.memory.get(inputs + 3).felt(), Felt::zero());

        Fixture g({"inputs", "high3", "low3"}, kKeccakConstants);
        const Relocatable gw = g.memory.addSegment();
        g.memory.set(gw + 3, Felt::fromU64(0x1234));
        g.set("inputs", gw);
        g.run("ids.high3, ids.low3 = divmod(memory[ids.inputs + 3], 256)");
        QCOMPARE(g.get("high3"), Felt::fromU64(0x12));
        QCOMPARE(g.get("low3"), Felt::fromU64(0x34));

        f.set("n_bytes", Felt::fromU64(21));
        f.run("ids.n_words_to_copy, ids.n_bytes_left = divmod(ids.n_bytes, ids.BYTES_IN_WORD)");
        QCOMPARE(f.get("n_words_to_copy"), Felt::fromU64(2));
        QCOMPARE(f.get("n_bytes_left"), Felt::fromU64(5));
    }
};

// One SHA-256 block holding `message` (under 56 bytes) with its padding, as 16 big-endian words.
crypto::Sha256Block paddedBlock(const QByteArray& message) {
    QByteArray bytes = message;
    bytes.append(char(0x80));
    bytes.append(QByteArray(56 - bytes.size(), 0));
    const quint64 bits = quint64(message.size()) * 8;
    for (int i = 7; i >= 0; --i) {
        bytes.append(char((bits >> (8 * i)) & 0xff));
    }
    crypto::Sha256Block block{};
    for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 4; ++j) {
            block[std::size_t(i)] = (block[std::size_t(i)] << 8) | quint8(bytes[4 * i + j]);
        }
    }
    return block;
}

QByteArray digestBytes(const crypto::Sha256State& state) {
    QByteArray out;
    for (std::uint32_t word : state) {
        for (int i = 3; i >= 0; --i) {
            out.append(char((word >> (8 * i)) & 0xff));
        }
    }
    return out;
}

class CairoBlake2sHintsTest : public QObject {
    Q_OBJECT
private slots:
    void sha256CompressionMatchesSha256() {
        const auto abc = crypto::sha256Compress(crypto::sha256Iv(),
                                                crypto::sha256MessageSchedule(paddedBlock("abc")));
        QCOMPARE(digestBytes(abc).toHex(),
                 QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        for (int length = 0; length < 56; length += 5) {
            QByteArray message(length, 'x');
            for (int i = 0; i < length; ++i) {
                message[i] = char(i * 37 + length);
            }
            const auto state = crypto::sha256Compress(
                crypto::sha256Iv(), crypto::sha256MessageSchedule(paddedBlock(message)));
            QCOMPARE(digestBytes(state),
                     QCryptographicHash::hash(message, QCryptographicHash::Sha256));
        }
    }

    void sha256HintsCompressAndPad() {
        Fixture f({"sha256_start", "output", "state", "sha256_ptr_end"},
                  {{"SHA256_INPUT_CHUNK_SIZE_FELTS", 16},
                   {"SHA256_STATE_SIZE_FELTS", 8},
                   {"BLOCK_SIZE", 3}});
        const Relocatable input = f.memory.addSegment();
        const crypto::Sha256Block block = paddedBlock("abc");
        for (int i = 0; i < 16; ++i) {
            f.memory.set(input + i, Felt::fromU64(block[std::size_t(i)]));
        }
        const Relocatable output = f.memory.addSegment();
        f.set("sha256_start", input);
        f.set("output", output);
        f.run(R"(from starkware.cairo.common.cairo_sha256.sha256_utils import (
    IV, compute_message_schedule, sha2_compress_function)

_sha256_input_chunk_size_felts = int(ids.SHA256_INPUT_CHUNK_SIZE_FELTS)
assert 0 <= _sha256_input_chunk_size_felts < 100

w = compute_message_schedule(memory.get_range(
    ids.sha256_start, _sha256_input_chunk_size_felts))
new_state = sha2_compress_function(IV, w)
segments.write_arg(ids.output, new_state))");
        QCOMPARE(f.memory.get(output).felt(), Felt::fromU64(0xba7816bf));
        QCOMPARE(f.memory.get(output + 7).felt(), Felt::fromU64(0xf20015ad));

        const Relocatable end = f.memory.addSegment();
        f.set("sha256_ptr_end", end);
        f.run(R"(# Add dummy pairs of input and output.
from starkware.cairo.common.cairo_sha256.sha256_utils import (
    IV, compute_message_schedule, sha2_compress_function)

_block_size = int(ids.BLOCK_SIZE)
assert 0 <= _block_size < 20
_sha256_input_chunk_size_felts = int(ids.SHA256_INPUT_CHUNK_SIZE_FELTS)
assert 0 <= _sha256_input_chunk_size_felts < 100

message = [0] * _sha256_input_chunk_size_felts
w = compute_message_schedule(message)
output = sha2_compress_function(IV, w)
padding = (message + IV + output) * (_block_size - 1)
segments.write_arg(ids.sha256_ptr_end, padding))");
        // Two dummy instances of 16 + 8 + 8 words; each output is the compression of zeros.
        const auto zeros =
            crypto::sha256Compress(crypto::sha256Iv(), crypto::sha256MessageSchedule({}));
        QCOMPARE(f.memory.get(end + 16).felt(), Felt::fromU64(0x6a09e667));
        QCOMPARE(f.memory.get(end + 24).felt(), Felt::fromU64(zeros[0]));
        QCOMPARE(f.memory.get(end + (32 + 31)).felt(), Felt::fromU64(zeros[7]));
        QVERIFY(!f.memory.isSet(end + 64));
    }

    void compressionMatchesBlake2sOfAbc() {
        // BLAKE2s-256("abc") = 508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982.
        std::array<std::uint32_t, 8> h = crypto::blake2sIv();
        h[0] ^= 0x01010020;
        std::array<std::uint32_t, 16> block{};
        block[0] = 0x00636261; // "abc", little-endian
        const auto out = crypto::blake2sCompress(h, block, 3, 0, 0xffffffff, 0);
        QCOMPARE(out[0], std::uint32_t(0x8c5e8c50));
        QCOMPARE(out[7], std::uint32_t(0x82596786));
    }

    void computeHintFillsTheOutputWords() {
        Fixture f({"output"});
        const Relocatable instance = f.memory.addSegment();
        std::array<std::uint32_t, 8> h = crypto::blake2sIv();
        h[0] ^= 0x01010020;
        for (int i = 0; i < 8; ++i) {
            f.memory.set(instance + i, Felt::fromU64(h[static_cast<std::size_t>(i)]));
        }
        for (int i = 0; i < 16; ++i) {
            f.memory.set(instance + (8 + i), Felt::fromU64(i == 0 ? 0x00636261 : 0));
        }
        f.memory.set(instance + 24, Felt::fromU64(3));
        f.memory.set(instance + 25, Felt::fromU64(0xffffffff));
        f.set("output", instance + 26);
        f.run(
            "from starkware.cairo.common.cairo_blake2s.blake2s_utils import compute_blake2s_func\n"
            "compute_blake2s_func(segments=segments, output_ptr=ids.output)");
        QCOMPARE(f.memory.get(instance + 26).felt(), Felt::fromU64(0x8c5e8c50));
        QCOMPARE(f.memory.get(instance + 33).felt(), Felt::fromU64(0x82596786));
    }

    void addUint256AndUnpackFelts() {
        Fixture f({"data", "low", "high", "packed_values", "packed_values_len", "unpacked_u32s"});
        const Relocatable data = f.memory.addSegment();
        f.set("data", data);
        f.set("low", *Felt::parse("0x0102030405060708090a0b0c0d0e0f10"));
        f.set("high", Felt::fromU64(0x11));
        f.run(
            "B = 32\nMASK = 2 ** 32 - 1\nsegments.write_arg(ids.data, [(ids.low >> (B * i)) & MASK "
            "for i in range(4)])\nsegments.write_arg(ids.data + 4, [(ids.high >> (B * i)) & MASK "
            "for i in range(4)])");
        QCOMPARE(f.memory.get(data).felt(), Felt::fromU64(0x0d0e0f10));
        QCOMPARE(f.memory.get(data + 3).felt(), Felt::fromU64(0x01020304));
        QCOMPARE(f.memory.get(data + 4).felt(), Felt::fromU64(0x11));

        const Relocatable packed = f.memory.addSegment();
        f.memory.set(packed, Felt::fromU64(5));                               // < 2^63: two words
        f.memory.set(packed + 1, *Felt::parse("0x8" + std::string(62, '0'))); // 2^251: eight words
        const Relocatable unpacked = f.memory.addSegment();
        f.set("packed_values", packed);
        f.set("packed_values_len", Felt::fromU64(2));
        f.set("unpacked_u32s", unpacked);
        f.run(
            "offset = 0\nfor i in range(ids.packed_values_len):\n    val = "
            "(memory[ids.packed_values "
            "+ i] % PRIME)\n    val_len = 2 if val < 2**63 else 8\n    if val_len == 8:\n        "
            "val "
            "+= 2**255\n    for i in range(val_len - 1, -1, -1):\n        val, "
            "memory[ids.unpacked_u32s + offset + i] = divmod(val, 2**32)\n    assert val == 0\n    "
            "offset += val_len");
        QCOMPARE(f.memory.get(unpacked).felt(), Felt::zero());
        QCOMPARE(f.memory.get(unpacked + 1).felt(), Felt::fromU64(5));
        // The big value is written as 8 big-endian words, with 2^255 added.
        QCOMPARE(f.memory.get(unpacked + 2).felt(), Felt::fromU64(0x88000000)); // 2^255 + 2^251
        QVERIFY(f.memory.isSet(unpacked + 9));
    }
};

int main(int argc, char** argv) {
    return proofdesk::test::execWithNativeThenPythonHints<CairoKeccakHintsTest,
                                                          CairoBlake2sHintsTest>(argc, argv);
}
#include "tst_cairo_hash_hints.moc"
