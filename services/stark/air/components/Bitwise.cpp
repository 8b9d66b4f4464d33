#include "air/AirBuilder.h"

// The bitwise builtin: per instance five memory cells x, y, x&y, x^y, x|y. The first four come
// from a pool of memory units, each value split into 16 diluted cells (spacing 4, so cell 4j+i
// holds bits 64j + i, 64j + i + 4, …); x + y = (x^y) + 2(x&y) is checked cell by cell, and
// x|y = (x&y) + (x^y). The top diluted cells are shifted once more and range-checked again
// (trim_unpacking) so that no value reaches bit 251.

namespace proofdesk::stark::air {

void addBitwise(AirBuilder& b) {
    const std::uint64_t instance = b.step("bitwise/x/addr");
    const std::uint64_t poolStep = b.step("bitwise/var_pool/addr");
    const std::uint64_t dilutedStep = b.step("bitwise/diluted_var_pool");
    const std::string pool = "bitwise/var_pool";
    const Domain perInstance = {b.rows(instance)};

    b.constraint("bitwise/init_var_pool_addr",
                 b.at(pool + "/addr") - b.value("initial_bitwise_addr"), {}, {b.row(0)});
    b.constraint("bitwise/step_var_pool_addr", b.at(pool + "/addr", 1) - (b.at(pool + "/addr") + 1),
                 {b.rows(instance, 3 * poolStep)}, {b.rows(poolStep)});
    b.constraint("bitwise/x_or_y_addr",
                 b.at("bitwise/x_or_y/addr") - (b.at("bitwise/x_xor_y/addr") + 1), {}, perInstance);
    b.constraint("bitwise/next_var_pool_addr",
                 b.atRow(pool + "/addr", std::int64_t(instance)) -
                     (b.at("bitwise/x_or_y/addr") + 1),
                 {b.row(-std::int64_t(instance))}, perInstance);

    // A pool value is the sum of its 16 diluted cells, cell 4j+i weighted 2^(64j+i).
    Expr partition = b.constant(0);
    for (int k = 0; k < 16; ++k) {
        partition =
            partition + b.at("bitwise/diluted_var_pool", k) * b.powerOfTwo(64 * (k / 4) + k % 4);
    }
    b.constraint("bitwise/partition", partition - b.at(pool + "/value"), {}, {b.rows(poolStep)});
    b.constraint("bitwise/or_is_and_plus_xor",
                 b.at("bitwise/x_or_y/value") -
                     (b.at("bitwise/x_and_y/value") + b.at("bitwise/x_xor_y/value")),
                 {}, perInstance);
    Domain eachDilutedCell;
    for (std::uint64_t k = 0; k < 16; ++k) {
        eachDilutedCell.push_back(b.rows(instance, k * dilutedStep));
    }
    b.constraint("bitwise/addition_is_xor_with_and",
                 b.at("bitwise/x") + b.at("bitwise/y") -
                     (b.at("bitwise/x_xor_y") + b.at("bitwise/x_and_y") * 2),
                 {}, eachDilutedCell);
    for (int k = 0; k < 4; ++k) {
        const std::string n = std::to_string(192 + k);
        b.constraint("bitwise/unique_unpacking" + n,
                     (b.at("bitwise/x_and_y", 12 + k) + b.at("bitwise/x_xor_y", 12 + k)) *
                             (k < 3 ? 16 : 256) -
                         b.at("bitwise/trim_unpacking" + n),
                     {}, perInstance);
    }
}

} // namespace proofdesk::stark::air
