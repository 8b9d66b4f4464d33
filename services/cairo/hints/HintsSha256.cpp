// Native hints of starkware.cairo.common.cairo_sha256 (cairo-lang 0.10-0.13 texts): the hint
// computes each SHA-256 compression, the Cairo code checks it later in a batch.

#include "cairo/hints/HintProcessor.h"
#include "cairo/hints/HintWords.h"

#include "crypto/Sha256.h"

namespace proofdesk::cairo {
namespace {

// An int(ids.<name>) constant asserted to lie in [0, bound).
std::uint64_t boundedConstant(HintContext& ctx, const std::string& name, std::uint64_t bound) {
    const Felt value = ctx.constant(name);
    if (!value.fitsU64() || value.low64() >= bound) {
        ctx.fail(name + " = " + value.toDecimal() + " is out of range");
    }
    return value.low64();
}

crypto::Sha256Block messageAt(HintContext& ctx) {
    if (boundedConstant(ctx, "SHA256_INPUT_CHUNK_SIZE_FELTS", 100) != 16) {
        ctx.fail("compute_message_schedule takes 16 words (SHA256_INPUT_CHUNK_SIZE_FELTS)");
    }
    return words32At<16>(ctx, ctx.idsAddress("sha256_start"), "sha256");
}

} // namespace

void registerSha256Hints(HintRegistry& r) {
    r.add(R"(from starkware.cairo.common.cairo_sha256.sha256_utils import (
    IV, compute_message_schedule, sha2_compress_function)

_sha256_input_chunk_size_felts = int(ids.SHA256_INPUT_CHUNK_SIZE_FELTS)
assert 0 <= _sha256_input_chunk_size_felts < 100

w = compute_message_schedule(memory.get_range(
    ids.sha256_start, _sha256_input_chunk_size_felts))
new_state = sha2_compress_function(IV, w)
segments.write_arg(ids.output, new_state))",
          [](HintContext& ctx) {
              const auto w = crypto::sha256MessageSchedule(messageAt(ctx));
              writeWords32(ctx, ctx.idsAddress("output"),
                           crypto::sha256Compress(crypto::sha256Iv(), w));
          });

    r.add(R"(from starkware.cairo.common.cairo_sha256.sha256_utils import (
    compute_message_schedule, sha2_compress_function)

_sha256_input_chunk_size_felts = int(ids.SHA256_INPUT_CHUNK_SIZE_FELTS)
assert 0 <= _sha256_input_chunk_size_felts < 100
_sha256_state_size_felts = int(ids.SHA256_STATE_SIZE_FELTS)
assert 0 <= _sha256_state_size_felts < 100
w = compute_message_schedule(memory.get_range(
    ids.sha256_start, _sha256_input_chunk_size_felts))
new_state = sha2_compress_function(memory.get_range(ids.state, _sha256_state_size_felts), w)
segments.write_arg(ids.output, new_state))",
          [](HintContext& ctx) {
              const auto w = crypto::sha256MessageSchedule(messageAt(ctx));
              if (boundedConstant(ctx, "SHA256_STATE_SIZE_FELTS", 100) != 8) {
                  ctx.fail("sha2_compress_function takes an 8-word state "
                           "(SHA256_STATE_SIZE_FELTS)");
              }
              const auto state = words32At<8>(ctx, ctx.idsAddress("state"), "sha256");
              writeWords32(ctx, ctx.idsAddress("output"), crypto::sha256Compress(state, w));
          });

    r.add(R"(# Add dummy pairs of input and output.
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
segments.write_arg(ids.sha256_ptr_end, padding))",
          [](HintContext& ctx) {
              const std::uint64_t blockSize = boundedConstant(ctx, "BLOCK_SIZE", 20);
              if (boundedConstant(ctx, "SHA256_INPUT_CHUNK_SIZE_FELTS", 100) != 16) {
                  ctx.fail("compute_message_schedule takes 16 words "
                           "(SHA256_INPUT_CHUNK_SIZE_FELTS)");
              }
              const crypto::Sha256Block message{};
              const auto output = crypto::sha256Compress(crypto::sha256Iv(),
                                                         crypto::sha256MessageSchedule(message));
              std::vector<std::uint32_t> one(message.begin(), message.end());
              one.insert(one.end(), crypto::sha256Iv().begin(), crypto::sha256Iv().end());
              one.insert(one.end(), output.begin(), output.end());
              std::vector<std::uint32_t> padding;
              for (std::uint64_t i = 1; i < blockSize; ++i) {
                  padding.insert(padding.end(), one.begin(), one.end());
              }
              writeWords32(ctx, ctx.idsAddress("sha256_ptr_end"), padding);
          });
}

} // namespace proofdesk::cairo
