// Cairo 1's arithmetic hints: comparisons, division and square roots on felts, u128 limbs of
// u256 and u512, the linear split, segment allocation, and the inverse modulo a u256.

#include "cairo/cairo1/Cairo1Hints.h"

#include <iostream>

namespace proofdesk::cairo::cairo1 {
namespace {

using crypto::BigInt;

const BigInt& two128() {
    static const BigInt value = BigInt::powerOfTwo(128);
    return value;
}

// (low, high) of a value split at 2^bits.
std::pair<BigInt, BigInt> split(const BigInt& value, int bits) {
    return {value.mod(BigInt::powerOfTwo(bits)), value >> bits};
}

BigInt nonZero(const HintContext& context, const BigInt& value, const char* what) {
    if (value.isZero()) {
        context.fail(std::string(what) + " is zero");
    }
    return value;
}

HintFn allocSegment(const nlohmann::json& f) {
    const CellRef dst = cellRefOf(f.at("dst"));
    return [dst](HintContext& c) { c.write(dst, c.memory().addSegment()); };
}

// TestLessThan / TestLessThanOrEqual: canonical values compared.
HintFn compare(const nlohmann::json& f, bool orEqual) {
    const ResOperand lhs = resOperandOf(f.at("lhs"));
    const ResOperand rhs = resOperandOf(f.at("rhs"));
    const CellRef dst = cellRefOf(f.at("dst"));
    return [=](HintContext& c) {
        const Felt a = c.value(lhs);
        const Felt b = c.value(rhs);
        c.write(dst, Felt::fromU64((orEqual ? a <= b : a < b) ? 1 : 0));
    };
}

// TestLessThanOrEqualAddress: two addresses, compared by (segment, offset).
HintFn compareAddresses(const nlohmann::json& f) {
    const ResOperand lhs = resOperandOf(f.at("lhs"));
    const ResOperand rhs = resOperandOf(f.at("rhs"));
    const CellRef dst = cellRefOf(f.at("dst"));
    return [=](HintContext& c) {
        const Value a = c.maybe(lhs);
        const Value b = c.maybe(rhs);
        bool lessOrEqual = false;
        if (a.isAddress() && b.isAddress()) {
            lessOrEqual = !(b.address() < a.address());
        } else if (a.isFelt() && b.isFelt()) {
            lessOrEqual = a.felt() <= b.felt();
        } else {
            lessOrEqual = a.isAddress(); // an address orders before a number (the reference's)
        }
        c.write(dst, Felt::fromU64(lessOrEqual ? 1 : 0));
    };
}

HintFn wideMul128(const nlohmann::json& f) {
    const ResOperand lhs = resOperandOf(f.at("lhs"));
    const ResOperand rhs = resOperandOf(f.at("rhs"));
    const CellRef high = cellRefOf(f.at("high"));
    const CellRef low = cellRefOf(f.at("low"));
    return [=](HintContext& c) {
        const auto [lo, hi] = split(c.integer(lhs) * c.integer(rhs), 128);
        c.write(high, hi);
        c.write(low, lo);
    };
}

HintFn divMod(const nlohmann::json& f) {
    const ResOperand lhs = resOperandOf(f.at("lhs"));
    const ResOperand rhs = resOperandOf(f.at("rhs"));
    const CellRef quotient = cellRefOf(f.at("quotient"));
    const CellRef remainder = cellRefOf(f.at("remainder"));
    return [=](HintContext& c) {
        const auto [q, r] =
            BigInt::divmod(c.integer(lhs), nonZero(c, c.integer(rhs), "DivMod's divisor"));
        c.write(quotient, q);
        c.write(remainder, r);
    };
}

HintFn uint256DivMod(const nlohmann::json& f) {
    const ResOperand d0 = resOperandOf(f.at("dividend0"));
    const ResOperand d1 = resOperandOf(f.at("dividend1"));
    const ResOperand s0 = resOperandOf(f.at("divisor0"));
    const ResOperand s1 = resOperandOf(f.at("divisor1"));
    const CellRef q0 = cellRefOf(f.at("quotient0"));
    const CellRef q1 = cellRefOf(f.at("quotient1"));
    const CellRef r0 = cellRefOf(f.at("remainder0"));
    const CellRef r1 = cellRefOf(f.at("remainder1"));
    return [=](HintContext& c) {
        const BigInt dividend = c.integer(d0) + c.integer(d1) * two128();
        const BigInt divisor = c.integer(s0) + c.integer(s1) * two128();
        const auto [q, r] = BigInt::divmod(dividend, nonZero(c, divisor, "the u256 divisor"));
        const auto [qLow, qHigh] = split(q, 128);
        const auto [rLow, rHigh] = split(r, 128);
        c.write(q0, qLow);
        c.write(q1, qHigh);
        c.write(r0, rLow);
        c.write(r1, rHigh);
    };
}

HintFn uint512DivModByUint256(const nlohmann::json& f) {
    std::vector<ResOperand> dividend;
    std::vector<CellRef> quotient;
    for (int i = 0; i < 4; ++i) {
        dividend.push_back(resOperandOf(f.at("dividend" + std::to_string(i))));
        quotient.push_back(cellRefOf(f.at("quotient" + std::to_string(i))));
    }
    const ResOperand s0 = resOperandOf(f.at("divisor0"));
    const ResOperand s1 = resOperandOf(f.at("divisor1"));
    const CellRef r0 = cellRefOf(f.at("remainder0"));
    const CellRef r1 = cellRefOf(f.at("remainder1"));
    return [=](HintContext& c) {
        BigInt value = 0;
        for (int i = 3; i >= 0; --i) {
            value = (value << 128) + c.integer(dividend[std::size_t(i)]);
        }
        const BigInt divisor = c.integer(s0) + c.integer(s1) * two128();
        const auto [q, r] = BigInt::divmod(value, nonZero(c, divisor, "the u256 divisor"));
        for (int i = 0; i < 3; ++i) {
            c.write(quotient[std::size_t(i)], (q >> (128 * i)).mod(two128()));
        }
        c.write(quotient[3], q >> 384);
        const auto [rLow, rHigh] = split(r, 128);
        c.write(r0, rLow);
        c.write(r1, rHigh);
    };
}

HintFn squareRoot(const nlohmann::json& f) {
    const ResOperand value = resOperandOf(f.at("value"));
    const CellRef dst = cellRefOf(f.at("dst"));
    return [=](HintContext& c) { c.write(dst, BigInt::isqrt(c.integer(value))); };
}

HintFn uint256SquareRoot(const nlohmann::json& f) {
    const ResOperand low = resOperandOf(f.at("value_low"));
    const ResOperand high = resOperandOf(f.at("value_high"));
    const CellRef sqrt0 = cellRefOf(f.at("sqrt0"));
    const CellRef sqrt1 = cellRefOf(f.at("sqrt1"));
    const CellRef remainderLow = cellRefOf(f.at("remainder_low"));
    const CellRef remainderHigh = cellRefOf(f.at("remainder_high"));
    const CellRef flag = cellRefOf(f.at("sqrt_mul_2_minus_remainder_ge_u128"));
    return [=](HintContext& c) {
        const BigInt value = c.integer(low) + c.integer(high) * two128();
        const BigInt root = BigInt::isqrt(value);
        const BigInt remainder = value - root * root;
        const auto [rootLow, rootHigh] = split(root, 64); // 64-bit limbs
        const auto [remLow, remHigh] = split(remainder, 128);
        c.write(sqrt0, rootLow);
        c.write(sqrt1, rootHigh);
        c.write(remainderLow, remLow);
        c.write(remainderHigh, remHigh);
        c.write(flag, Felt::fromU64(root * 2 - remainder >= two128() ? 1 : 0));
    };
}

HintFn linearSplit(const nlohmann::json& f) {
    const ResOperand value = resOperandOf(f.at("value"));
    const ResOperand scalar = resOperandOf(f.at("scalar"));
    const ResOperand maxX = resOperandOf(f.at("max_x"));
    const CellRef x = cellRefOf(f.at("x"));
    const CellRef y = cellRefOf(f.at("y"));
    return [=](HintContext& c) {
        const BigInt v = c.integer(value);
        const BigInt s = nonZero(c, c.integer(scalar), "LinearSplit's scalar");
        const BigInt mx = c.integer(maxX);
        BigInt quotient = BigInt::divmod(v, s).first;
        if (mx < quotient) {
            quotient = mx;
        }
        c.write(x, quotient);
        c.write(y, v - quotient * s);
    };
}

HintFn allocConstantSize(const nlohmann::json& f) {
    const ResOperand size = resOperandOf(f.at("size"));
    const CellRef dst = cellRefOf(f.at("dst"));
    return [=](HintContext& c) {
        const Felt amount = c.value(size);
        if (!amount.fitsU64() || amount.low64() > (std::uint64_t{1} << 32)) {
            c.fail("AllocConstantSize's size is not a small number");
        }
        std::optional<Relocatable>& next = c.state().boxedSegment;
        if (!next) {
            next = c.memory().addSegment();
        }
        c.write(dst, *next);
        *next = *next + static_cast<std::int64_t>(amount.low64());
    };
}

// Prints the felts of [start, end) (cairo-lang's debug print), for a person reading the run.
HintFn debugPrint(const nlohmann::json& f) {
    const ResOperand start = resOperandOf(f.at("start"));
    const ResOperand end = resOperandOf(f.at("end"));
    return [=](HintContext& c) {
        const Relocatable from = c.pointer(start);
        const Relocatable to = c.pointer(end);
        if (from.segment != to.segment || to.offset < from.offset) {
            c.fail("DebugPrint's range does not end in its segment");
        }
        for (Relocatable at = from; at.offset < to.offset; at = at + 1) {
            const Felt word = c.feltAt(at);
            const auto text = shortString(word);
            std::cout << "[DEBUG]\t" << word.toHex()
                      << (text && !text->empty() ? " ('" + *text + "')" : std::string()) << "\n";
        }
        std::cout.flush();
    };
}

HintFn u256InvModN(const nlohmann::json& f) {
    const ResOperand b0 = resOperandOf(f.at("b0"));
    const ResOperand b1 = resOperandOf(f.at("b1"));
    const ResOperand n0 = resOperandOf(f.at("n0"));
    const ResOperand n1 = resOperandOf(f.at("n1"));
    const CellRef g0OrNoInv = cellRefOf(f.at("g0_or_no_inv"));
    const CellRef g1Option = cellRefOf(f.at("g1_option"));
    const CellRef sOrR0 = cellRefOf(f.at("s_or_r0"));
    const CellRef sOrR1 = cellRefOf(f.at("s_or_r1"));
    const CellRef tOrK0 = cellRefOf(f.at("t_or_k0"));
    const CellRef tOrK1 = cellRefOf(f.at("t_or_k1"));
    return [=](HintContext& c) {
        const BigInt b = c.integer(b0) + c.integer(b1) * two128();
        const BigInt n = nonZero(c, c.integer(n0) + c.integer(n1) * two128(), "the modulus");
        const auto write256 = [&c](const CellRef& low, const CellRef& high, const BigInt& value) {
            const auto [lo, hi] = split(value, 128);
            c.write(low, lo);
            c.write(high, hi);
        };
        if (n == BigInt(1)) {
            c.write(sOrR0, c.value(b0));
            c.write(sOrR1, c.value(b1));
            c.write(tOrK0, Felt::one());
            c.write(tOrK1, Felt::zero());
            c.write(g0OrNoInv, Felt::one());
            c.write(g1Option, Felt::zero());
            return;
        }
        // gcd(n, b) by Euclid, with b's Bézout coefficient.
        BigInt r0 = n;
        BigInt r1 = b;
        BigInt t0 = 0;
        BigInt t1 = 1;
        while (!r1.isZero()) {
            const auto [q, r] = BigInt::divmod(r0, r1);
            r0 = r1;
            r1 = r;
            const BigInt t = t0 - q * t1;
            t0 = t1;
            t1 = t;
        }
        BigInt g = r0;
        if (g != BigInt(1)) {
            if (!g.isOdd()) {
                g = 2; // b and n are both even
            }
            write256(sOrR0, sOrR1, BigInt::divmod(b, g).first);
            write256(tOrK0, tOrK1, BigInt::divmod(n, g).first);
            write256(g0OrNoInv, g1Option, g);
            return;
        }
        const BigInt r = t0.mod(n); // b^-1 mod n
        write256(sOrR0, sOrR1, r);
        write256(tOrK0, tOrK1, BigInt::divmod(r * b - 1, n).first);
        c.write(g0OrNoInv, Felt::zero());
    };
}

} // namespace

void addMathHints(HintTable& table) {
    table["AllocSegment"] = allocSegment;
    table["TestLessThan"] = [](const nlohmann::json& f) { return compare(f, false); };
    table["TestLessThanOrEqual"] = [](const nlohmann::json& f) { return compare(f, true); };
    table["TestLessThanOrEqualAddress"] = compareAddresses;
    table["WideMul128"] = wideMul128;
    table["DivMod"] = divMod;
    table["Uint256DivMod"] = uint256DivMod;
    table["Uint512DivModByUint256"] = uint512DivModByUint256;
    table["SquareRoot"] = squareRoot;
    table["Uint256SquareRoot"] = uint256SquareRoot;
    table["LinearSplit"] = linearSplit;
    table["AllocConstantSize"] = allocConstantSize;
    table["DebugPrint"] = debugPrint;
    table["U256InvModN"] = u256InvModN;
}

} // namespace proofdesk::cairo::cairo1
