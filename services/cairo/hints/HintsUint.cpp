// Native hints of cairo-lang's wide unsigned integers, whose limbs are 128 bits: uint256 (low,
// high), the 384-bit prime field library's Uint384 (d0..d2) and its 768-bit extension (d0..d5),
// and the VRF library's 512-bit values (d0..d3) and Uint256 divisors (b01, b23).
//
// The hints' own `pack` sums limb << (128·i) over the limbs' field values, and their `split`
// masks every limb to 128 bits, dropping what does not fit; written values are reduced modulo
// the field prime, as the Python engine writes them.

#include "cairo/hints/HintProcessor.h"

#include "crypto/BigInt.h"

#include <optional>
#include <string>
#include <vector>

namespace proofdesk::cairo {
namespace {

using crypto::BigInt;
using Members = std::vector<std::string>;

const Members& uint256Members() {
    static const Members members{"low", "high"};
    return members;
}
const Members& uint384Members() {
    static const Members members{"d0", "d1", "d2"};
    return members;
}
const Members& uint512Members() {
    static const Members members{"d0", "d1", "d2", "d3"};
    return members;
}
const Members& uint768Members() {
    static const Members members{"d0", "d1", "d2", "d3", "d4", "d5"};
    return members;
}

// A BigInt's bits `from`..`from`+127 (value >= 0).
BigInt limbAt(const BigInt& value, int from) {
    return (value >> from).mod(BigInt::powerOfTwo(128));
}

// pack(ids.<path>, num_bits_shift=128) over `members`.
BigInt pack(HintContext& ctx, const std::string& path, const Members& members) {
    BigInt sum;
    for (auto member = members.rbegin(); member != members.rend(); ++member) {
        sum = (sum << 128) + BigInt::fromFelt(ctx.idsFelt(path + "." + *member));
    }
    return sum;
}

// split(value, 128, len(members)) written to ids.<path>: each limb masked to 128 bits.
void writeSplit(HintContext& ctx, const std::string& path, const Members& members,
                const BigInt& value) {
    for (std::size_t i = 0; i < members.size(); ++i) {
        ctx.setIds(path + "." + members[i], limbAt(value, static_cast<int>(128 * i)).toFelt());
    }
}

// ids.<path>.low = value & (2^128 - 1); ids.<path>.high = value >> 128 (not masked).
void writeLowHigh(HintContext& ctx, const std::string& path, const BigInt& value) {
    ctx.setIds(path + ".low", limbAt(value, 0).toFelt());
    ctx.setIds(path + ".high", (value >> 128).toFelt());
}

using Limbs = Felt::Limbs;
namespace u256 = crypto::u256;

// ids.<name> as 256-bit limbs when both halves are below 2^128 (the fast path), else nullopt.
std::optional<Limbs> uint256Of(HintContext& ctx, const std::string& name) {
    const Felt low = ctx.idsFelt(name + ".low");
    const Felt high = ctx.idsFelt(name + ".high");
    if (low.bitLength() > 128 || high.bitLength() > 128) {
        return std::nullopt;
    }
    return Limbs{low.limbs()[0], low.limbs()[1], high.limbs()[0], high.limbs()[1]};
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
        return *Felt::fromLimbs(u256::isqrt(*n));
    }
    const BigInt root = BigInt::isqrt(pack(ctx, "n", uint256Members()));
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

void failOnZero(HintContext& ctx, const BigInt& value, const char* what) {
    if (value.isZero()) {
        ctx.fail(std::string(what) + ": division by zero");
    }
}

BigInt inverseOf(HintContext& ctx, const BigInt& value, const BigInt& modulus) {
    failOnZero(ctx, modulus, "modular inverse");
    const auto inverse = BigInt::inverseMod(value, modulus);
    if (!inverse) {
        ctx.fail(value.toDecimal() + " has no inverse modulo " + modulus.toDecimal());
    }
    return *inverse;
}

// uint256_mul_div_mod: a·b = quotient·div + remainder with a 512-bit quotient.
void uint256MulDivMod(HintContext& ctx) {
    const BigInt div = pack(ctx, "div", uint256Members());
    failOnZero(ctx, div, "uint256_mul_div_mod");
    const auto [quotient, remainder] =
        BigInt::divmod(pack(ctx, "a", uint256Members()) * pack(ctx, "b", uint256Members()), div);
    ctx.setIds("quotient_low.low", limbAt(quotient, 0).toFelt());
    ctx.setIds("quotient_low.high", limbAt(quotient, 128).toFelt());
    ctx.setIds("quotient_high.low", limbAt(quotient, 256).toFelt());
    ctx.setIds("quotient_high.high", (quotient >> 384).toFelt());
    writeLowHigh(ctx, "remainder", remainder);
}

// uint256_unsigned_div_rem with a divisor given as (b01, b23).
void uint256DivRemByHalves(HintContext& ctx) {
    const BigInt div = (BigInt::fromFelt(ctx.idsFelt("div.b23")) << 128) +
                       BigInt::fromFelt(ctx.idsFelt("div.b01"));
    failOnZero(ctx, div, "uint256_unsigned_div_rem");
    const auto [quotient, remainder] = BigInt::divmod(pack(ctx, "a", uint256Members()), div);
    writeLowHigh(ctx, "quotient", quotient);
    writeLowHigh(ctx, "remainder", remainder);
}

// a - b modulo 2^256.
void uint256Sub(HintContext& ctx) {
    const BigInt difference = (pack(ctx, "a", uint256Members()) - pack(ctx, "b", uint256Members()))
                                  .mod(BigInt::powerOfTwo(256));
    writeSplit(ctx, "res", uint256Members(), difference);
}

// a - b modulo the 384-bit p.
void uint384SubModP(HintContext& ctx) {
    const BigInt p = pack(ctx, "p", uint384Members());
    failOnZero(ctx, p, "uint384 sub_mod");
    writeSplit(ctx, "res", uint384Members(),
               (pack(ctx, "a", uint384Members()) - pack(ctx, "b", uint384Members())).mod(p));
}

// divmod(a, div) of a `dividend`-wide a by a `divisor`-wide div.
HintFn unsignedDivRem(const Members& dividend, const char* dividendName, const Members& divisor) {
    return [&dividend, dividendName, &divisor](HintContext& ctx) {
        const BigInt div = pack(ctx, "div", divisor);
        failOnZero(ctx, div, "unsigned_div_rem");
        const auto [quotient, remainder] = BigInt::divmod(pack(ctx, dividendName, dividend), div);
        writeSplit(ctx, "quotient", dividend, quotient);
        writeSplit(ctx, "remainder", divisor, remainder);
    };
}

// pow(x, -1, p) of a 512-bit x modulo a uint256 p.
void uint512InverseModP(HintContext& ctx) {
    const BigInt inverse =
        inverseOf(ctx, pack(ctx, "x", uint512Members()), pack(ctx, "p", uint256Members()));
    writeLowHigh(ctx, "x_inverse_mod_p", inverse);
}

// div_mod(1, b, p) for a uint256 (`members` = low, high) or Uint384 b and p.
HintFn inverseModP(const Members& members) {
    return [&members](HintContext& ctx) {
        const BigInt inverse = inverseOf(ctx, pack(ctx, "b", members), pack(ctx, "p", members));
        if (members.size() == 2) {
            writeLowHigh(ctx, "b_inverse_mod_p", inverse);
        } else {
            writeSplit(ctx, "b_inverse_mod_p", members, inverse);
        }
    };
}

// The square root of x, or of generator·x when x is not a square (exactly one of the two is,
// for x != 0), modulo the prime p.
HintFn sqrtOrGeneratorSqrt(const Members& members) {
    return [&members](HintContext& ctx) {
        const BigInt generator = pack(ctx, "generator", members);
        const BigInt x = pack(ctx, "x", members);
        const BigInt p = pack(ctx, "p", members);
        failOnZero(ctx, p, "sqrt modulo p");
        const auto root = [&](const BigInt& value) -> BigInt {
            if (!BigInt::isQuadResidue(value, p)) {
                return BigInt();
            }
            const auto found = BigInt::sqrtModPrime(value, p);
            if (!found) {
                ctx.fail("sqrt: " + p.toDecimal() + " is not an odd prime");
            }
            return *found;
        };
        const bool successX = BigInt::isQuadResidue(x, p);
        const bool successGx = BigInt::isQuadResidue(generator * x, p);
        const BigInt rootX = root(x);
        const BigInt rootGx = root(generator * x);
        if (!x.isZero() && successX == successGx) {
            ctx.fail("sqrt: exactly one of x and generator * x must be a square modulo p");
        }
        ctx.setIds("success_x", Felt::fromU64(successX ? 1 : 0));
        ctx.setIds("success_gx", Felt::fromU64(successGx ? 1 : 0));
        if (members.size() == 2) {
            writeLowHigh(ctx, "sqrt_x", rootX);
            writeLowHigh(ctx, "sqrt_gx", rootGx);
        } else {
            writeSplit(ctx, "sqrt_x", members, rootX);
            writeSplit(ctx, "sqrt_gx", members, rootGx);
        }
    };
}

// isqrt of a Uint384, below 2^192.
void uint384Isqrt(HintContext& ctx) {
    const BigInt root = BigInt::isqrt(pack(ctx, "a", uint384Members()));
    if (root >= BigInt::powerOfTwo(192)) {
        ctx.fail("uint384 sqrt: the root is not below 2**192");
    }
    writeSplit(ctx, "root", uint384Members(), root);
}

// Uint384 addition's carries: sums of the limbs' values, compared with ids.SHIFT.
void uint384AddCarries(HintContext& ctx) {
    const BigInt shift = BigInt::fromFelt(ctx.constant("SHIFT"));
    static const char* const a[] = {"a.d0", "a.d1", "a.d2"};
    static const char* const b[] = {"b.d0", "b.d1", "b.d2"};
    static const char* const carries[] = {"carry_d0", "carry_d1", "carry_d2"};
    BigInt carry;
    for (int i = 0; i < 3; ++i) {
        const BigInt sum =
            BigInt::fromFelt(ctx.idsFelt(a[i])) + BigInt::fromFelt(ctx.idsFelt(b[i])) + carry;
        carry = BigInt(sum >= shift ? 1 : 0);
        ctx.setIds(carries[i], carry.toFelt());
    }
}

// Whether a Uint384's top limb is below 2^127 (the value is "non-negative").
void uint384TopLimbIsSmall(HintContext& ctx) {
    const bool small = ctx.idsFelt("a.d2") < Felt::powerOfTwo(127);
    ctx.memory().set(ctx.vm().ap, Felt::fromU64(small ? 1 : 0));
}

// The square root of a uint256 modulo the ed25519 prime 2^255 - 19 (the even one).
void ed25519Sqrt(HintContext& ctx) {
    static const BigInt p = BigInt::powerOfTwo(255) - BigInt(19);
    static const BigInt ii = BigInt::powMod(BigInt(2), (p - BigInt(1)) >> 2, p);
    const BigInt xx = pack(ctx, "xx", uint256Members());
    BigInt x = BigInt::powMod(xx, (p + BigInt(3)) >> 3, p);
    if (!(x * x - xx).mod(p).isZero()) {
        x = (x * ii).mod(p);
    }
    if (x.isOdd()) {
        x = p - x;
    }
    writeLowHigh(ctx, "x", x);
}

// cairo-lang's split() and pack() over d0..d2, as the 384-bit field library's hints define them.
const std::string& splitDef() {
    static const std::string text = R"(def split(num: int, num_bits_shift: int, length: int):
    a = []
    for _ in range(length):
        a.append( num & ((1 << num_bits_shift) - 1) )
        num = num >> num_bits_shift
    return tuple(a)
)";
    return text;
}

const std::string& packD3() {
    static const std::string text = R"(
def pack(z, num_bits_shift: int) -> int:
    limbs = (z.d0, z.d1, z.d2)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))
)";
    return text;
}

