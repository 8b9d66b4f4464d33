// Native hints of starkware.cairo.common.math, math_cmp, pow, find_element and signed division
// (cairo-lang 0.13 texts, with the older ones still in use). Integer semantics follow Python's:
// values are canonical (0 <= v < p) unless a hint lifts them with as_int to (-p/2, p/2).

#include "cairo/hints/HintProcessor.h"

#include <algorithm>

namespace proofdesk::cairo {
namespace {

Felt pMinusOne() {
    return -Felt::one();
}

const Felt& halfPrime() { // (p - 1) / 2
    static const Felt value = crypto::divmod(-Felt::one(), Felt::fromU64(2)).first;
    return value;
}
bool isNegative(const Felt& v) { // as_int(v) < 0
    return halfPrime() < v;
}

void setAp(HintContext& ctx, bool condition) {
    ctx.memory().set(ctx.vm().ap, Felt::fromU64(condition ? 1 : 0));
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

// The comparisons and assertions of math.cairo: is_nn, is_le, assert_not_equal, assert_lt_felt,
// assert_le, split_int.
void registerComparisonHints(HintRegistry& r) {
    const Felt rcBound = Felt::powerOfTwo(128);
    r.add("memory[ap] = 0 if 0 <= (ids.a % PRIME) < range_check_builtin.bound else 1",
          [rcBound](HintContext& ctx) { setAp(ctx, !(ctx.idsFelt("a") < rcBound)); });
    r.add("memory[ap] = 0 if 0 <= ((-ids.a - 1) % PRIME) < range_check_builtin.bound else 1",
          [rcBound](HintContext& ctx) {
              setAp(ctx, !((-ctx.idsFelt("a") - Felt::one()) < rcBound));
          });
    r.add("memory[ap] = 0 if (ids.a % PRIME) <= (ids.b % PRIME) else 1",
          [](HintContext& ctx) { setAp(ctx, !(ctx.idsFelt("a") <= ctx.idsFelt("b"))); });
    r.add(R"(from starkware.cairo.common.math_utils import is_positive
ids.is_positive = 1 if is_positive(
    value=ids.value, prime=PRIME, rc_bound=range_check_builtin.bound) else 0)",
          [rcBound](HintContext& ctx) {
              const Felt value = ctx.idsFelt("value");
              const bool negative = isNegative(value);
              const Felt magnitude = negative ? -value : value;
              if (!(magnitude < rcBound)) {
                  ctx.fail("value: " + value.toSignedDecimal() + " is out of the valid range.");
              }
              ctx.setIds("is_positive", Felt::fromU64(!negative && !value.isZero() ? 1 : 0));
          });
    r.add(R"(from starkware.cairo.common.math_utils import assert_integer
assert_integer(ids.value)
assert ids.value % PRIME != 0, f'assert_not_zero failed: {ids.value} = 0.')",
          [](HintContext& ctx) {
              if (ctx.idsFelt("value").isZero()) {
                  ctx.fail("assert_not_zero failed: 0 = 0.");
              }
          });
    r.add(R"(from starkware.cairo.lang.vm.relocatable import RelocatableValue
both_ints = isinstance(ids.a, int) and isinstance(ids.b, int)
both_relocatable = (
    isinstance(ids.a, RelocatableValue) and isinstance(ids.b, RelocatableValue) and
    ids.a.segment_index == ids.b.segment_index)
assert both_ints or both_relocatable, \
    f'assert_not_equal failed: non-comparable values: {ids.a}, {ids.b}.'
assert (ids.a - ids.b) % PRIME != 0, f'assert_not_equal failed: {ids.a} = {ids.b}.')",
          [](HintContext& ctx) {
              const Value a = ctx.ids("a");
              const Value b = ctx.ids("b");
              if (a.isAddress() != b.isAddress() ||
                  (a.isAddress() && a.address().segment != b.address().segment)) {
                  ctx.fail("assert_not_equal failed: non-comparable values: " + a.toString() +
                           ", " + b.toString() + ".");
              }
              if (a == b) {
                  ctx.fail("assert_not_equal failed: " + a.toString() + " = " + b.toString() + ".");
              }
          });
    r.add(R"(from starkware.cairo.common.math_utils import assert_integer
assert_integer(ids.a)
assert_integer(ids.b)
assert (ids.a % PRIME) < (ids.b % PRIME), \
    f'a = {ids.a % PRIME} is not less than b = {ids.b % PRIME}.')",
          [](HintContext& ctx) {
              if (!(ctx.idsFelt("a") < ctx.idsFelt("b"))) {
                  ctx.fail("a = " + ctx.idsFelt("a").toDecimal() +
                           " is not less than b = " + ctx.idsFelt("b").toDecimal() + ".");
              }
          });
    r.add(
        "from starkware.cairo.common.math_utils import assert_integer\nassert_integer(ids.a)\n"
        "assert_integer(ids.b)\nassert (ids.a % PRIME) <= (ids.b % PRIME), \\\n    f'a = {ids.a % "
        "PRIME} is not less than or equal to b = {ids.b % PRIME}.'",
        [](HintContext& ctx) {
            if (ctx.idsFelt("b") < ctx.idsFelt("a")) {
                ctx.fail("a = " + ctx.idsFelt("a").toDecimal() +
                         " is not less than or equal to b = " + ctx.idsFelt("b").toDecimal() + ".");
            }
        });
    r.add(R"(from starkware.cairo.common.math_utils import assert_integer
assert_integer(ids.a)
assert_integer(ids.b)
a = ids.a % PRIME
b = ids.b % PRIME
assert a <= b, f'a = {a} is not less than or equal to b = {b}.'

ids.small_inputs = int(
    a < range_check_builtin.bound and (b - a) < range_check_builtin.bound))",
          [rcBound](HintContext& ctx) {
              const Felt a = ctx.idsFelt("a");
              const Felt b = ctx.idsFelt("b");
              if (b < a) {
                  ctx.fail("a = " + a.toDecimal() +
                           " is not less than or equal to b = " + b.toDecimal() + ".");
              }
              ctx.setIds("small_inputs", Felt::fromU64(a < rcBound && (b - a) < rcBound ? 1 : 0));
          });
    r.add("assert ids.value == 0, 'split_int(): value is out of range.'", [](HintContext& ctx) {
        if (!ctx.idsFelt("value").isZero()) {
            ctx.fail("split_int(): value is out of range.");
        }
    });
}

