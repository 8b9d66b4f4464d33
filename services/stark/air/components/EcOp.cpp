#include "SubsetSum.h"
#include "air/CurvePoints.h"

// The EC-op builtin: R = P + m·Q on the STARK curve. Q's doublings are in the trace, the subset
// sum over m's bits starts from P, and the seven memory cells (P, Q, m, R) are consecutive.

namespace proofdesk::stark::air {

void addEcOp(AirBuilder& b) {
    const BuiltinSpec& spec = *b.layout().builtin("ec_op");
    const std::uint64_t height = spec.parameter("scalar_height");
    const std::uint64_t instance = b.step("ec_op/p_x/addr");
    const std::uint64_t unit = b.step("ec_op/doubled_points/x");
    const auto addr = [&](const char* cell) {
        return b.at(std::string("ec_op/") + cell + "/addr");
    };
    const auto value = [&](const char* cell) {
        return b.at(std::string("ec_op/") + cell + "/value");
    };
    const Domain perInstance = {b.rows(instance)};

    b.constraint("ec_op/init_addr", addr("p_x") - b.value("initial_ec_op_addr"), {}, {b.row(0)});
    b.constraint("ec_op/p_x_addr", b.at("ec_op/p_x/addr", 1) - (addr("p_x") + 7),
                 {b.row(-std::int64_t(instance))}, perInstance);
    const char* order[] = {"p_x", "p_y", "q_x", "q_y", "m", "r_x", "r_y"};
    for (int i = 1; i < 7; ++i) {
        b.constraint(std::string("ec_op/") + order[i] + "_addr",
                     addr(order[i]) - (addr(order[i - 1]) + 1), {}, perInstance);
    }

    const Expr qx = b.at("ec_op/doubled_points/x");
    const Expr qy = b.at("ec_op/doubled_points/y");
    const Expr qx1 = b.at("ec_op/doubled_points/x", 1);
    const Expr qy1 = b.at("ec_op/doubled_points/y", 1);
    const Expr slope = b.at("ec_op/doubling_slope");
    const Domain notLast = {b.rows(instance, (height - 1) * unit)};
    const Domain units = {b.rows(unit)};
    b.constraint("ec_op/doubling_q/slope",
                 qx * qx * 3 + b.constant(curveAlpha()) - (qy + qy) * slope, notLast, units);
    b.constraint("ec_op/doubling_q/x", slope * slope - (qx + qx + qx1), notLast, units);
    b.constraint("ec_op/doubling_q/y", qy + qy1 - slope * (qx - qx1), notLast, units);
    b.constraint("ec_op/get_q_x", value("q_x") - qx, {}, perInstance);
    b.constraint("ec_op/get_q_y", value("q_y") - qy, {}, perInstance);

    const std::string sum = "ec_op/ec_subset_sum";
    addBitUnpacking(b, sum, sum + "/selector", perInstance);
    addSubsetSum(b, {sum, unit, instance, spec.parameter("n_bits"), height, true}, qx, qy);
    b.constraint("ec_op/get_m", b.at(sum + "/selector") - value("m"), {}, perInstance);
    b.constraint("ec_op/get_p_x", value("p_x") - b.at(sum + "/partial_sum/x"), {}, perInstance);
    b.constraint("ec_op/get_p_y", value("p_y") - b.at(sum + "/partial_sum/y"), {}, perInstance);
    const auto last = std::int64_t(height - 1);
    b.constraint("ec_op/set_r_x", value("r_x") - b.at(sum + "/partial_sum/x", last), {},
                 perInstance);
    b.constraint("ec_op/set_r_y", value("r_y") - b.at(sum + "/partial_sum/y", last), {},
                 perInstance);
}

} // namespace proofdesk::stark::air