// uint256 multiplication and division, the 512-bit inverse, subtraction, and the ed25519 square
// root.
void registerUint256Hints(HintRegistry& r) {
    r.add({
        {R"(a = (ids.a.high << 128) + ids.a.low
b = (ids.b.high << 128) + ids.b.low
div = (ids.div.high << 128) + ids.div.low
quotient, remainder = divmod(a * b, div)

ids.quotient_low.low = quotient & ((1 << 128) - 1)
ids.quotient_low.high = (quotient >> 128) & ((1 << 128) - 1)
ids.quotient_high.low = (quotient >> 256) & ((1 << 128) - 1)
ids.quotient_high.high = quotient >> 384
ids.remainder.low = remainder & ((1 << 128) - 1)
ids.remainder.high = remainder >> 128)",
         uint256MulDivMod},
        {R"(a = (ids.a.high << 128) + ids.a.low
div = (ids.div.b23 << 128) + ids.div.b01
quotient, remainder = divmod(a, div)

ids.quotient.low = quotient & ((1 << 128) - 1)
ids.quotient.high = quotient >> 128
ids.remainder.low = remainder & ((1 << 128) - 1)
ids.remainder.high = remainder >> 128)",
         uint256DivRemByHalves},
        {R"(def pack_512(u, num_bits_shift: int) -> int:
    limbs = (u.d0, u.d1, u.d2, u.d3)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))

