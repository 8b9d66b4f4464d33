// Native hints of starkware.cairo.common.cairo_keccak (keccak over 64-bit lanes with the
// Keccak-f[1600] permutation done by the hint and checked in Cairo), and small EC helpers.

#include "cairo/hints/HintProcessor.h"
#include "crypto/BigInt.h"

#include "crypto/KeccakF.h"
#include "crypto/StarkCurve.h"

namespace proofdesk::cairo {
namespace {

std::uint64_t smallConstant(HintContext& ctx, const std::string& name, std::uint64_t below) {
    const Felt value = ctx.constant(name);
    if (!value.fitsU64() || value.low64() >= below) {
        ctx.fail(name + " is out of range");
    }
    return value.low64();
}

// keccak_func: 25 felts holding 64-bit lanes -> the permuted lanes.
std::vector<Felt> keccakFunc(HintContext& ctx, const std::vector<Felt>& lanes) {
    if (lanes.size() != 25) {
        ctx.fail("keccak_func needs 25 lanes");
    }
    std::array<std::uint64_t, 25> state{};
    for (std::size_t i = 0; i < 25; ++i) {
        if (!lanes[i].fitsU64()) {
            ctx.fail("keccak lane " + lanes[i].toHex() + " exceeds 64 bits");
        }
        state[i] = lanes[i].low64();
    }
    crypto::keccakF1600(state);
    std::vector<Felt> out;
    for (std::uint64_t lane : state) {
        out.push_back(Felt::fromU64(lane));
    }
    return out;
}

std::vector<Felt> readRange(HintContext& ctx, const Relocatable& start, std::uint64_t count) {
    std::vector<Felt> out;
    for (std::uint64_t i = 0; i < count; ++i) {
        out.push_back(ctx.memory().get(start + static_cast<std::int64_t>(i)).felt());
    }
    return out;
}

void blockPermutation(HintContext& ctx, const Relocatable& input, const Relocatable& output) {
    const std::uint64_t size = smallConstant(ctx, "KECCAK_STATE_SIZE_FELTS", 100);
    ctx.writeArg(output, keccakFunc(ctx, readRange(ctx, input, size)));
}

void finalize(HintContext& ctx, std::uint64_t maxBlockSize) {
    const std::uint64_t size = smallConstant(ctx, "KECCAK_STATE_SIZE_FELTS", 100);
    const std::uint64_t blocks = smallConstant(ctx, "BLOCK_SIZE", maxBlockSize);
    const std::vector<Felt> zeros(size, Felt::zero());
    const std::vector<Felt> permuted = keccakFunc(ctx, zeros);
    std::vector<Felt> padding;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        padding.insert(padding.end(), zeros.begin(), zeros.end());
        padding.insert(padding.end(), permuted.begin(), permuted.end());
    }
    ctx.writeArg(ctx.idsAddress("keccak_ptr_end"), padding);
}

HintFn splitInput(int index, int bytes) {
    return [index, bytes](HintContext& ctx) {
        const Felt word = ctx.memory().get(ctx.idsAddress("inputs") + index).felt();
        const auto [high, low] = crypto::divmod(word, Felt::powerOfTwo(8 * bytes));
        ctx.setIds("high" + std::to_string(index), high);
        ctx.setIds("low" + std::to_string(index), low);
    };
}

HintFn splitOutput(int index) {
    return [index](HintContext& ctx) {
        const std::string name = "output" + std::to_string(index);
        const auto [high, low] = crypto::divmod(ctx.idsFelt(name), Felt::powerOfTwo(128));
        ctx.setIds(name + "_low", low);
        ctx.setIds(name + "_high", high);
    };
}

HintFn nAtLeast(std::uint64_t bound) {
    return [bound](HintContext& ctx) {
        ctx.memory().set(ctx.vm().ap,
                         Felt::fromU64(ctx.idsFelt("n") < Felt::fromU64(bound) ? 0 : 1));
    };
}

HintFn elementsLeftAtLeast(std::uint64_t bound) {
    // As Python reads it: pointers in one segment subtract to their distance, felts to the
    // difference of their integers (which may be negative).
    return [bound](HintContext& ctx) {
        const Value end = ctx.ids("elements_end");
        const Value elements = ctx.ids("elements");
        bool atLeast = false;
        if (end.isAddress() && elements.isAddress()) {
            if (end.address().segment != elements.address().segment) {
                ctx.fail("elements_end and elements are in different segments");
            }
            atLeast = end.address().offset >= elements.address().offset &&
                      end.address().offset - elements.address().offset >= bound;
        } else if (end.isFelt() && elements.isFelt()) {
            atLeast = crypto::BigInt::fromFelt(end.felt()) >=
                      crypto::BigInt::fromFelt(elements.felt()) +
                          crypto::BigInt(static_cast<std::int64_t>(bound));
        } else {
            ctx.fail("elements_end and elements are not both pointers or both felts");
        }
        ctx.memory().set(ctx.vm().ap, Felt::fromU64(atLeast ? 1 : 0));
    };
}

} // namespace

