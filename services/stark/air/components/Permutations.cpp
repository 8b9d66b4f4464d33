#include "air/AirBuilder.h"

// The components that tie a pool of cells to a sorted copy through a grand product over the
// interaction elements: memory (address-value pairs, with the public memory's cells zeroed in
// the pool), the 16-bit range checks and the diluted values.

namespace proofdesk::stark::air {

void addMemory(AirBuilder& b) {
    const std::uint64_t step = b.step("memory/sorted/addr");
    const Expr z = b.value("memory/perm/z");
    const Expr alpha = b.value("memory/perm/alpha");
    const std::string cumProd = "memory/multi_column_perm/perm/cum_prod0";
    const auto sorted = [&](int i) {
        return b.at("memory/sorted/addr", i) + alpha * b.at("memory/sorted/value", i);
    };
    const auto pool = [&](int i) {
        return b.at("mem_pool/addr", i) + alpha * b.at("mem_pool/value", i);
    };
    const Domain first = {b.row(0)};
    const Domain last = {b.row(-std::int64_t(step))};
    const Domain all = {b.rows(step)};

    b.constraint("memory/multi_column_perm/perm/init0",
                 (z - sorted(0)) * b.at(cumProd) + pool(0) - z, {}, first);
    b.constraint("memory/multi_column_perm/perm/step0",
                 (z - sorted(1)) * b.at(cumProd, 1) - (z - pool(1)) * b.at(cumProd), last, all);
    b.constraint("memory/multi_column_perm/perm/last",
                 b.at(cumProd) - b.value("memory/public_memory_prod"), {}, last);
    const Expr addressDiff = b.at("memory/sorted/addr", 1) - b.at("memory/sorted/addr");
    b.constraint("memory/diff_is_bit", addressDiff * addressDiff - addressDiff, last, all);
    b.constraint("memory/is_func",
                 (addressDiff - 1) * (b.at("memory/sorted/value") - b.at("memory/sorted/value", 1)),
                 last, all);
    b.constraint("memory/initial_addr", b.at("memory/sorted/addr") - 1, {}, first);

    const Domain publicRows = {b.rows(b.step("orig/public_memory/addr"))};
    b.constraint("public_memory_addr_zero", b.at("orig/public_memory/addr"), {}, publicRows);
    b.constraint("public_memory_value_zero", b.at("orig/public_memory/value"), {}, publicRows);
}

void addRangeCheck16(AirBuilder& b) {
    const std::uint64_t step = b.step("range_check16/sorted");
    const Expr z = b.value("rc16/perm/z");
    const std::string cumProd = "range_check16/perm/cum_prod0";
    const std::string sorted = "range_check16/sorted";
    const std::string pool = "range_check16_pool";
    const Domain first = {b.row(0)};
    const Domain last = {b.row(-std::int64_t(step))};
    const Domain all = {b.rows(step)};

    b.constraint("range_check16/perm/init0", (z - b.at(sorted)) * b.at(cumProd) + b.at(pool) - z,
                 {}, first);
    b.constraint("range_check16/perm/step0",
                 (z - b.at(sorted, 1)) * b.at(cumProd, 1) - (z - b.at(pool, 1)) * b.at(cumProd),
                 last, all);
    b.constraint("range_check16/perm/last", b.at(cumProd) - 1, {}, last);
    const Expr diff = b.at(sorted, 1) - b.at(sorted);
    b.constraint("range_check16/diff_is_bit", diff * diff - diff, last, all);
    b.constraint("range_check16/minimum", b.at(sorted) - b.value("rc_min"), {}, first);
    b.constraint("range_check16/maximum", b.at(sorted) - b.value("rc_max"), {}, last);
}

void addDilutedCheck(AirBuilder& b) {
    const std::uint64_t step = b.step("diluted_check/permuted_values");
    const Expr permZ = b.value("diluted/perm/z");
    const Expr z = b.value("diluted/z");
    const Expr alpha = b.value("diluted/alpha");
    const std::string cumProd = "diluted_check/permutation/cum_prod0";
    const std::string cumValue = "diluted_check/cumulative_value";
    const std::string sorted = "diluted_check/permuted_values";
    const std::string pool = "diluted_pool";
    const Domain first = {b.row(0)};
    const Domain last = {b.row(-std::int64_t(step))};
    const Domain all = {b.rows(step)};

    b.constraint("diluted_check/permutation/init0",
                 (permZ - b.at(sorted)) * b.at(cumProd) + b.at(pool) - permZ, {}, first);
    b.constraint("diluted_check/permutation/step0",
                 (permZ - b.at(sorted, 1)) * b.at(cumProd, 1) -
                     (permZ - b.at(pool, 1)) * b.at(cumProd),
                 last, all);
    b.constraint("diluted_check/permutation/last", b.at(cumProd) - 1, {}, last);
    b.constraint("diluted_check/init", b.at(cumValue) - 1, {}, first);
    b.constraint("diluted_check/first_element", b.at(sorted), {}, first);
    const Expr diff = b.at(sorted, 1) - b.at(sorted);
    b.constraint("diluted_check/step",
                 b.at(cumValue, 1) - (b.at(cumValue) * (z * diff + 1) + alpha * diff * diff), last,
                 all);
    b.constraint("diluted_check/last", b.at(cumValue) - b.value("diluted/final_cum_val"), {}, last);
}

} // namespace proofdesk::stark::air