x = pack_512(ids.x, num_bits_shift = 128)
p = ids.p.low + (ids.p.high << 128)
x_inverse_mod_p = pow(x,-1, p)

x_inverse_mod_p_split = (x_inverse_mod_p & ((1 << 128) - 1), x_inverse_mod_p >> 128)

ids.x_inverse_mod_p.low = x_inverse_mod_p_split[0]
ids.x_inverse_mod_p.high = x_inverse_mod_p_split[1])",
         uint512InverseModP},
        {R"(def split(num: int, num_bits_shift: int = 128, length: int = 2):
    a = []
    for _ in range(length):
        a.append( num & ((1 << num_bits_shift) - 1) )
        num = num >> num_bits_shift
    return tuple(a)

def pack(z, num_bits_shift: int = 128) -> int:
    limbs = (z.low, z.high)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))

a = pack(ids.a)
b = pack(ids.b)
res = (a - b)%2**256
res_split = split(res)
ids.res.low = res_split[0]
ids.res.high = res_split[1])",
         uint256Sub},
        {R"(PRIME = 2**255 - 19
II = pow(2, (PRIME - 1) // 4, PRIME)

xx = ids.xx.low + (ids.xx.high<<128)
x = pow(xx, (PRIME + 3) // 8, PRIME)
if (x * x - xx) % PRIME != 0:
    x = (x * II) % PRIME
if x % 2 != 0:
    x = PRIME - x
ids.x.low = x & ((1<<128)-1)
ids.x.high = x >> 128)",
         ed25519Sqrt},
    });
}