void registerKeccakHints(HintRegistry& r) {
    r.add("segments.write_arg(ids.inputs, [ids.low % 2 ** 64, ids.low // 2 ** 64])\n"
          "segments.write_arg(ids.inputs + 2, [ids.high % 2 ** 64, ids.high // 2 ** 64])",
          [](HintContext& ctx) {
              const auto [lowHigh, lowLow] =
                  crypto::divmod(ctx.idsFelt("low"), Felt::powerOfTwo(64));
              const auto [highHigh, highLow] =
                  crypto::divmod(ctx.idsFelt("high"), Felt::powerOfTwo(64));
              ctx.writeArg(ctx.idsAddress("inputs"), {lowLow, lowHigh, highLow, highHigh});
          });
    r.add("memory[ap] = to_felt_or_relocatable(ids.n_bytes < ids.BYTES_IN_WORD)",
          [](HintContext& ctx) {
              ctx.memory().set(ctx.vm().ap, Felt::fromU64(ctx.idsFelt("n_bytes") <
                                                          ctx.constant("BYTES_IN_WORD")));
          });
    r.add("memory[ap] = to_felt_or_relocatable(ids.n_bytes >= ids.KECCAK_FULL_RATE_IN_BYTES)",
          [](HintContext& ctx) {
              ctx.memory().set(ctx.vm().ap,
                               Felt::fromU64(!(ctx.idsFelt("n_bytes") <
                                               ctx.constant("KECCAK_FULL_RATE_IN_BYTES"))));
          });
    const auto permuteBeforePointer = [](HintContext& ctx) {
        const std::uint64_t size = smallConstant(ctx, "KECCAK_STATE_SIZE_FELTS", 100);
        const Relocatable pointer = ctx.idsAddress("keccak_ptr");
        blockPermutation(ctx, pointer - static_cast<std::int64_t>(size), pointer);
    };
    for (const char* module : {"keccak_utils.keccak_utils", "cairo_keccak.keccak_utils"}) {
        r.add(std::string("from starkware.cairo.common.") + module +
                  " import keccak_func\n_keccak_state_size_felts = "
                  "int(ids.KECCAK_STATE_SIZE_FELTS)\nassert 0 <= _keccak_state_size_felts < 100\n\n"
                  "output_values = keccak_func(memory.get_range(\n    ids.keccak_ptr - "
                  "_keccak_state_size_felts, _keccak_state_size_felts))\n"
                  "segments.write_arg(ids.keccak_ptr, output_values)",
              permuteBeforePointer);
    }
    r.add("from starkware.cairo.common.cairo_keccak.keccak_utils import keccak_func\n"
          "_keccak_state_size_felts = int(ids.KECCAK_STATE_SIZE_FELTS)\nassert 0 <= "
          "_keccak_state_size_felts < 100\noutput_values = keccak_func(memory.get_range(\n    "
          "ids.keccak_ptr_start, _keccak_state_size_felts))\nsegments.write_arg(ids.output, "
          "output_values)",
          [](HintContext& ctx) {
              blockPermutation(ctx, ctx.idsAddress("keccak_ptr_start"), ctx.idsAddress("output"));
          });
    r.add("ids.full_word = int(ids.n_bytes >= 8)", [](HintContext& ctx) {
        ctx.setIds("full_word", Felt::fromU64(ctx.idsFelt("n_bytes") < Felt::fromU64(8) ? 0 : 1));
    });
    for (const auto& [limit, maxBlocks] : {std::pair{"10", 10}, std::pair{"1000", 1000}}) {
        r.add(
            std::string("# Add dummy pairs of input and output.\n_keccak_state_size_felts = "
                        "int(ids.KECCAK_STATE_SIZE_FELTS)\n_block_size = int(ids.BLOCK_SIZE)\n"
                        "assert 0 <= _keccak_state_size_felts < 100\nassert 0 <= _block_size < ") +
                limit +
                "\ninp = [0] * _keccak_state_size_felts\npadding = (inp + keccak_func(inp)) * "
                "_block_size\nsegments.write_arg(ids.keccak_ptr_end, padding)",
            [blocks = static_cast<std::uint64_t>(maxBlocks)](HintContext& ctx) {
                finalize(ctx, blocks);
            });
    }
    r.add("ids.output0_low = ids.output0 & ((1 << 128) - 1)\nids.output0_high = ids.output0 >> 128",
          splitOutput(0));
    r.add("ids.output1_low = ids.output1 & ((1 << 128) - 1)\nids.output1_high = ids.output1 >> 128",
          splitOutput(1));
    r.add("ids.high3, ids.low3 = divmod(memory[ids.inputs + 3], 256)", splitInput(3, 1));
    r.add("ids.high6, ids.low6 = divmod(memory[ids.inputs + 6], 256 ** 2)", splitInput(6, 2));
    r.add("ids.high9, ids.low9 = divmod(memory[ids.inputs + 9], 256 ** 3)", splitInput(9, 3));
    r.add("ids.high12, ids.low12 = divmod(memory[ids.inputs + 12], 256 ** 4)", splitInput(12, 4));
    r.add("ids.high15, ids.low15 = divmod(memory[ids.inputs + 15], 256 ** 5)", splitInput(15, 5));
    r.add("ids.n_words_to_copy, ids.n_bytes_left = divmod(ids.n_bytes, ids.BYTES_IN_WORD)",
          [](HintContext& ctx) {
              const Felt word = ctx.constant("BYTES_IN_WORD");
              if (word.isZero()) {
                  ctx.fail("BYTES_IN_WORD is zero");
              }
              const auto [words, left] = crypto::divmod(ctx.idsFelt("n_bytes"), word);
              ctx.setIds("n_words_to_copy", words);
              ctx.setIds("n_bytes_left", left);
          });
    r.add("tmp, ids.output1_low = divmod(ids.output1, 256 ** 7)\n"
          "ids.output1_high, ids.output1_mid = divmod(tmp, 2 ** 128)",
          [](HintContext& ctx) {
              const auto [tmp, low] = crypto::divmod(ctx.idsFelt("output1"), Felt::powerOfTwo(56));
              const auto [high, mid] = crypto::divmod(tmp, Felt::powerOfTwo(128));
              ctx.setIds("output1_low", low);
              ctx.setIds("output1_high", high);
              ctx.setIds("output1_mid", mid);
          });
    r.add("memory[ap] = to_felt_or_relocatable(ids.n >= 10)", nAtLeast(10));
    r.add("memory[ap] = to_felt_or_relocatable(ids.n >= 2)", nAtLeast(2));
    // poseidon_hash_many before cairo-lang 0.13: the same test on the elements left.
    r.add("memory[ap] = to_felt_or_relocatable(ids.elements_end - ids.elements >= 10)",
          elementsLeftAtLeast(10));
    r.add("memory[ap] = to_felt_or_relocatable(ids.elements_end - ids.elements >= 2)",
          elementsLeftAtLeast(2));
    r.add("memory[ap] = (ids.scalar % PRIME) % 2", [](HintContext& ctx) {
        ctx.memory().set(ctx.vm().ap, Felt::fromU64(ctx.idsFelt("scalar").low64() & 1));
    });
    r.add("from starkware.crypto.signature.signature import ALPHA, BETA, FIELD_PRIME\n"
          "from starkware.python.math_utils import recover_y\nids.p.x = ids.x\n"
          "# This raises an exception if `x` is not on the curve.\n"
          "ids.p.y = recover_y(ids.x, ALPHA, BETA, FIELD_PRIME)",
          [](HintContext& ctx) {
              const Felt x = ctx.idsFelt("x");
              const auto y = crypto::stark::recoverY(x);
              if (!y) {
                  ctx.fail(x.toDecimal() +
                           " does not represent the x coordinate of a point on the curve.");
              }
              ctx.setIds("p.x", x);
              ctx.setIds("p.y", *y);
          });
}

} // namespace proofdesk::cairo
