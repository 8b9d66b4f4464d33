// Native hints: segments, scopes, memcpy / memset loops, temporary segments, unsafe_keccak.

#include "cairo/hints/HintProcessor.h"

#include "crypto/Keccak.h"

#include <QByteArray>

namespace proofdesk::cairo {
namespace {

// n -= 1; ids.<flag> = 1 if n > 0 else 0
HintFn countDown(std::string flag) {
    return [flag](HintContext& ctx) {
        const Felt n = ctx.scopeVar<Felt>("n") - Felt::one();
        ctx.scopes().set("n", n);
        ctx.setIds(flag, Felt::fromU64(n.isZero() ? 0 : 1));
    };
}

HintFn enterScopeWith(std::string ids) {
    return [ids](HintContext& ctx) { ctx.scopes().enter({{"n", ctx.idsFelt(ids)}}); };
}

} // namespace

void registerBasicHints(HintRegistry& r) {
    r.add("memory[ap] = segments.add()",
          [](HintContext& ctx) { ctx.memory().set(ctx.vm().ap, ctx.memory().addSegment()); });
    r.add("vm_enter_scope()", [](HintContext& ctx) { ctx.scopes().enter(); });
    r.add("vm_exit_scope()", [](HintContext& ctx) { ctx.scopes().exit(); });
    r.add("vm_enter_scope({'n': ids.len})", enterScopeWith("len"));
    r.add("vm_enter_scope({'n': ids.n})", enterScopeWith("n"));
    r.add("n -= 1\nids.continue_copying = 1 if n > 0 else 0", countDown("continue_copying"));
    r.add("n -= 1\nids.continue_loop = 1 if n > 0 else 0", countDown("continue_loop"));
    r.add("ids.temporary_array = segments.add_temp_segment()",
          [](HintContext& ctx) { ctx.setIds("temporary_array", ctx.memory().addTempSegment()); });
    r.add("memory.add_relocation_rule(src_ptr=ids.src_ptr, dest_ptr=ids.dest_ptr)",
          [](HintContext& ctx) {
              ctx.memory().addRelocationRule(ctx.idsAddress("src_ptr"), ctx.idsAddress("dest_ptr"));
          });
    r.add("ecdsa_builtin.add_signature(ids.ecdsa_ptr.address_, (ids.signature_r, ids.signature_s))",
          [](HintContext& ctx) {
              BuiltinRunner* ecdsa = ctx.builtin("ecdsa");
              if (!ecdsa) {
                  ctx.fail("the program has no ecdsa builtin");
              }
              ecdsa->addSignature(ctx.idsAddress("ecdsa_ptr"), ctx.idsFelt("signature_r"),
                                  ctx.idsFelt("signature_s"));
          });
    r.add("memory[ap] = to_felt_or_relocatable(0)",
          [](HintContext& ctx) { ctx.memory().set(ctx.vm().ap, Felt::zero()); });

    r.add(
        R"(from eth_hash.auto import keccak

data, length = ids.data, ids.length

if '__keccak_max_size' in globals():
    assert length <= __keccak_max_size, \
        f'unsafe_keccak() can only be used with length<={__keccak_max_size}. ' \
        f'Got: length={length}.'

keccak_input = bytearray()
for word_i, byte_i in enumerate(range(0, length, 16)):
    word = memory[data + word_i]
    n_bytes = min(16, length - byte_i)
    assert 0 <= word < 2 ** (8 * n_bytes)
    keccak_input += word.to_bytes(n_bytes, 'big')

hashed = keccak(keccak_input)
ids.high = int.from_bytes(hashed[:16], 'big')
ids.low = int.from_bytes(hashed[16:32], 'big'))",
        [](HintContext& ctx) {
            const Relocatable data = ctx.idsAddress("data");
            const Felt lengthFelt = ctx.idsFelt("length");
            if (!lengthFelt.fitsU64() || lengthFelt.low64() > (1ULL << 30)) {
                ctx.fail("unsafe_keccak: length out of range");
            }
            const std::uint64_t length = lengthFelt.low64();
            QByteArray input;
            for (std::uint64_t byte = 0, word = 0; byte < length; byte += 16, ++word) {
                const Felt value = ctx.memory().get(data + static_cast<std::int64_t>(word)).felt();
                const std::uint64_t n = std::min<std::uint64_t>(16, length - byte);
                if (value.bitLength() > static_cast<int>(8 * n)) {
                    ctx.fail("unsafe_keccak: word " + value.toHex() + " exceeds " +
                             std::to_string(n) + " bytes");
                }
                std::uint8_t be[32];
                value.toBytesBE(be);
                input.append(reinterpret_cast<const char*>(be + 32 - n), static_cast<qsizetype>(n));
            }
            const QByteArray hash = crypto::keccak256(input);
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(hash.constData());
            ctx.setIds("high", Felt::fromBytesBE(bytes, 16));
            ctx.setIds("low", Felt::fromBytesBE(bytes + 16, 16));
        });
    // unsafe_keccak_finalize (cairo-lang's common/keccak.cairo before 0.10): keccak of the words
    // from start_ptr to end_ptr, each 16 bytes big-endian.
    r.add(R"(from eth_hash.auto import keccak
keccak_input = bytearray()
n_elms = ids.keccak_state.end_ptr - ids.keccak_state.start_ptr
for word in memory.get_range(ids.keccak_state.start_ptr, n_elms):
    keccak_input += word.to_bytes(16, 'big')
hashed = keccak(keccak_input)
ids.high = int.from_bytes(hashed[:16], 'big')
ids.low = int.from_bytes(hashed[16:32], 'big'))",
          [](HintContext& ctx) {
              const Relocatable start = ctx.idsAddress("keccak_state.start_ptr");
              const Relocatable end = ctx.idsAddress("keccak_state.end_ptr");
              if (end.segment != start.segment || end.offset < start.offset ||
                  end.offset - start.offset > (1ULL << 26)) {
                  ctx.fail("unsafe_keccak_finalize: end_ptr is not after start_ptr");
              }
              QByteArray input;
              for (Relocatable at = start; at.offset < end.offset; at = at + 1) {
                  const Felt word = ctx.memory().get(at).felt();
                  if (word.bitLength() > 128) {
                      ctx.fail("unsafe_keccak_finalize: word " + word.toHex() +
                               " does not fit in 16 bytes");
                  }
                  std::uint8_t be[32];
                  word.toBytesBE(be);
                  input.append(reinterpret_cast<const char*>(be + 16), 16);
              }
              const QByteArray hash = crypto::keccak256(input);
              const auto* bytes = reinterpret_cast<const std::uint8_t*>(hash.constData());
              ctx.setIds("high", Felt::fromBytesBE(bytes, 16));
              ctx.setIds("low", Felt::fromBytesBE(bytes + 16, 16));
          });
}

} // namespace proofdesk::cairo