// Inverses and square roots (with a generator when there is none) modulo p, for uint256 and
// Uint384, and Uint384 carries.
void registerModularRootHints(HintRegistry& r) {
    r.add({
        {R"(from starkware.python.math_utils import div_mod

def split(a: int):
    return (a & ((1 << 128) - 1), a >> 128)

def pack(z, num_bits_shift: int) -> int:
    limbs = (z.low, z.high)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))

a = pack(ids.a, 128)
b = pack(ids.b, 128)
p = pack(ids.p, 128)
# For python3.8 and above the modular inverse can be computed as follows:
# b_inverse_mod_p = pow(b, -1, p)
# Instead we use the python3.7-friendly function div_mod from starkware.python.math_utils
b_inverse_mod_p = div_mod(1, b, p)

b_inverse_mod_p_split = split(b_inverse_mod_p)

ids.b_inverse_mod_p.low = b_inverse_mod_p_split[0]
ids.b_inverse_mod_p.high = b_inverse_mod_p_split[1])",
         inverseModP(uint256Members())},
        {R"(from starkware.python.math_utils import is_quad_residue, sqrt

def split(a: int):
    return (a & ((1 << 128) - 1), a >> 128)

def pack(z) -> int:
    return z.low + (z.high << 128)

generator = pack(ids.generator)
x = pack(ids.x)
p = pack(ids.p)

success_x = is_quad_residue(x, p)
root_x = sqrt(x, p) if success_x else None
success_gx = is_quad_residue(generator*x, p)
root_gx = sqrt(generator*x, p) if success_gx else None

# Check that one is 0 and the other is 1
if x != 0:
    assert success_x + success_gx == 1

# `None` means that no root was found, but we need to transform these into a felt no matter what
if root_x == None:
    root_x = 0
if root_gx == None:
    root_gx = 0
ids.success_x = int(success_x)
ids.success_gx = int(success_gx)
split_root_x = split(root_x)
# print('split root x', split_root_x)
split_root_gx = split(root_gx)
ids.sqrt_x.low = split_root_x[0]
ids.sqrt_x.high = split_root_x[1]
ids.sqrt_gx.low = split_root_gx[0]
ids.sqrt_gx.high = split_root_gx[1])",
         sqrtOrGeneratorSqrt(uint256Members())},
        {R"(from starkware.python.math_utils import is_quad_residue, sqrt

def split(num: int, num_bits_shift: int = 128, length: int = 3):
    a = []
    for _ in range(length):
        a.append( num & ((1 << num_bits_shift) - 1) )
        num = num >> num_bits_shift
    return tuple(a)

def pack(z, num_bits_shift: int = 128) -> int:
    limbs = (z.d0, z.d1, z.d2)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))


