// Native hints of starkware.cairo.common.math / pow / find_element (cairo-lang 0.13 texts).

#include "cairo/hints/HintProcessor.h"

#include <algorithm>

namespace proofdesk::cairo {
namespace {

using Limbs = Felt::Limbs;

Felt pMinusOne() {
    return -Felt::one();
}

// math.cairo: assert_nn's bound, split_felt, pow's bits, unsigned_div_rem, and the search over a
// sorted array.
void registerMathBasicHints(HintRegistry& r) {
    r.add(R"(from starkware.cairo.common.math_utils import assert_integer
assert_integer(ids.a)
assert 0 <= ids.a % PRIME < range_check_builtin.bound, f'a = {ids.a} is out of range.')",
          [](HintContext& ctx) {
              const Felt a = ctx.idsFelt("a");
              if (!(a < Felt::powerOfTwo(128))) {
                  ctx.fail("a = " + a.toDecimal() + " is out of range.");
              }
          });

    r.add(R"(from starkware.cairo.common.math_utils import assert_integer
assert ids.MAX_HIGH < 2**128 and ids.MAX_LOW < 2**128
assert PRIME - 1 == ids.MAX_HIGH * 2**128 + ids.MAX_LOW
assert_integer(ids.value)
ids.low = ids.value & ((1 << 128) - 1)
ids.high = ids.value >> 128)",
          [](HintContext& ctx) {
              const Felt maxHigh = ctx.constant("MAX_HIGH");
              const Felt maxLow = ctx.constant("MAX_LOW");
              if (!(maxHigh < Felt::powerOfTwo(128)) || !(maxLow < Felt::powerOfTwo(128)) ||
                  maxHigh * Felt::powerOfTwo(128) + maxLow != pMinusOne()) {
                  ctx.fail("split_felt: MAX_HIGH and MAX_LOW do not split PRIME - 1");
              }
              const auto [high, low] = crypto::divmod(ctx.idsFelt("value"), Felt::powerOfTwo(128));
              ctx.setIds("low", low);
              ctx.setIds("high", high);
          });

    r.add("ids.locs.bit = (ids.prev_locs.exp % PRIME) & 1", [](HintContext& ctx) {
        ctx.setIds("locs.bit", Felt::fromU64(ctx.idsFelt("prev_locs.exp").low64() & 1));
    });

    r.add(R"(from starkware.cairo.common.math_utils import assert_integer
assert_integer(ids.div)
assert 0 < ids.div <= PRIME // range_check_builtin.bound, \
    f'div={hex(ids.div)} is out of the valid range.'
ids.q, ids.r = divmod(ids.value, ids.div))",
          [](HintContext& ctx) {
              const Felt div = ctx.idsFelt("div");
              const Felt maxDiv =
                  crypto::divmod(-Felt::one(), Felt::powerOfTwo(128)).first; // PRIME // 2^128
              if (div.isZero() || maxDiv < div) {
                  ctx.fail("div=" + div.toHex() + " is out of the valid range.");
              }
              const auto [q, rem] = crypto::divmod(ctx.idsFelt("value"), div);
              ctx.setIds("q", q);
              ctx.setIds("r", rem);
          });

    r.add(R"(array_ptr = ids.array_ptr
elm_size = ids.elm_size
assert isinstance(elm_size, int) and elm_size > 0, \
    f'Invalid value for elm_size. Got: {elm_size}.'
key = ids.key

if '__find_element_index' in globals():
    ids.index = __find_element_index
    found_key = memory[array_ptr + elm_size * __find_element_index]
    assert found_key == key, \
        f'Invalid index found in __find_element_index. index: {__find_element_index}, ' \
        f'expected key {key}, found key: {found_key}.'
    # Delete __find_element_index to make sure it's not used for the next calls.
    del __find_element_index
else:
    n_elms = ids.n_elms
    assert isinstance(n_elms, int) and n_elms >= 0, \
        f'Invalid value for n_elms. Got: {n_elms}.'
    if '__find_element_max_size' in globals():
        assert n_elms <= __find_element_max_size, \
            f'find_element() can only be used with n_elms<={__find_element_max_size}. ' \
            f'Got: n_elms={n_elms}.'

    for i in range(n_elms):
        if memory[array_ptr + elm_size * i] == key:
            ids.index = i
            break
    else:
        raise ValueError(f'Key {key} was not found.'))",
          [](HintContext& ctx) {
              const Relocatable array = ctx.idsAddress("array_ptr");
              const Felt elmSize = ctx.idsFelt("elm_size");
              if (elmSize.isZero() || !elmSize.fitsU64() || elmSize.low64() > (1ULL << 32)) {
                  ctx.fail("Invalid value for elm_size. Got: " + elmSize.toDecimal() + ".");
              }
              const Value key = ctx.ids("key");
              const Felt nElms = ctx.idsFelt("n_elms");
              if (!nElms.fitsU64() || nElms.low64() > (1ULL << 32)) {
                  ctx.fail("Invalid value for n_elms. Got: " + nElms.toDecimal() + ".");
              }
              for (std::uint64_t i = 0; i < nElms.low64(); ++i) {
                  const auto offset = static_cast<std::int64_t>(elmSize.low64() * i);
                  if (ctx.memory().get(array + offset) == key) {
                      ctx.setIds("index", Felt::fromU64(i));
                      return;
                  }
              }
              ctx.fail("Key " + key.toString() + " was not found.");
          });
}

