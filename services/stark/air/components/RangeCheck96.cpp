#include "air/AirBuilder.h"

// The range-check-96 builtin: each memory cell of its segment is the composition of n_parts
// 16-bit range-checked parts (six: below 2^96), its addresses consecutive. Unlike the 128-bit
// builtin, each part is a virtual column of its own.

namespace proofdesk::stark::air {

void addRangeCheck96(AirBuilder& b) {
    const std::uint64_t parts = b.layout().builtin("range_check96")->parameter("n_parts");
    const std::string prefix = "range_check96_builtin/";
    const std::uint64_t step = b.step(prefix + "mem/addr");
    Expr value = b.at(prefix + "inner_range_check0");
    for (std::uint64_t k = 1; k < parts; ++k) {
        value = value * b.powerOfTwo(16) + b.at(prefix + "inner_range_check" + std::to_string(k));
    }
    b.constraint(prefix + "value", value - b.at(prefix + "mem/value"), {}, {b.rows(step)});
    b.constraint(prefix + "addr_step",
                 b.at(prefix + "mem/addr", 1) - (b.at(prefix + "mem/addr") + 1),
                 {b.row(-std::int64_t(step))}, {b.rows(step)});
    b.constraint(prefix + "init_addr",
                 b.at(prefix + "mem/addr") - b.value("initial_range_check96_addr"), {}, {b.row(0)});
}

} // namespace proofdesk::stark::air