generator = pack(ids.generator)
x = pack(ids.x)
p = pack(ids.p)

success_x = is_quad_residue(x, p)
root_x = sqrt(x, p) if success_x else None

success_gx = is_quad_residue(generator*x, p)
root_gx = sqrt(generator*x, p) if success_gx else None

# Check that one is 0 and the other is 1
if x != 0:
    assert success_x + success_gx ==1

# `None` means that no root was found, but we need to transform these into a felt no matter what
if root_x == None:
    root_x = 0
if root_gx == None:
    root_gx = 0
ids.success_x = int(success_x)
ids.success_gx = int(success_gx)
split_root_x = split(root_x)
split_root_gx = split(root_gx)
ids.sqrt_x.d0 = split_root_x[0]
ids.sqrt_x.d1 = split_root_x[1]
ids.sqrt_x.d2 = split_root_x[2]
ids.sqrt_gx.d0 = split_root_gx[0]
ids.sqrt_gx.d1 = split_root_gx[1]
ids.sqrt_gx.d2 = split_root_gx[2])",
         sqrtOrGeneratorSqrt(uint384Members())},
        {R"(sum_d0 = ids.a.d0 + ids.b.d0
ids.carry_d0 = 1 if sum_d0 >= ids.SHIFT else 0
sum_d1 = ids.a.d1 + ids.b.d1 + ids.carry_d0
ids.carry_d1 = 1 if sum_d1 >= ids.SHIFT else 0
sum_d2 = ids.a.d2 + ids.b.d2 + ids.carry_d1
ids.carry_d2 = 1 if sum_d2 >= ids.SHIFT else 0)",
         uint384AddCarries},
        {"memory[ap] = 1 if 0 <= (ids.a.d2 % PRIME) < 2 ** 127 else 0", uint384TopLimbIsSmall},
    });
}

// The 384-bit field library's texts: split() and pack() over d0..d2, then the operation.
void registerUint384LibraryHints(HintRegistry& r) {
    r.add(splitDef() + packD3() + R"(
a = pack(ids.a, num_bits_shift = 128)
b = pack(ids.b, num_bits_shift = 128)
p = pack(ids.p, num_bits_shift = 128)

res = (a - b) % p


res_split = split(res, num_bits_shift=128, length=3)

ids.res.d0 = res_split[0]
ids.res.d1 = res_split[1]
ids.res.d2 = res_split[2])",
          uint384SubModP);
    r.add(splitDef() + packD3() + R"(
a = pack(ids.a, num_bits_shift = 128)
div = pack(ids.div, num_bits_shift = 128)
quotient, remainder = divmod(a, div)

quotient_split = split(quotient, num_bits_shift=128, length=3)
assert len(quotient_split) == 3

ids.quotient.d0 = quotient_split[0]
ids.quotient.d1 = quotient_split[1]
ids.quotient.d2 = quotient_split[2]

remainder_split = split(remainder, num_bits_shift=128, length=3)
ids.remainder.d0 = remainder_split[0]
ids.remainder.d1 = remainder_split[1]
ids.remainder.d2 = remainder_split[2])",
          unsignedDivRem(uint384Members(), "a", uint384Members()));
    r.add("from starkware.python.math_utils import div_mod\n\n" + splitDef() + packD3() + R"(
a = pack(ids.a, num_bits_shift = 128)
b = pack(ids.b, num_bits_shift = 128)
p = pack(ids.p, num_bits_shift = 128)
# For python3.8 and above the modular inverse can be computed as follows:
# b_inverse_mod_p = pow(b, -1, p)
# Instead we use the python3.7-friendly function div_mod from starkware.python.math_utils
b_inverse_mod_p = div_mod(1, b, p)


b_inverse_mod_p_split = split(b_inverse_mod_p, num_bits_shift=128, length=3)

ids.b_inverse_mod_p.d0 = b_inverse_mod_p_split[0]
ids.b_inverse_mod_p.d1 = b_inverse_mod_p_split[1]
ids.b_inverse_mod_p.d2 = b_inverse_mod_p_split[2])",
          inverseModP(uint384Members()));
    r.add("from starkware.python.math_utils import isqrt\n\n" + splitDef() + packD3() + R"(
a = pack(ids.a, num_bits_shift=128)
root = isqrt(a)
assert 0 <= root < 2 ** 192
root_split = split(root, num_bits_shift=128, length=3)
ids.root.d0 = root_split[0]
ids.root.d1 = root_split[1]
ids.root.d2 = root_split[2])",
          uint384Isqrt);
}

