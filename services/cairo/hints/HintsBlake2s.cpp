// Native hints of starkware.cairo.common.cairo_blake2s (the compression is done by the hint and
// checked by Cairo) and of the felt-packing helpers used around it.

#include "cairo/hints/HintProcessor.h"
#include "cairo/hints/HintWords.h"

#include "crypto/Blake2s.h"

#include <algorithm>

namespace proofdesk::cairo {
namespace {

using Word = std::uint32_t;

Word wordAt(HintContext& ctx, const Relocatable& address) {
    return word32At(ctx, address, "blake2s");
}

template <std::size_t N> std::array<Word, N> wordsAt(HintContext& ctx, const Relocatable& start) {
    return words32At<N>(ctx, start, "blake2s");
}

// Dummy instances that fill the remaining blake2s slots: each is (iv', zero message, [0, ~0],
// compress(iv', 0…)) with iv' the parameter-block IV; V3 puts the message first.
HintFn finalize(std::string chunkConstant, bool messageFirst) {
    return [chunkConstant, messageFirst](HintContext& ctx) {
        const Felt instances = ctx.constant("N_PACKED_INSTANCES");
        const Felt chunk = ctx.constant(chunkConstant);
        if (!instances.fitsU64() || instances.low64() >= 20 || !chunk.fitsU64() ||
            chunk.low64() >= 100) {
            ctx.fail("blake2s finalize: constants out of range");
        }
        std::array<Word, 8> iv = crypto::blake2sIv();
        iv[0] ^= 0x01010020;
        const std::vector<Word> message(chunk.low64(), 0);
        std::array<Word, 16> block{};
        const auto output = crypto::blake2sCompress(iv, block, 0, 0, 0xffffffff, 0);
        std::vector<Word> one;
        if (messageFirst) {
            one.insert(one.end(), message.begin(), message.end());
            one.insert(one.end(), iv.begin(), iv.end());
        } else {
            one.insert(one.end(), iv.begin(), iv.end());
            one.insert(one.end(), message.begin(), message.end());
        }
        one.push_back(0);
        one.push_back(0xffffffff);
        one.insert(one.end(), output.begin(), output.end());
        std::vector<Word> padding;
        for (std::uint64_t i = 1; i < instances.low64(); ++i) {
            padding.insert(padding.end(), one.begin(), one.end());
        }
        writeWords32(ctx, ctx.idsAddress("blake2s_ptr_end"), padding);
    };
}

// The 4 little-endian (or big-endian) 32-bit words of a 128-bit felt.
std::vector<Word> words128(const Felt& value, bool bigEndian) {
    std::vector<Word> out(4);
    for (int i = 0; i < 4; ++i) {
        const std::uint64_t limb = value.limbs()[static_cast<std::size_t>(i / 2)];
        out[static_cast<std::size_t>(i)] = static_cast<Word>((limb >> (32 * (i % 2))) & 0xffffffff);
    }
    if (bigEndian) {
        std::reverse(out.begin(), out.end());
    }
    return out;
}

HintFn addUint256(bool bigEndian) {
    return [bigEndian](HintContext& ctx) {
        const Relocatable data = ctx.idsAddress("data");
        const Felt first = ctx.idsFelt(bigEndian ? "high" : "low");
        const Felt second = ctx.idsFelt(bigEndian ? "low" : "high");
        if (first.bitLength() > 128 || second.bitLength() > 128) {
            ctx.fail("blake2s add_uint256: a half exceeds 128 bits");
        }
        writeWords32(ctx, data, words128(first, bigEndian));
        writeWords32(ctx, data + 4, words128(second, bigEndian));
    };
}

// The last block of a message that fits in one block: compressed from the parameter-block IV with
// the message's byte count and the final flag.
void lastBlock(HintContext& ctx) {
    const Felt chunk = ctx.constant("BLAKE2S_INPUT_CHUNK_SIZE_FELTS");
    if (chunk.low64() != 16 || !chunk.fitsU64()) {
        ctx.fail("blake2s_compress takes 16 message words");
    }
    const auto message = wordsAt<16>(ctx, ctx.idsAddress("blake2s_start"));
    const Felt bytes = ctx.idsFelt("n_bytes");
    if (!bytes.fitsU64() || bytes.low64() > 0xffffffff) {
        ctx.fail("blake2s: n_bytes exceeds 32 bits");
    }
    std::array<Word, 8> iv = crypto::blake2sIv();
    iv[0] ^= 0x01010020;
    const auto state =
        crypto::blake2sCompress(iv, message, static_cast<Word>(bytes.low64()), 0, 0xffffffff, 0);
    writeWords32(ctx, ctx.idsAddress("output"), state);
}

} // namespace

void registerBlake2sHints(HintRegistry& r) {
    r.add("ids.full_word = int(ids.n_bytes >= 4)", [](HintContext& ctx) {
        ctx.setIds("full_word", Felt::fromU64(ctx.idsFelt("n_bytes") < Felt::fromU64(4) ? 0 : 1));
    });
    r.add("from starkware.cairo.common.cairo_blake2s.blake2s_utils import compute_blake2s_func\n"
          "compute_blake2s_func(segments=segments, output_ptr=ids.output)",
          [](HintContext& ctx) {
              const Relocatable output = ctx.idsAddress("output");
              const auto h = wordsAt<8>(ctx, output - 26);
              const auto message = wordsAt<16>(ctx, output - 18);
              const Word t = wordAt(ctx, output - 2);
              const Word f = wordAt(ctx, output - 1);
              const auto state = crypto::blake2sCompress(h, message, t, 0, f, 0);
              writeWords32(ctx, output, state);
          });
    const std::string finalizeHead =
        "# Add dummy pairs of input and output.\nfrom starkware.cairo.common.cairo_blake2s."
        "blake2s_utils import IV, blake2s_compress\n\n_n_packed_instances = "
        "int(ids.N_PACKED_INSTANCES)\nassert 0 <= _n_packed_instances < 20\n"
        "_blake2s_input_chunk_size_felts = int(ids.";
    const std::string finalizeMiddle =
        ")\nassert 0 <= _blake2s_input_chunk_size_felts < 100\n\nmessage = [0] * "
        "_blake2s_input_chunk_size_felts\nmodified_iv = [IV[0] ^ 0x01010020] + IV[1:]\noutput = "
        "blake2s_compress(\n    message=message,\n    h=modified_iv,\n    t0=0,\n    t1=0,\n    "
        "f0=0xffffffff,\n    f1=0,\n)\npadding = (";
    const std::string finalizeTail = " + [0, 0xffffffff] + output) * (_n_packed_instances - 1)\n"
                                     "segments.write_arg(ids.blake2s_ptr_end, padding)";
    r.add(finalizeHead + "INPUT_BLOCK_FELTS" + finalizeMiddle + "modified_iv + message" +
              finalizeTail,
          finalize("INPUT_BLOCK_FELTS", false));
    r.add(finalizeHead + "BLAKE2S_INPUT_CHUNK_SIZE_FELTS" + finalizeMiddle +
              "modified_iv + message" + finalizeTail,
          finalize("BLAKE2S_INPUT_CHUNK_SIZE_FELTS", false));
    r.add(finalizeHead + "BLAKE2S_INPUT_CHUNK_SIZE_FELTS" + finalizeMiddle +
              "message + modified_iv" + finalizeTail,
          finalize("BLAKE2S_INPUT_CHUNK_SIZE_FELTS", true));
    r.add(R"(from starkware.cairo.common.cairo_blake2s.blake2s_utils import IV, blake2s_compress

_blake2s_input_chunk_size_felts = int(ids.BLAKE2S_INPUT_CHUNK_SIZE_FELTS)
assert 0 <= _blake2s_input_chunk_size_felts < 100

new_state = blake2s_compress(
    message=memory.get_range(ids.blake2s_start, _blake2s_input_chunk_size_felts),
    h=[IV[0] ^ 0x01010020] + IV[1:],
    t0=ids.n_bytes,
    t1=0,
    f0=0xffffffff,
    f1=0,
)

segments.write_arg(ids.output, new_state))",
          lastBlock);
    r.add("B = 32\nMASK = 2 ** 32 - 1\nsegments.write_arg(ids.data, [(ids.low >> (B * i)) & MASK "
          "for i in range(4)])\nsegments.write_arg(ids.data + 4, [(ids.high >> (B * i)) & MASK for "
          "i in range(4)])",
          addUint256(false));
    r.add("B = 32\nMASK = 2 ** 32 - 1\nsegments.write_arg(ids.data, [(ids.high >> (B * (3 - i))) & "
          "MASK for i in range(4)])\nsegments.write_arg(ids.data + 4, [(ids.low >> (B * (3 - i))) "
          "& MASK for i in range(4)])",
          addUint256(true));
    r.add("memory[ap] = (ids.end != ids.packed_values) and (memory[ids.packed_values] < 2**63)",
          [](HintContext& ctx) {
              const Relocatable end = ctx.idsAddress("end");
              const Relocatable packed = ctx.idsAddress("packed_values");
              const bool result =
                  !(end == packed) && ctx.memory().get(packed).felt().bitLength() <= 63;
              ctx.memory().set(ctx.vm().ap, Felt::fromU64(result ? 1 : 0));
          });
    r.add("offset = 0\nfor i in range(ids.packed_values_len):\n    val = (memory[ids.packed_values "
          "+ i] % PRIME)\n    val_len = 2 if val < 2**63 else 8\n    if val_len == 8:\n        val "
          "+= 2**255\n    for i in range(val_len - 1, -1, -1):\n        val, "
          "memory[ids.unpacked_u32s + offset + i] = divmod(val, 2**32)\n    assert val == 0\n    "
          "offset += val_len",
          [](HintContext& ctx) {
              const Relocatable packed = ctx.idsAddress("packed_values");
              const Relocatable unpacked = ctx.idsAddress("unpacked_u32s");
              const Felt count = ctx.idsFelt("packed_values_len");
              if (!count.fitsU64() || count.low64() > (1ULL << 24)) {
                  ctx.fail("packed_values_len is out of range");
              }
              std::int64_t offset = 0;
              for (std::uint64_t i = 0; i < count.low64(); ++i) {
                  Felt::Limbs value =
                      ctx.memory().get(packed + static_cast<std::int64_t>(i)).felt().limbs();
                  const bool small = crypto::u256::bitLength(value) <= 63;
                  const int length = small ? 2 : 8;
                  if (!small) {
                      value[3] |= 1ULL << 63; // + 2^255 (a felt is below 2^252)
                  }
                  for (int w = length - 1; w >= 0; --w) {
                      const Word word = static_cast<Word>(value[0] & 0xffffffff);
                      ctx.memory().set(unpacked + (offset + w), Felt::fromU64(word));
                      for (int l = 0; l < 4; ++l) { // value >>= 32
                          value[static_cast<std::size_t>(l)] =
                              (value[static_cast<std::size_t>(l)] >> 32) |
                              (l < 3 ? value[static_cast<std::size_t>(l + 1)] << 32 : 0);
                      }
                  }
                  offset += length;
              }
          });
}

} // namespace proofdesk::cairo