// assert_le_felt (cairo-lang 0.10+): the two smallest arcs of [0, a, b, p-1], and which one is
// excluded.
void registerAssertLeFeltHints(HintRegistry& r) {
    // assert_le_felt (cairo-lang 0.10+): split the two smallest arcs of [0, a, b, p-1].
    r.add(R"(import itertools

from starkware.cairo.common.math_utils import assert_integer
assert_integer(ids.a)
assert_integer(ids.b)
a = ids.a % PRIME
b = ids.b % PRIME
assert a <= b, f'a = {a} is not less than or equal to b = {b}.'

# Find an arc less than PRIME / 3, and another less than PRIME / 2.
lengths_and_indices = [(a, 0), (b - a, 1), (PRIME - 1 - b, 2)]
lengths_and_indices.sort()
assert lengths_and_indices[0][0] <= PRIME // 3 and lengths_and_indices[1][0] <= PRIME // 2
excluded = lengths_and_indices[2][1]

memory[ids.range_check_ptr + 1], memory[ids.range_check_ptr + 0] = (
    divmod(lengths_and_indices[0][0], ids.PRIME_OVER_3_HIGH))
memory[ids.range_check_ptr + 3], memory[ids.range_check_ptr + 2] = (
    divmod(lengths_and_indices[1][0], ids.PRIME_OVER_2_HIGH)))",
          [](HintContext& ctx) {
              const Felt a = ctx.idsFelt("a");
              const Felt b = ctx.idsFelt("b");
              if (b < a) {
                  ctx.fail("a = " + a.toDecimal() +
                           " is not less than or equal to b = " + b.toDecimal() + ".");
              }
              std::vector<std::pair<Felt, int>> arcs = {{a, 0}, {b - a, 1}, {-Felt::one() - b, 2}};
              std::sort(arcs.begin(), arcs.end(), [](const auto& x, const auto& y) {
                  return x.first < y.first || (x.first == y.first && x.second < y.second);
              });
              const Felt pOver3 = crypto::divmod(-Felt::one(), Felt::fromU64(3)).first;
              const Felt pOver2 = crypto::divmod(-Felt::one(), Felt::fromU64(2)).first;
              if (pOver3 < arcs[0].first || pOver2 < arcs[1].first) {
                  ctx.fail("assert_le_felt: arcs too long");
              }
              ctx.scopes().set("excluded", Felt::fromI64(arcs[2].second));
              const Relocatable rc = ctx.idsAddress("range_check_ptr");
              const auto [q0, r0] =
                  crypto::divmod(arcs[0].first, ctx.constant("PRIME_OVER_3_HIGH"));
              const auto [q1, r1] =
                  crypto::divmod(arcs[1].first, ctx.constant("PRIME_OVER_2_HIGH"));
              ctx.memory().set(rc + 1, q0);
              ctx.memory().set(rc + 0, r0);
              ctx.memory().set(rc + 3, q1);
              ctx.memory().set(rc + 2, r1);
          });
    auto excludedIs = [](HintContext& ctx, std::int64_t which) {
        std::any* excluded = ctx.scopes().find("excluded");
        if (!excluded || excluded->type() != typeid(Felt)) {
            ctx.fail("scope variable excluded is not set");
        }
        return std::any_cast<Felt>(*excluded) == Felt::fromI64(which);
    };
    r.add("memory[ap] = 1 if excluded != 0 else 0", [excludedIs](HintContext& ctx) {
        ctx.memory().set(ctx.vm().ap, Felt::fromU64(excludedIs(ctx, 0) ? 0 : 1));
    });
    r.add("memory[ap] = 1 if excluded != 1 else 0", [excludedIs](HintContext& ctx) {
        ctx.memory().set(ctx.vm().ap, Felt::fromU64(excludedIs(ctx, 1) ? 0 : 1));
    });
    r.add("assert excluded == 2", [excludedIs](HintContext& ctx) {
        if (!excludedIs(ctx, 2)) {
            ctx.fail("assert excluded == 2 failed");
        }
    });
}

} // namespace

void registerMathHints(HintRegistry& r) {
    registerMathBasicHints(r);
    registerAssertLeFeltHints(r);
}

} // namespace proofdesk::cairo
