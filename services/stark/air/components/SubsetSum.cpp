#include "SubsetSum.h"

namespace proofdesk::stark::air {

void addSubsetSum(AirBuilder& b, const SubsetSum& sum, const Expr& pointX, const Expr& pointY) {
    const std::string selector = sum.name + "/selector";
    const Expr bit = b.at(selector) - b.at(selector, 1) * 2;
    const Expr bitNeg = b.one() - bit;
    const Expr sx = b.at(sum.name + "/partial_sum/x");
    const Expr sy = b.at(sum.name + "/partial_sum/y");
    const Expr sx1 = b.at(sum.name + "/partial_sum/x", 1);
    const Expr sy1 = b.at(sum.name + "/partial_sum/y", 1);
    const Expr slope = b.at(sum.name + "/slope");
    const Domain units = {b.rows(sum.unit)};
    const Domain notLast = {b.rows(sum.period, (sum.height - 1) * sum.unit)};

    b.constraint(sum.name + "/booleanity_test", bit * (bit - 1), notLast, units);
    b.constraint(sum.name + "/bit_extraction_end", b.at(selector), {},
                 {b.rows(sum.period, sum.bits * sum.unit)});
    b.constraint(sum.name + "/zeros_tail", b.at(selector), {}, notLast);
    b.constraint(sum.name + "/add_points/slope", bit * (sy - pointY) - slope * (sx - pointX),
                 notLast, units);
    b.constraint(sum.name + "/add_points/x", slope * slope - bit * (sx + pointX + sx1), notLast,
                 units);
    b.constraint(sum.name + "/add_points/y", bit * (sy + sy1) - slope * (sx - sx1), notLast, units);
    if (sum.xDiffInverse) {
        b.constraint(sum.name + "/add_points/x_diff_inv",
                     b.at(sum.name + "/x_diff_inv") * (sx - pointX) - 1, notLast, units);
    }
    b.constraint(sum.name + "/copy_point/x", bitNeg * (sx1 - sx), notLast, units);
    b.constraint(sum.name + "/copy_point/y", bitNeg * (sy1 - sy), notLast, units);
}

void addBitUnpacking(AirBuilder& b, const std::string& name, const std::string& selector,
                     const Domain& perScalar) {
    const auto s = [&](int k) { return b.at(selector, k); };
    const auto bit = [&](int k) { return s(k) - s(k + 1) * 2; };
    const Expr ones196 = b.at(name + "/bit_unpacking/prod_ones196");
    const Expr ones192 = b.at(name + "/bit_unpacking/prod_ones192");
    b.constraint(name + "/bit_unpacking/last_one_is_zero", ones192 * bit(0), {}, perScalar);
    b.constraint(name + "/bit_unpacking/zeroes_between_ones0",
                 ones192 * (s(1) - b.powerOfTwo(191) * s(192)), {}, perScalar);
    b.constraint(name + "/bit_unpacking/cumulative_bit192", ones192 - ones196 * bit(192), {},
                 perScalar);
    b.constraint(name + "/bit_unpacking/zeroes_between_ones192", ones196 * (s(193) - s(196) * 8),
                 {}, perScalar);
    b.constraint(name + "/bit_unpacking/cumulative_bit196", ones196 - bit(251) * bit(196), {},
                 perScalar);
    b.constraint(name + "/bit_unpacking/zeroes_between_ones196",
                 bit(251) * (s(197) - b.powerOfTwo(54) * s(251)), {}, perScalar);
}

} // namespace proofdesk::stark::air
