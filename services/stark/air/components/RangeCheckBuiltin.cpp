#include "air/AirBuilder.h"

// The range-check builtin: each memory cell of its segment is the composition of n_parts 16-bit
// range-checked parts (so it is below 2^(16·n_parts)), its addresses consecutive.

namespace proofdesk::stark::air {

void addRangeCheckBuiltin(AirBuilder& b) {
    const std::uint64_t parts = b.layout().builtin("range_check")->parameter("n_parts");
    const std::uint64_t step = b.step("range_check_builtin/mem/addr");
    Expr value = b.at("range_check_builtin/inner_range_check");
    for (std::uint64_t k = 1; k < parts; ++k) {
        value = value * b.powerOfTwo(16) +
                b.at("range_check_builtin/inner_range_check", std::int64_t(k));
    }
    b.constraint("range_check_builtin/value", value - b.at("range_check_builtin/mem/value"), {},
                 {b.rows(step)});
    b.constraint("range_check_builtin/addr_step",
                 b.at("range_check_builtin/mem/addr", 1) -
                     (b.at("range_check_builtin/mem/addr") + 1),
                 {b.row(-std::int64_t(step))}, {b.rows(step)});
    b.constraint("range_check_builtin/init_addr",
                 b.at("range_check_builtin/mem/addr") - b.value("initial_range_check_addr"), {},
                 {b.row(0)});
}

} // namespace proofdesk::stark::air
