#include "SubsetSum.h"
#include "air/CurvePoints.h"

// The ECDSA builtin (the STARK curve): for a public key Q, message z and signature (r, w) it
// checks that the x of w·(z·G + r·Q) is r. One instance computes z·G (a subset sum over the
// generator's doublings, a periodic column) and two key exponentiations: r·Q, whose doublings
// Q, 2Q, … are in the trace, and then w·R for R = z·G + r·Q. Sums start from the shift point
// (z·G from its negation) so no addition meets the point at infinity, and every added pair has
// distinct x (an inverse is given).

namespace proofdesk::stark::air {

void addEcdsa(AirBuilder& b) {
    const BuiltinSpec& spec = *b.layout().builtin("ecdsa");
    const std::uint64_t height = spec.parameter("element_height");
    const std::string sig = "ecdsa/signature0";
    const std::string key = sig + "/exponentiate_key";
    const std::string gen = sig + "/exponentiate_generator";
    const std::uint64_t keyUnit = b.step(sig + "/key_points/x");
    const std::uint64_t genUnit = b.step(gen + "/partial_sum/x");
    const std::uint64_t keyRows = height * keyUnit; // one key exponentiation
    const std::uint64_t instance = height * genUnit;
    const auto last = std::int64_t(height - 1);

    std::vector<Fp> gxs, gys;
    for (const CurvePoint& p : generatorUnitPoints(spec.parameter("element_bits"), height)) {
        gxs.push_back(p.first);
        gys.push_back(p.second);
    }
    const std::uint64_t periodicStep = b.layout().periodic.at("ecdsa/generator_points/x").step;
    const Expr pointX = b.periodic(b.addPeriodic({"ecdsa/generator_points/x", gxs, periodicStep}));
    const Expr pointY = b.periodic(b.addPeriodic({"ecdsa/generator_points/y", gys, periodicStep}));
    const auto& shift = pedersenPoints()[0];
    const Expr shiftX = b.constant(shift.first);
    const Expr shiftY = b.constant(shift.second);
    const Expr alpha = b.constant(curveAlpha());
    const Expr beta = b.constant(curveBeta());

    const Expr keyX = b.at(sig + "/key_points/x");
    const Expr keyY = b.at(sig + "/key_points/y");
    const Expr keyX1 = b.at(sig + "/key_points/x", 1);
    const Expr keyY1 = b.at(sig + "/key_points/y", 1);
    const Expr doublingSlope = b.at(sig + "/doubling_slope");
    const Domain keyUnits = {b.rows(keyUnit)};
    const Domain notLastKeyUnit = {b.rows(keyRows, std::uint64_t(last) * keyUnit)};
    b.constraint(sig + "/doubling_key/slope",
                 keyX * keyX * 3 + alpha - (keyY + keyY) * doublingSlope, notLastKeyUnit, keyUnits);
    b.constraint(sig + "/doubling_key/x", doublingSlope * doublingSlope - (keyX + keyX + keyX1),
                 notLastKeyUnit, keyUnits);
    b.constraint(sig + "/doubling_key/y", keyY + keyY1 - doublingSlope * (keyX - keyX1),
                 notLastKeyUnit, keyUnits);

    const std::uint64_t bits = spec.parameter("element_bits");
    addSubsetSum(b, {gen, genUnit, instance, bits, height, true}, pointX, pointY);
    addSubsetSum(b, {key, keyUnit, keyRows, bits, height, true}, keyX, keyY);

    const Domain perInstance = {b.rows(instance)};
    const Domain perKey = {b.rows(keyRows)};
    b.constraint(sig + "/init_gen/x", b.at(gen + "/partial_sum/x") - shiftX, {}, perInstance);
    b.constraint(sig + "/init_gen/y", b.at(gen + "/partial_sum/y") + shiftY, {}, perInstance);
    b.constraint(sig + "/init_key/x", b.at(key + "/partial_sum/x") - shiftX, {}, perKey);
    b.constraint(sig + "/init_key/y", b.at(key + "/partial_sum/y") - shiftY, {}, perKey);

    // z·G + r·Q (both sums at their last unit) becomes the base point of the second key
    // exponentiation.
    const Expr genX = b.at(gen + "/partial_sum/x", last);
    const Expr genY = b.at(gen + "/partial_sum/y", last);
    const Expr sumX = b.at(key + "/partial_sum/x", last);
    const Expr sumY = b.at(key + "/partial_sum/y", last);
    const Expr resultX = b.at(sig + "/key_points/x", std::int64_t(height));
    const Expr resultY = b.at(sig + "/key_points/y", std::int64_t(height));
    const Expr addSlope = b.at(sig + "/add_results_slope");
    b.constraint(sig + "/add_results/slope", genY - (sumY + addSlope * (genX - sumX)), {},
                 perInstance);
    b.constraint(sig + "/add_results/x", addSlope * addSlope - (genX + sumX + resultX), {},
                 perInstance);
    b.constraint(sig + "/add_results/y", genY + resultY - addSlope * (genX - resultX), {},
                 perInstance);
    b.constraint(sig + "/add_results/x_diff_inv",
                 b.at(sig + "/add_results_inv") * (genX - sumX) - 1, {}, perInstance);

    // w·R minus the shift point must have x = r.
    const Expr finalX = b.at(key + "/partial_sum/x", 2 * std::int64_t(height) - 1);
    const Expr finalY = b.at(key + "/partial_sum/y", 2 * std::int64_t(height) - 1);
    const Expr extractSlope = b.at(sig + "/extract_r_slope");
    const Expr r = b.at(key + "/selector");
    b.constraint(sig + "/extract_r/slope", finalY + shiftY - extractSlope * (finalX - shiftX), {},
                 perInstance);
    b.constraint(sig + "/extract_r/x", extractSlope * extractSlope - (finalX + shiftX + r), {},
                 perInstance);
    b.constraint(sig + "/extract_r/x_diff_inv",
                 b.at(sig + "/extract_r_inv") * (finalX - shiftX) - 1, {}, perInstance);
    b.constraint(sig + "/z_nonzero", b.at(gen + "/selector") * b.at(sig + "/z_inv") - 1, {},
                 perInstance);
    b.constraint(sig + "/r_and_w_nonzero", r * b.at(sig + "/r_w_inv") - 1, {}, perKey);
    b.constraint(sig + "/q_on_curve/x_squared", b.at(sig + "/q_x_squared") - keyX * keyX, {},
                 perInstance);
    b.constraint(sig + "/q_on_curve/on_curve",
                 keyY * keyY - (keyX * b.at(sig + "/q_x_squared") + alpha * keyX + beta), {},
                 perInstance);

    const std::uint64_t memory = b.step("ecdsa/pubkey/addr");
    b.constraint("ecdsa/init_addr", b.at("ecdsa/pubkey/addr") - b.value("initial_ecdsa_addr"), {},
                 {b.row(0)});
    b.constraint("ecdsa/message_addr", b.at("ecdsa/message/addr") - (b.at("ecdsa/pubkey/addr") + 1),
                 {}, {b.rows(memory)});
    b.constraint("ecdsa/pubkey_addr",
                 b.at("ecdsa/pubkey/addr", 1) - (b.at("ecdsa/message/addr") + 1),
                 {b.row(-std::int64_t(memory))}, {b.rows(memory)});
    b.constraint("ecdsa/message_value0", b.at("ecdsa/message/value") - b.at(gen + "/selector"), {},
                 {b.rows(memory)});
    b.constraint("ecdsa/pubkey_value0", b.at("ecdsa/pubkey/value") - keyX, {}, {b.rows(memory)});
}

} // namespace proofdesk::stark::air