// Felt splits (64 and 128 bits), is_250 and normalize_address, unsigned_div_rem into an output,
// isqrt.
void registerSplitAndAddressHints(HintRegistry& r) {
    r.add(R"(from starkware.cairo.common.math_utils import as_int

# Correctness check.
value = as_int(ids.value, PRIME) % PRIME
assert value < ids.UPPER_BOUND, f'{value} is outside of the range [0, 2**250).'

# Calculation for the assertion.
ids.high, ids.low = divmod(ids.value, ids.SHIFT))",
          [](HintContext& ctx) {
              const Felt value = ctx.idsFelt("value");
              if (!(value < ctx.constant("UPPER_BOUND"))) {
                  ctx.fail(value.toDecimal() + " is outside of the range [0, 2**250).");
              }
              const auto [high, low] = crypto::divmod(value, ctx.constant("SHIFT"));
              ctx.setIds("high", high);
              ctx.setIds("low", low);
          });
    r.add("ids.is_250 = 1 if ids.addr < 2**250 else 0", [](HintContext& ctx) {
        ctx.setIds("is_250", Felt::fromU64(ctx.idsFelt("addr").bitLength() <= 250 ? 1 : 0));
    });
    r.add(R"(# Verify the assumptions on the relationship between 2**250, ADDR_BOUND and PRIME.
ADDR_BOUND = ids.ADDR_BOUND % PRIME
assert (2**250 < ADDR_BOUND <= 2**251) and (2 * 2**250 < PRIME) and (
        ADDR_BOUND * 2 > PRIME), \
    'normalize_address() cannot be used with the current constants.'
ids.is_small = 1 if ids.addr < ADDR_BOUND else 0)",
          [](HintContext& ctx) {
              // 2·2^250 < PRIME holds for the STARK prime; ADDR_BOUND·2 > PRIME means
              // ADDR_BOUND > (PRIME - 1) / 2.
              const Felt bound = ctx.constant("ADDR_BOUND");
              if (!(Felt::powerOfTwo(250) < bound && bound <= Felt::powerOfTwo(251) &&
                    bound > halfPrime())) {
                  ctx.fail("normalize_address() cannot be used with the current constants.");
              }
              ctx.setIds("is_small", Felt::fromU64(ctx.idsFelt("addr") < bound ? 1 : 0));
          });
    r.add(R"(memory[ids.output] = res = (int(ids.value) % PRIME) % ids.base
assert res < ids.bound, f'split_int(): Limb {res} is out of range.')",
          [](HintContext& ctx) {
              const Felt base = ctx.idsFelt("base");
              if (base.isZero()) {
                  ctx.fail("split_int(): base is zero");
              }
              const Felt res = crypto::divmod(ctx.idsFelt("value"), base).second;
              if (!(res < ctx.idsFelt("bound"))) {
                  ctx.fail("split_int(): Limb " + res.toDecimal() + " is out of range.");
              }
              ctx.memory().set(ctx.idsAddress("output"), res);
          });
    r.add("ids.low = ids.a & ((1<<64) - 1)\nids.high = ids.a >> 64", [](HintContext& ctx) {
        const auto [high, low] = crypto::divmod(ctx.idsFelt("a"), Felt::powerOfTwo(64));
        ctx.setIds("low", low);
        ctx.setIds("high", high);
    });
    r.add("ids.low = ids.a & ((1<<128) - 1)\nids.high = ids.a >> 128", [](HintContext& ctx) {
        const auto [high, low] = crypto::divmod(ctx.idsFelt("a"), Felt::powerOfTwo(128));
        ctx.setIds("low", low);
        ctx.setIds("high", high);
    });
    r.add(R"(from starkware.python.math_utils import isqrt
value = ids.value % PRIME
assert value < 2 ** 250, f"value={value} is outside of the range [0, 2**250)."
assert 2 ** 250 < PRIME
ids.root = isqrt(value))",
          [](HintContext& ctx) {
              const Felt value = ctx.idsFelt("value");
              if (value.bitLength() > 250) {
                  ctx.fail("value=" + value.toDecimal() + " is outside of the range [0, 2**250).");
              }
              ctx.setIds("root", *Felt::fromLimbs(crypto::u256::isqrt(value.limbs())));
          });
}

