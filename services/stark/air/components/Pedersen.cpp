#include "SubsetSum.h"
#include "air/CurvePoints.h"

// The Pedersen builtin: H(a, b) = [shift + a_low·P1 + a_high·P2 + b_low·P3 + b_high·P4].x, each
// input an elliptic-curve subset sum over its 252 bits, one bit per unit of u rows (256 units per
// input, the last four padding). The selector column holds the input shifted right by the unit's
// index, so bit k = s_k − 2·s_{k+1}; the bit-unpacking constraints keep a 252-bit input below the
// field prime (its top bits 192 … 251 cannot all be set beyond p's pattern). Layouts may run
// several hashes side by side (repetitions), each in its own columns.

namespace proofdesk::stark::air {

void addPedersen(AirBuilder& b) {
    const BuiltinSpec& spec = *b.layout().builtin("pedersen");
    const std::uint64_t repetitions = spec.parameter("repetitions");
    const std::uint64_t unit = b.step("pedersen/hash0/ec_subset_sum/partial_sum/x");
    const std::uint64_t element = 256 * unit; // rows of one input
    const std::uint64_t hash = 2 * element;   // rows of one hash
    const std::uint64_t memory = b.step("pedersen/input0/addr");

    std::vector<Fp> xs, ys;
    for (int input = 0; input < 2; ++input) {
        for (const CurvePoint& p : pedersenUnitPoints(input)) {
            xs.push_back(p.first);
            ys.push_back(p.second);
        }
    }
    const std::uint64_t periodicStep = b.layout().periodic.at("pedersen/points/x").step;
    const Expr pointX = b.periodic(b.addPeriodic({"pedersen/points/x", xs, periodicStep}));
    const Expr pointY = b.periodic(b.addPeriodic({"pedersen/points/y", ys, periodicStep}));
    const auto& shift = pedersenPoints()[0];

    const Domain perElement = {b.rows(element)};
    for (std::uint64_t r = 0; r < repetitions; ++r) {
        const std::string hashName = "pedersen/hash" + std::to_string(r);
        const std::string sum = hashName + "/ec_subset_sum";
        const std::string psX = sum + "/partial_sum/x";
        const std::string psY = sum + "/partial_sum/y";
        addBitUnpacking(b, sum, sum + "/selector", perElement);
        addSubsetSum(b, {sum, unit, element, 252, 256, false}, pointX, pointY);
        b.constraint(hashName + "/copy_point/x", b.at(psX, 256) - b.at(psX, 255),
                     {b.rows(hash, element)}, perElement);
        b.constraint(hashName + "/copy_point/y", b.at(psY, 256) - b.at(psY, 255),
                     {b.rows(hash, element)}, perElement);
        b.constraint(hashName + "/init/x", b.at(psX) - b.constant(shift.first), {}, {b.rows(hash)});
        b.constraint(hashName + "/init/y", b.at(psY) - b.constant(shift.second), {},
                     {b.rows(hash)});
    }

    const auto selectorOf = [&](std::uint64_t r) {
        return "pedersen/hash" + std::to_string(r) + "/ec_subset_sum/selector";
    };
    const auto sumXOf = [&](std::uint64_t r) {
        return "pedersen/hash" + std::to_string(r) + "/ec_subset_sum/partial_sum/x";
    };
    const Domain perHash = {b.rows(hash)};
    const Domain perMemoryUnit = {b.rows(memory)};
    for (std::uint64_t r = 0; r < repetitions; ++r) {
        b.constraint("pedersen/input0_value" + std::to_string(r),
                     b.at("pedersen/input0/value", std::int64_t(r)) - b.at(selectorOf(r)), {},
                     perHash);
    }
    b.constraint("pedersen/input0_addr",
                 b.at("pedersen/input0/addr", 1) - (b.at("pedersen/output/addr") + 1),
                 {b.row(-std::int64_t(memory))}, perMemoryUnit);
    b.constraint("pedersen/init_addr",
                 b.at("pedersen/input0/addr") - b.value("initial_pedersen_addr"), {}, {b.row(0)});
    for (std::uint64_t r = 0; r < repetitions; ++r) {
        b.constraint("pedersen/input1_value" + std::to_string(r),
                     b.at("pedersen/input1/value", std::int64_t(r)) - b.at(selectorOf(r), 256), {},
                     perHash);
    }
    b.constraint("pedersen/input1_addr",
                 b.at("pedersen/input1/addr") - (b.at("pedersen/input0/addr") + 1), {},
                 perMemoryUnit);
    for (std::uint64_t r = 0; r < repetitions; ++r) {
        b.constraint("pedersen/output_value" + std::to_string(r),
                     b.at("pedersen/output/value", std::int64_t(r)) - b.at(sumXOf(r), 511), {},
                     perHash);
    }
    b.constraint("pedersen/output_addr",
                 b.at("pedersen/output/addr") - (b.at("pedersen/input1/addr") + 1), {},
                 perMemoryUnit);
}

} // namespace proofdesk::stark::air