// 768-by-384 and 512-by-256 divisions: the 384-bit library's text and the VRF library's (the same
// but for trailing spaces).
void registerWideDivisionHints(HintRegistry& r) {
    const auto divExtended = [&](const std::string& lineEnd, const std::string& blankLine) {
        return R"(def split(num: int, num_bits_shift: int, length: int):
    a = []
    for _ in range(length):
        a.append( num & ((1 << num_bits_shift) - 1) )
        num = num >> num_bits_shift)" +
               lineEnd + R"(
    return tuple(a)

def pack(z, num_bits_shift: int) -> int:
    limbs = (z.d0, z.d1, z.d2)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))
)" + blankLine +
               R"(
def pack_extended(z, num_bits_shift: int) -> int:
    limbs = (z.d0, z.d1, z.d2, z.d3, z.d4, z.d5)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))

a = pack_extended(ids.a, num_bits_shift = 128)
div = pack(ids.div, num_bits_shift = 128)

quotient, remainder = divmod(a, div)

quotient_split = split(quotient, num_bits_shift=128, length=6)

ids.quotient.d0 = quotient_split[0]
ids.quotient.d1 = quotient_split[1]
ids.quotient.d2 = quotient_split[2]
ids.quotient.d3 = quotient_split[3]
ids.quotient.d4 = quotient_split[4]
ids.quotient.d5 = quotient_split[5]

remainder_split = split(remainder, num_bits_shift=128, length=3)
ids.remainder.d0 = remainder_split[0]
ids.remainder.d1 = remainder_split[1]
ids.remainder.d2 = remainder_split[2])";
    };
    r.add(divExtended("", ""), unsignedDivRem(uint768Members(), "a", uint384Members()));
    r.add(divExtended(" ", "    "), unsignedDivRem(uint768Members(), "a", uint384Members()));
    r.add(R"(def split(num: int, num_bits_shift: int, length: int):
    a = []
    for _ in range(length):
        a.append( num & ((1 << num_bits_shift) - 1) )
        num = num >> num_bits_shift
    return tuple(a)

def pack(z, num_bits_shift: int) -> int:
    limbs = (z.low, z.high)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))

def pack_extended(z, num_bits_shift: int) -> int:
    limbs = (z.d0, z.d1, z.d2, z.d3)
    return sum(limb << (num_bits_shift * i) for i, limb in enumerate(limbs))

x = pack_extended(ids.x, num_bits_shift = 128)
div = pack(ids.div, num_bits_shift = 128)

quotient, remainder = divmod(x, div)

quotient_split = split(quotient, num_bits_shift=128, length=4)

ids.quotient.d0 = quotient_split[0]
ids.quotient.d1 = quotient_split[1]
ids.quotient.d2 = quotient_split[2]
ids.quotient.d3 = quotient_split[3]

remainder_split = split(remainder, num_bits_shift=128, length=2)
ids.remainder.low = remainder_split[0]
ids.remainder.high = remainder_split[1])",
          unsignedDivRem(uint512Members(), "x", uint256Members()));
}

// uint256.cairo: addition's carries, the square root, the sign test and unsigned division (with
// 256-bit arithmetic while the halves are below 2^128, Python's big integers otherwise).
void registerUint256ArithmeticHints(HintRegistry& r) {
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
    r.add("memory[ap] = 1 if 0 <= (ids.a.high % PRIME) < 2 ** 127 else 0", [](HintContext& ctx) {
        const bool small = ctx.idsFelt("a.high") < Felt::powerOfTwo(127);
        ctx.memory().set(ctx.vm().ap, Felt::fromU64(small ? 1 : 0));
    });
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
                  const BigInt divisor = pack(ctx, "div", uint256Members());
                  if (divisor.isZero()) {
                      ctx.fail("uint256_unsigned_div_rem: division by zero");
                  }
                  const auto [q, r] = BigInt::divmod(pack(ctx, "a", uint256Members()), divisor);
                  writeLowHigh(ctx, "quotient", q);
                  writeLowHigh(ctx, "remainder", r);
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

void registerUintHints(HintRegistry& r) {
    registerUint256ArithmeticHints(r);
    registerUint256Hints(r);
    registerModularRootHints(r);
    registerUint384LibraryHints(r);
    registerWideDivisionHints(r);
}

} // namespace proofdesk::cairo