// signed_div_rem, and find_element over an array.
void registerDivisionAndSearchHints(HintRegistry& r) {
    const Felt rcBound = Felt::powerOfTwo(128);
    r.add(R"(from starkware.cairo.common.math_utils import as_int, assert_integer

assert_integer(ids.div)
assert 0 < ids.div <= PRIME // range_check_builtin.bound, \
    f'div={hex(ids.div)} is out of the valid range.'

assert_integer(ids.bound)
assert ids.bound <= range_check_builtin.bound // 2, \
    f'bound={hex(ids.bound)} is out of the valid range.'

int_value = as_int(ids.value, PRIME)
q, ids.r = divmod(int_value, ids.div)

assert -ids.bound <= q < ids.bound, \
    f'{int_value} / {ids.div} = {q} is out of the range [{-ids.bound}, {ids.bound}).'

ids.biased_q = q + ids.bound)",
          [rcBound](HintContext& ctx) {
              const Felt div = ctx.idsFelt("div");
              if (div.isZero() || crypto::divmod(-Felt::one(), rcBound).first < div) {
                  ctx.fail("div=" + div.toHex() + " is out of the valid range.");
              }
              const Felt bound = ctx.idsFelt("bound");
              if (Felt::powerOfTwo(127) < bound) {
                  ctx.fail("bound=" + bound.toHex() + " is out of the valid range.");
              }
              const Felt value = ctx.idsFelt("value");
              // Python floor division of the lifted value: for negatives, q = -ceil(|v| / d).
              Felt q, rem;
              if (isNegative(value)) {
                  const auto [mq, mr] = crypto::divmod(-value, div);
                  q = mr.isZero() ? -mq : -(mq + Felt::one());
                  rem = mr.isZero() ? Felt::zero() : div - mr;
              } else {
                  std::tie(q, rem) = crypto::divmod(value, div);
              }
              const Felt biased = q + bound;
              if (!(biased < bound + bound)) { // -bound <= q < bound
                  ctx.fail(value.toSignedDecimal() + " / " + div.toDecimal() + " = " +
                           q.toSignedDecimal() + " is out of the range.");
              }
              ctx.setIds("r", rem);
              ctx.setIds("biased_q", biased);
          });
    r.add(R"(array_ptr = ids.array_ptr
elm_size = ids.elm_size
assert isinstance(elm_size, int) and elm_size > 0, \
    f'Invalid value for elm_size. Got: {elm_size}.'

n_elms = ids.n_elms
assert isinstance(n_elms, int) and n_elms >= 0, \
    f'Invalid value for n_elms. Got: {n_elms}.'
if '__find_element_max_size' in globals():
    assert n_elms <= __find_element_max_size, \
        f'find_element() can only be used with n_elms<={__find_element_max_size}. ' \
        f'Got: n_elms={n_elms}.'

for i in range(n_elms):
    if memory[array_ptr + elm_size * i] >= ids.key:
        ids.index = i
        break
else:
    ids.index = n_elms)",
          [](HintContext& ctx) {
              const Relocatable array = ctx.idsAddress("array_ptr");
              const Felt elmSize = ctx.idsFelt("elm_size");
              const Felt nElms = ctx.idsFelt("n_elms");
              if (elmSize.isZero() || !elmSize.fitsU64() || !nElms.fitsU64() ||
                  nElms.low64() > (1ULL << 32)) {
                  ctx.fail("Invalid value for elm_size or n_elms.");
              }
              const Felt key = ctx.idsFelt("key");
              for (std::uint64_t i = 0; i < nElms.low64(); ++i) {
                  const auto offset = static_cast<std::int64_t>(elmSize.low64() * i);
                  if (!(ctx.memory().get(array + offset).felt() < key)) {
                      ctx.setIds("index", Felt::fromU64(i));
                      return;
                  }
              }
              ctx.setIds("index", nElms);
          });
}

} // namespace

void registerMathHints(HintRegistry& r) {
    r.add("x = ids.x\nids.bit_length = x.bit_length()", [](HintContext& ctx) {
        ctx.setIds("bit_length", Felt::fromI64(ctx.idsFelt("x").bitLength()));
    });
    registerMathBasicHints(r);
    registerAssertLeFeltHints(r);
    registerComparisonHints(r);
    registerSplitAndAddressHints(r);
    registerDivisionAndSearchHints(r);
}

} // namespace proofdesk::cairo
