// Cairo 1's hints on the STARK curve and its field: a random point to start an EC state from, and
// a field element's square root (or its triple's, proving it has none).

#include "cairo/cairo1/Cairo1Hints.h"

namespace proofdesk::cairo::cairo1 {
namespace {

using crypto::BigInt;

const BigInt& fieldPrime() {
    static const BigInt p =
        *BigInt::parse("0x800000000000011000000000000000000000000000000000000000000000001");
    return p;
}

// The smaller square root of v modulo p, if v is a square.
std::optional<Felt> lowerRoot(const Felt& v) {
    const auto root = BigInt::sqrtModPrime(BigInt::fromFelt(v), fieldPrime());
    if (!root) {
        return std::nullopt;
    }
    const BigInt other = (fieldPrime() - *root).mod(fieldPrime());
    return (other < *root ? other : *root).toFelt();
}

// Any point of the curve will do: the program checks it is on the curve and takes it out again
// (ec_state_finalize), so its result does not depend on it. The reference draws it at random;
// here it is the first x = 0, 1, 2, ... on the curve, with the lower y: the same run twice gives
// the same memory.
HintFn randomEcPoint(const nlohmann::json& f) {
    const CellRef xCell = cellRefOf(f.at("x"));
    const CellRef yCell = cellRefOf(f.at("y"));
    return [=](HintContext& c) {
        static const Felt beta =
            *Felt::parse("0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89");
        for (std::uint64_t i = 0; i < 1000; ++i) {
            const Felt x = Felt::fromU64(i);
            if (const auto y = lowerRoot(x * x * x + x + beta)) {
                c.write(xCell, x);
                c.write(yCell, *y);
                return;
            }
        }
        c.fail("no point of the curve was found");
    };
}

HintFn fieldSqrt(const nlohmann::json& f) {
    const ResOperand value = resOperandOf(f.at("val"));
    const CellRef dst = cellRefOf(f.at("sqrt"));
    return [=](HintContext& c) {
        const Felt v = c.value(value);
        // 3 is not a square modulo p: exactly one of v and 3v is one (v != 0).
        auto root = lowerRoot(v);
        if (!root) {
            root = lowerRoot(v * Felt::fromU64(3));
        }
        if (!root) {
            c.fail("FieldSqrt found no root of v or 3v");
        }
        c.write(dst, *root);
    };
}

} // namespace

void addCurveHints(HintTable& table) {
    table["RandomEcPoint"] = randomEcPoint;
    table["FieldSqrt"] = fieldSqrt;
}

} // namespace proofdesk::cairo::cairo1
