// The cairo_keccak hints (lanes permuted by the hint, checked by Cairo) and EC helpers.

#include "HintFixture.h"

using namespace proofdesk::cairo;
using proofdesk::test::Fixture;

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
        f.run("# Add dummy pairs of input and output.\n_keccak_state_size_felts = "
              "int(ids.KECCAK_STATE_SIZE_FELTS)\n_block_size = int(ids.BLOCK_SIZE)\nassert 0 <= "
              "_keccak_state_size_felts < 100\nassert 0 <= _block_size < 10\ninp = [0] * "
              "_keccak_state_size_felts\npadding = (inp + keccak_func(inp)) * _block_size\n"
              "segments.write_arg(ids.keccak_ptr_end, padding)");
        QCOMPARE(f.memory.segmentUsedSize(end.segment), std::uint64_t(150)); // 3 × (25 + 25)
        QCOMPARE(f.memory.get(end + 25).felt(), kFirstLaneOfZeroPermutation);
        QCOMPARE(f.memory.get(end + 125).felt(), kFirstLaneOfZeroPermutation);
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

QTEST_GUILESS_MAIN(CairoKeccakHintsTest)
#include "tst_cairo_keccak_hints.moc"
