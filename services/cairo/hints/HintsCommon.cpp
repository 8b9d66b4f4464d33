// Native hints of the common library's frequent helpers (math, set, search, dict_update,
// uint256), matched by their cairo-lang texts. Integer semantics follow Python's: values are
// canonical (0 <= v < p) unless a hint lifts them with as_int to (-p/2, p/2).

#include "cairo/hints/HintProcessor.h"

#include "crypto/BigInt.h"

#include <algorithm>
#include <map>

namespace proofdesk::cairo {
namespace {

using Limbs = Felt::Limbs;
namespace u256 = crypto::u256;

Limbs mul256(const Limbs& a, const Limbs& b) { // low 256 bits
    __extension__ typedef unsigned __int128 u128;
    Limbs out{};
    for (int i = 0; i < 4; ++i) {
        u128 carry = 0;
        for (int j = 0; i + j < 4; ++j) {
            const u128 t =
                static_cast<u128>(a[static_cast<std::size_t>(j)]) * b[static_cast<std::size_t>(i)] +
                out[static_cast<std::size_t>(i + j)] + carry;
            out[static_cast<std::size_t>(i + j)] = static_cast<std::uint64_t>(t);
            carry = t >> 64;
        }
    }
    return out;
}

// floor(sqrt(n)) for a 256-bit n, bit by bit.
Limbs isqrt256(const Limbs& n) {
    Limbs root{};
    for (int bit = 127; bit >= 0; --bit) {
        Limbs candidate = root;
        candidate[static_cast<std::size_t>(bit / 64)] |= 1ULL << (bit % 64);
        const Limbs square = mul256(candidate, candidate);
        if (!u256::lessThan(n, square)) {
            root = candidate;
        }
    }
    return root;
}

// ids.<name> as 256-bit limbs when both halves are below 2^128 (the fast path), else nullopt.
std::optional<Limbs> uint256Of(HintContext& ctx, const std::string& name) {
    const Felt low = ctx.idsFelt(name + ".low");
    const Felt high = ctx.idsFelt(name + ".high");
    if (low.bitLength() > 128 || high.bitLength() > 128) {
        return std::nullopt;
    }
    return Limbs{low.limbs()[0], low.limbs()[1], high.limbs()[0], high.limbs()[1]};
}

// (ids.<name>.high << 128) + ids.<name>.low as Python computes it, whatever the halves hold.
crypto::BigInt uint256Value(HintContext& ctx, const std::string& name) {
    return (crypto::BigInt::fromFelt(ctx.idsFelt(name + ".high")) << 128) +
           crypto::BigInt::fromFelt(ctx.idsFelt(name + ".low"));
}

// ids.<name>.low = value & (2^128 - 1); ids.<name>.high = value >> 128, reduced modulo p.
void setUint256(HintContext& ctx, const std::string& name, const crypto::BigInt& value) {
    ctx.setIds(name + ".low", value.mod(crypto::BigInt::powerOfTwo(128)).toFelt());
    ctx.setIds(name + ".high", (value >> 128).toFelt());
}

// 1 if a + b + c >= shift, over the integers (felts are below 2^252: the sum fits 256 bits).
Felt carryOf(const Felt& a, const Felt& b, const Felt& c, const Felt& shift) {
    Limbs sum = a.limbs();
    u256::addTo(sum, b.limbs());
    u256::addTo(sum, c.limbs());
    return Felt::fromU64(u256::lessThan(sum, shift.limbs()) ? 0 : 1);
}

// isqrt((high << 128) + low), which must be below 2^128.
Felt uint256Sqrt(HintContext& ctx) {
    if (const auto n = uint256Of(ctx, "n")) {
        return *Felt::fromLimbs(isqrt256(*n));
    }
    const crypto::BigInt root = crypto::BigInt::isqrt(uint256Value(ctx, "n"));
    if (root.bitLength() > 128) {
        ctx.fail("uint256_sqrt: the root is not below 2**128");
    }
    return root.toFelt();
}

Felt lowHalf(const Limbs& v) {
    return *Felt::fromLimbs({v[0], v[1], 0, 0});
}
Felt highHalf(const Limbs& v) {
    return *Felt::fromLimbs({v[2], v[3], 0, 0});
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

} // namespace

static void registerSortHints(HintRegistry& r) {
    using Positions = std::map<Felt, std::vector<std::uint64_t>>;
    r.add("vm_enter_scope(dict(__usort_max_size = globals().get('__usort_max_size')))",
          [](HintContext& ctx) { ctx.scopes().enter(); });
    r.add(
        R"(from collections import defaultdict

input_ptr = ids.input
input_len = int(ids.input_len)
if __usort_max_size is not None:
    assert input_len <= __usort_max_size, (
        f"usort() can only be used with input_len<={__usort_max_size}. "
        f"Got: input_len={input_len}."
    )

positions_dict = defaultdict(list)
for i in range(input_len):
    val = memory[input_ptr + i]
    positions_dict[val].append(i)

output = sorted(positions_dict.keys())
ids.output_len = len(output)
ids.output = segments.gen_arg(output)
ids.multiplicities = segments.gen_arg([len(positions_dict[k]) for k in output]))",
        [](HintContext& ctx) {
            const Relocatable input = ctx.idsAddress("input");
            const Felt length = ctx.idsFelt("input_len");
            if (!length.fitsU64() || length.low64() > (1ULL << 32)) {
                ctx.fail("usort: input_len is out of range");
            }
            Positions positions;
            for (std::uint64_t i = 0; i < length.low64(); ++i) {
                positions[ctx.memory().get(input + static_cast<std::int64_t>(i)).felt()].push_back(
                    i);
            }
            const Relocatable output = ctx.memory().addSegment();
            const Relocatable multiplicities = ctx.memory().addSegment();
            std::int64_t index = 0;
            for (const auto& [value, where] : positions) {
                ctx.memory().set(output + index, value);
                ctx.memory().set(multiplicities + index, Felt::fromU64(where.size()));
                ++index;
            }
            ctx.setIds("output_len", Felt::fromI64(index));
            ctx.setIds("output", output);
            ctx.setIds("multiplicities", multiplicities);
            ctx.scopes().set("positions_dict", positions);
        });
    r.add("last_pos = 0\npositions = positions_dict[ids.value][::-1]", [](HintContext& ctx) {
        auto& positions = ctx.scopeVar<Positions>("positions_dict");
        std::vector<std::uint64_t> reversed = positions[ctx.idsFelt("value")];
        std::reverse(reversed.begin(), reversed.end());
        ctx.scopes().set("positions", reversed);
        ctx.scopes().set("last_pos", std::uint64_t{0});
    });
    r.add("assert len(positions) == 0", [](HintContext& ctx) {
        if (!ctx.scopeVar<std::vector<std::uint64_t>>("positions").empty()) {
            ctx.fail("assert len(positions) == 0 failed");
        }
    });
    r.add("current_pos = positions.pop()\nids.next_item_index = current_pos - last_pos\n"
          "last_pos = current_pos + 1",
          [](HintContext& ctx) {
              auto& positions = ctx.scopeVar<std::vector<std::uint64_t>>("positions");
              if (positions.empty()) {
                  ctx.fail("pop from empty list");
              }
              const std::uint64_t current = positions.back();
              positions.pop_back();
              const std::uint64_t last = ctx.scopeVar<std::uint64_t>("last_pos");
              ctx.setIds("next_item_index", Felt::fromU64(current) - Felt::fromU64(last));
              ctx.scopes().set("last_pos", current + 1);
          });
    r.add("x = ids.x\nids.bit_length = x.bit_length()", [](HintContext& ctx) {
        ctx.setIds("bit_length", Felt::fromI64(ctx.idsFelt("x").bitLength()));
    });
    r.add("ids.full_word = int(ids.n_bytes >= 4)", [](HintContext& ctx) {
        ctx.setIds("full_word", Felt::fromU64(ctx.idsFelt("n_bytes") < Felt::fromU64(4) ? 0 : 1));
    });
}

namespace {

// Sorting, and the comparisons and assertions of math.cairo: is_nn, is_le, assert_not_equal,
// assert_lt_felt, assert_le, split_int.
void registerComparisonHints(HintRegistry& r) {
    const Felt rcBound = Felt::powerOfTwo(128);
    registerSortHints(r);

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
              ctx.setIds("root", *Felt::fromLimbs(isqrt256(value.limbs())));
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

// set_add's membership, and uint256 addition, square root and division.
void registerSetAndUint256Hints(HintRegistry& r) {
    r.add(R"(assert ids.elm_size > 0
assert ids.set_ptr <= ids.set_end_ptr
elm_list = memory.get_range(ids.elm_ptr, ids.elm_size)
for i in range(0, ids.set_end_ptr - ids.set_ptr, ids.elm_size):
    if memory.get_range(ids.set_ptr + i, ids.elm_size) == elm_list:
        ids.index = i // ids.elm_size
        ids.is_elm_in_set = 1
        break
else:
    ids.is_elm_in_set = 0)",
          [](HintContext& ctx) {
              const Felt elmSizeFelt = ctx.idsFelt("elm_size");
              if (elmSizeFelt.isZero() || !elmSizeFelt.fitsU64()) {
                  ctx.fail("assert ids.elm_size > 0 failed");
              }
              const auto elmSize = static_cast<std::int64_t>(elmSizeFelt.low64());
              const Relocatable element = ctx.idsAddress("elm_ptr");
              const Relocatable begin = ctx.idsAddress("set_ptr");
              const Relocatable end = ctx.idsAddress("set_end_ptr");
              if (begin.segment != end.segment || end.offset < begin.offset) {
                  ctx.fail("assert ids.set_ptr <= ids.set_end_ptr failed");
              }
              const auto length = static_cast<std::int64_t>(end.offset - begin.offset);
              for (std::int64_t i = 0; i < length; i += elmSize) {
                  bool equal = true;
                  for (std::int64_t k = 0; k < elmSize && equal; ++k) {
                      equal = ctx.memory().get(begin + (i + k)) == ctx.memory().get(element + k);
                  }
                  if (equal) {
                      ctx.setIds("index", Felt::fromI64(i / elmSize));
                      ctx.setIds("is_elm_in_set", Felt::one());
                      return;
                  }
              }
              ctx.setIds("is_elm_in_set", Felt::zero());
          });
    r.add(R"(sum_low = ids.a.low + ids.b.low
ids.carry_low = 1 if sum_low >= ids.SHIFT else 0
sum_high = ids.a.high + ids.b.high + ids.carry_low
ids.carry_high = 1 if sum_high >= ids.SHIFT else 0)",
          [](HintContext& ctx) {
              const Felt shift = ctx.constant("SHIFT");
              const Felt carryLow =
                  carryOf(ctx.idsFelt("a.low"), ctx.idsFelt("b.low"), Felt::zero(), shift);
              ctx.setIds("carry_low", carryLow);
              ctx.setIds("carry_high",
                         carryOf(ctx.idsFelt("a.high"), ctx.idsFelt("b.high"), carryLow, shift));
          });
    r.add("sum_low = ids.a.low + ids.b.low\nids.carry_low = 1 if sum_low >= ids.SHIFT else 0",
          [](HintContext& ctx) {
              ctx.setIds("carry_low", carryOf(ctx.idsFelt("a.low"), ctx.idsFelt("b.low"),
                                              Felt::zero(), ctx.constant("SHIFT")));
          });
    r.add("res = ids.a + ids.b\nids.carry = 1 if res >= ids.SHIFT else 0", [](HintContext& ctx) {
        ctx.setIds("carry", carryOf(ctx.idsFelt("a"), ctx.idsFelt("b"), Felt::zero(),
                                    ctx.constant("SHIFT")));
    });
    r.add(R"(from starkware.python.math_utils import isqrt
n = (ids.n.high << 128) + ids.n.low
root = isqrt(n)
assert 0 <= root < 2 ** 128
ids.root.low = root
ids.root.high = 0)",
          [](HintContext& ctx) {
              ctx.setIds("root.low", uint256Sqrt(ctx));
              ctx.setIds("root.high", Felt::zero());
          });
    r.add(R"(from starkware.python.math_utils import isqrt
n = (ids.n.high << 128) + ids.n.low
root = isqrt(n)
assert 0 <= root < 2 ** 128
ids.root = root)",
          [](HintContext& ctx) { ctx.setIds("root", uint256Sqrt(ctx)); });
    r.add("memory[ap] = 1 if 0 <= (ids.a.high % PRIME) < 2 ** 127 else 0",
          [](HintContext& ctx) { setAp(ctx, ctx.idsFelt("a.high") < Felt::powerOfTwo(127)); });
    r.add(R"(a = (ids.a.high << 128) + ids.a.low
div = (ids.div.high << 128) + ids.div.low
quotient, remainder = divmod(a, div)

ids.quotient.low = quotient & ((1 << 128) - 1)
ids.quotient.high = quotient >> 128
ids.remainder.low = remainder & ((1 << 128) - 1)
ids.remainder.high = remainder >> 128)",
          [](HintContext& ctx) {
              const auto a = uint256Of(ctx, "a");
              const auto div = uint256Of(ctx, "div");
              if (!a || !div) { // a half of 128 bits or more: Python's big integers
                  const crypto::BigInt divisor = uint256Value(ctx, "div");
                  if (divisor.isZero()) {
                      ctx.fail("uint256_unsigned_div_rem: division by zero");
                  }
                  const auto [q, r] = crypto::BigInt::divmod(uint256Value(ctx, "a"), divisor);
                  setUint256(ctx, "quotient", q);
                  setUint256(ctx, "remainder", r);
                  return;
              }
              if (((*div)[0] | (*div)[1] | (*div)[2] | (*div)[3]) == 0) {
                  ctx.fail("uint256_unsigned_div_rem: division by zero");
              }
              const auto [quotient, remainder] = u256::divmod(*a, *div);
              ctx.setIds("quotient.low", lowHalf(quotient));
              ctx.setIds("quotient.high", highHalf(quotient));
              ctx.setIds("remainder.low", lowHalf(remainder));
              ctx.setIds("remainder.high", highHalf(remainder));
          });
}

} // namespace

void registerCommonHints(HintRegistry& r) {
    registerComparisonHints(r);
    registerSplitAndAddressHints(r);
    registerDivisionAndSearchHints(r);
    registerSetAndUint256Hints(r);
}

} // namespace proofdesk::cairo
