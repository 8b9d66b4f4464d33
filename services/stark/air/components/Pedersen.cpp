#include "air/AirBuilder.h"
#include "air/CurvePoints.h"

// The Pedersen builtin: H(a, b) = [shift + a_low·P1 + a_high·P2 + b_low·P3 + b_high·P4].x, each
// input an elliptic-curve subset sum over its 252 bits, one bit per unit of u rows (256 units per
// input, the last four padding). The selector column holds the input shifted right by the unit's
// index, so bit k = s_k − 2·s_{k+1}; the bit-unpacking constraints keep a 252-bit input below the
// field prime (its top bits 192 … 251 cannot all be set beyond p's pattern). Layouts may run
// several hashes side by side (repetitions), each in its own columns.

namespace proofdesk::stark::air {
namespace {

// The points added at each unit of the two inputs' subset sums: 2^k·P for the 248 low bits and
// the 4 high bits, the last point repeated over the padding units.
std::pair<std::vector<Fp>, std::vector<Fp>> pedersenPeriodicValues() {
    const auto& points = pedersenPoints();
    std::vector<Fp> xs, ys;
    for (int input = 0; input < 2; ++input) {
        std::vector<CurvePoint> units = doublings(points[std::size_t(1 + 2 * input)], 248);
        const std::vector<CurvePoint> high = doublings(points[std::size_t(2 + 2 * input)], 4);
        units.insert(units.end(), high.begin(), high.end());
        while (units.size() < 256) {
            units.push_back(units.back());
        }
        for (const CurvePoint& p : units) {
            xs.push_back(p.first);
            ys.push_back(p.second);
        }
    }
    return {xs, ys};
}

} // namespace

void addPedersen(AirBuilder& b) {
    const BuiltinSpec& spec = *b.layout().builtin("pedersen");
    const std::uint64_t repetitions = spec.parameter("repetitions");
    const std::uint64_t unit = b.step("pedersen/hash0/ec_subset_sum/partial_sum/x");
    const std::uint64_t element = 256 * unit; // rows of one input
    const std::uint64_t hash = 2 * element;   // rows of one hash
    const std::uint64_t memory = b.step("pedersen/input0/addr");

    const auto [xs, ys] = pedersenPeriodicValues();
    const std::uint64_t periodicStep = b.layout().periodic.at("pedersen/points/x").step;
    const Expr pointX = b.periodic(b.addPeriodic({"pedersen/points/x", xs, periodicStep}));
    const Expr pointY = b.periodic(b.addPeriodic({"pedersen/points/y", ys, periodicStep}));
    const auto& shift = pedersenPoints()[0];

    const Domain perElement = {b.rows(element)};
    const Domain notLastUnit = {b.rows(element, 255 * unit)};
    const Domain everyUnit = {b.rows(unit)};
    for (std::uint64_t r = 0; r < repetitions; ++r) {
        const std::string hashName = "pedersen/hash" + std::to_string(r);
        const std::string sum = hashName + "/ec_subset_sum";
        const std::string selector = sum + "/selector";
        const auto s = [&](int k) { return b.at(selector, k); };
        const auto sBit = [&](int k) { return s(k) - s(k + 1) * 2; };
        const Expr ones196 = b.at(sum + "/bit_unpacking/prod_ones196");
        const Expr ones192 = b.at(sum + "/bit_unpacking/prod_ones192");
        const std::string psX = sum + "/partial_sum/x";
        const std::string psY = sum + "/partial_sum/y";
        const Expr slope = b.at(sum + "/slope");
        const Expr bit = sBit(0);
        const Expr bitNeg = b.one() - bit;

        // ones196 = bit251·bit196 and ones192 = ones196·bit192: when the top bits are set, the
        // bits below them must be zero (the input stays below p).
        b.constraint(sum + "/bit_unpacking/last_one_is_zero", ones192 * sBit(0), {}, perElement);
        b.constraint(sum + "/bit_unpacking/zeroes_between_ones0",
                     ones192 * (s(1) - b.powerOfTwo(191) * s(192)), {}, perElement);
        b.constraint(sum + "/bit_unpacking/cumulative_bit192", ones192 - ones196 * sBit(192), {},
                     perElement);
        b.constraint(sum + "/bit_unpacking/zeroes_between_ones192", ones196 * (s(193) - s(196) * 8),
                     {}, perElement);
        b.constraint(sum + "/bit_unpacking/cumulative_bit196", ones196 - sBit(251) * sBit(196), {},
                     perElement);
        b.constraint(sum + "/bit_unpacking/zeroes_between_ones196",
                     sBit(251) * (s(197) - b.powerOfTwo(54) * s(251)), {}, perElement);
        b.constraint(sum + "/booleanity_test", bit * (bit - 1), notLastUnit, everyUnit);
        b.constraint(sum + "/bit_extraction_end", s(0), {}, {b.rows(element, 252 * unit)});
        b.constraint(sum + "/zeros_tail", s(0), {}, {b.rows(element, 255 * unit)});
        b.constraint(sum + "/add_points/slope",
                     bit * (b.at(psY) - pointY) - slope * (b.at(psX) - pointX), notLastUnit,
                     everyUnit);
        b.constraint(sum + "/add_points/x",
                     slope * slope - bit * (b.at(psX) + pointX + b.at(psX, 1)), notLastUnit,
                     everyUnit);
        b.constraint(sum + "/add_points/y",
                     bit * (b.at(psY) + b.at(psY, 1)) - slope * (b.at(psX) - b.at(psX, 1)),
                     notLastUnit, everyUnit);
        b.constraint(sum + "/copy_point/x", bitNeg * (b.at(psX, 1) - b.at(psX)), notLastUnit,
                     everyUnit);
        b.constraint(sum + "/copy_point/y", bitNeg * (b.at(psY, 1) - b.at(psY)), notLastUnit,
                     everyUnit);
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
