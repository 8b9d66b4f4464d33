#include "TraceComponents.h"

#include "Parallel.h"

#include <algorithm>
#include <unordered_map>

namespace proofdesk::stark {
namespace {

// The pool index of a virtual column's instance (the column lies in the pool).
std::uint64_t poolIndex(const TraceTable::Pool& pool, const air::VirtualColumn& column,
                        std::uint64_t instance) {
    return std::uint64_t(column.offset + std::int64_t(instance * column.step) - pool.cells.offset) /
           pool.cells.step;
}

const Fp& cellOf(const std::vector<std::vector<Fp>>& columns, const air::VirtualColumn& column,
                 std::uint64_t instance) {
    return columns[column.column][std::uint64_t(column.offset) + instance * column.step];
}

std::uint64_t dilutedForm(std::uint64_t value, std::uint64_t spacing, std::uint64_t bits) {
    std::uint64_t out = 0;
    for (std::uint64_t i = 0; i < bits; ++i) {
        out |= ((value >> i) & 1) << (i * spacing);
    }
    return out;
}

// cum_0 = n_0/d_0, cum_i = cum_{i−1}·n_i/d_i with n_i = z − pool_i, d_i = z − sorted_i.
void grandProduct(TraceTable& interaction, const std::string& column, std::vector<Fp> numerators,
                  std::vector<Fp> denominators) {
    Workers::shared().forRange(denominators.size(), 1 << 12,
                               [&](std::size_t begin, std::size_t end) {
                                   invertAll(std::span(denominators).subspan(begin, end - begin));
                               });
    Fp product = Fp::one();
    for (std::size_t i = 0; i < numerators.size(); ++i) {
        product *= numerators[i] * denominators[i];
        interaction.set(column, i, product);
    }
}

} // namespace

void finishMemory(TraceTable& trace, const CairoRun& run) {
    const air::LayoutSpec& layout = trace.layout();
    TraceTable::Pool& pool = trace.memoryPool();
    const air::VirtualColumn& addressCells = layout.column("mem_pool/addr");
    const air::VirtualColumn& valueCells = layout.column("mem_pool/value");
    const std::vector<PublicMemoryCell>& publicMemory = run.publicInput.publicMemory;
    const std::uint64_t publicSlots = trace.instances("orig/public_memory/addr");
    if (publicMemory.empty()) {
        throw TraceError("the public input has no public memory");
    }
    if (publicMemory.size() > publicSlots) {
        throw TraceError("the public memory has " + std::to_string(publicMemory.size()) +
                         " cells but the trace holds " + std::to_string(publicSlots) +
                         "; prove with more steps");
    }
    std::vector<bool> isPublicSlot(pool.used.size(), false);
    for (std::uint64_t i = 0; i < publicSlots; ++i) {
        trace.memory("orig/public_memory/addr", "orig/public_memory/value", i, 0, Fp::zero());
        isPublicSlot[poolIndex(pool, layout.column("orig/public_memory/addr"), i)] = true;
    }

    // What the sorted column holds: every access but the public slots' (0, 0), the public memory
    // itself, its first cell repeated over the public slots left.
    struct Access {
        std::uint64_t address;
        Fp value;
    };
    std::vector<Access> sorted;
    sorted.reserve(pool.used.size());
    std::vector<std::uint64_t> unused;
    std::uint64_t top = 0;
    for (std::uint64_t i = 0; i < pool.used.size(); ++i) {
        if (!pool.used[i]) {
            unused.push_back(i);
        } else if (!isPublicSlot[i]) {
            const std::uint64_t address =
                smallValue(cellOf(trace.columns(), addressCells, i), "a memory address");
            sorted.push_back({address, cellOf(trace.columns(), valueCells, i)});
            top = std::max(top, address);
        }
    }
    for (const PublicMemoryCell& cell : publicMemory) {
        sorted.push_back({cell.address, cell.value});
        top = std::max(top, cell.address);
    }
    for (std::uint64_t i = publicMemory.size(); i < publicSlots; ++i) {
        sorted.push_back({publicMemory.front().address, publicMemory.front().value});
    }

    // Addresses must run 1, 2, … without gaps: unused cells take the missing ones (with the
    // run's value when it has one), then repeat the padding cell.
    std::vector<bool> present(top + 1, false);
    for (const Access& access : sorted) {
        if (access.address == 0) {
            throw TraceError("a memory access at address 0 (addresses start at 1)");
        }
        present[access.address] = true;
    }
    std::size_t next = 0;
    for (std::uint64_t address = 1; address <= top; ++address) {
        if (present[address]) {
            continue;
        }
        if (next == unused.size()) {
            throw TraceError("the run's memory has more holes than the trace has free memory "
                             "cells (" +
                             std::to_string(unused.size()) + "); prove with more steps");
        }
        const Fp value = run.at(address).value_or(Fp::zero());
        trace.memory("mem_pool/addr", "mem_pool/value", unused[next++], address, value);
        sorted.push_back({address, value});
    }
    for (; next < unused.size(); ++next) {
        trace.memory("mem_pool/addr", "mem_pool/value", unused[next], publicMemory.front().address,
                     publicMemory.front().value);
        sorted.push_back({publicMemory.front().address, publicMemory.front().value});
    }

    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Access& a, const Access& b) { return a.address < b.address; });
    for (std::uint64_t i = 0; i < sorted.size(); ++i) {
        if (i > 0 && sorted[i].address == sorted[i - 1].address &&
            sorted[i].value != sorted[i - 1].value) {
            throw TraceError("memory address " + std::to_string(sorted[i].address) +
                             " is read with two different values");
        }
        trace.set("memory/sorted/addr", i, sorted[i].address);
        trace.set("memory/sorted/value", i, sorted[i].value);
    }
}

void finishRangeCheck(TraceTable& trace, const CairoRun& run) {
    TraceTable::Pool& pool = trace.rangeCheckPool();
    const air::VirtualColumn& cells = trace.layout().column("range_check16_pool");
    const std::uint64_t low = run.publicInput.rcMin;
    const std::uint64_t high = run.publicInput.rcMax;
    if (low > high || high >= (std::uint64_t(1) << 16)) {
        throw TraceError("the public input's range-check bounds [" + std::to_string(low) + ", " +
                         std::to_string(high) + "] are not 16-bit bounds");
    }
    std::vector<std::uint64_t> values;
    values.reserve(pool.used.size());
    std::vector<bool> present(high - low + 1, false);
    std::vector<std::uint64_t> unused;
    for (std::uint64_t i = 0; i < pool.used.size(); ++i) {
        if (!pool.used[i]) {
            unused.push_back(i);
            continue;
        }
        const std::uint64_t value = smallValue(cellOf(trace.columns(), cells, i), "a range check");
        if (value < low || value > high) {
            throw TraceError("a range-checked value (" + std::to_string(value) +
                             ") lies outside the public input's bounds [" + std::to_string(low) +
                             ", " + std::to_string(high) + "]");
        }
        present[value - low] = true;
        values.push_back(value);
    }
    std::size_t next = 0;
    for (std::uint64_t value = low; value <= high; ++value) {
        if (present[value - low]) {
            continue;
        }
        if (next == unused.size()) {
            throw TraceError("the range checks leave more gaps in [rc_min, rc_max] than the "
                             "trace has free range-check cells (" +
                             std::to_string(unused.size()) + "); prove with more steps");
        }
        trace.rangeCheck("range_check16_pool", unused[next++], value);
        values.push_back(value);
    }
    for (; next < unused.size(); ++next) {
        trace.rangeCheck("range_check16_pool", unused[next], high);
        values.push_back(high);
    }
    std::sort(values.begin(), values.end());
    for (std::uint64_t i = 0; i < values.size(); ++i) {
        trace.set("range_check16/sorted", i, values[i]);
    }
}

void finishDiluted(TraceTable& trace) {
    const air::LayoutSpec& layout = trace.layout();
    if (!layout.dilutedSpacing) {
        return;
    }
    const std::uint64_t spacing = *layout.dilutedSpacing;
    const std::uint64_t bits = layout.dilutedBits;
    TraceTable::Pool& pool = trace.dilutedPool();
    const air::VirtualColumn& cells = layout.column("diluted_pool");
    std::unordered_map<std::uint64_t, std::uint64_t> indexOf;
    const std::uint64_t count = std::uint64_t(1) << bits;
    indexOf.reserve(count);
    for (std::uint64_t x = 0; x < count; ++x) {
        indexOf.emplace(dilutedForm(x, spacing, bits), x);
    }
    std::vector<bool> present(count, false);
    std::vector<std::uint64_t> values;
    values.reserve(pool.used.size());
    std::vector<std::uint64_t> unused;
    for (std::uint64_t i = 0; i < pool.used.size(); ++i) {
        if (!pool.used[i]) {
            unused.push_back(i);
            continue;
        }
        const std::uint64_t value =
            smallValue(cellOf(trace.columns(), cells, i), "a diluted value");
        const auto it = indexOf.find(value);
        if (it == indexOf.end()) {
            throw TraceError("a diluted-pool value is not a diluted " + std::to_string(bits) +
                             "-bit number");
        }
        present[it->second] = true;
        values.push_back(value);
    }
    std::size_t next = 0;
    for (std::uint64_t x = 0; x < count; ++x) {
        if (present[x]) {
            continue;
        }
        if (next == unused.size()) {
            throw TraceError("the diluted check needs all " + std::to_string(count) +
                             " diluted values but the trace has only " +
                             std::to_string(unused.size()) +
                             " free diluted cells for the missing ones; prove with more steps");
        }
        const std::uint64_t value = dilutedForm(x, spacing, bits);
        trace.diluted("diluted_pool", unused[next++], Fp::fromU64(value));
        values.push_back(value);
    }
    for (; next < unused.size(); ++next) {
        trace.diluted("diluted_pool", unused[next], Fp::zero());
        values.push_back(0);
    }
    std::sort(values.begin(), values.end());
    for (std::uint64_t i = 0; i < values.size(); ++i) {
        trace.set("diluted_check/permuted_values", i, values[i]);
    }
}

void writeInteraction(TraceTable& interaction, const std::vector<std::vector<Fp>>& first,
                      const std::map<std::string, Fp>& elements) {
    const air::LayoutSpec& layout = interaction.layout();
    const auto column = [&](const std::string& name) -> const air::VirtualColumn& {
        return layout.column(name);
    };
    const auto element = [&](const std::string& name) { return elements.at(name); };

    {
        const Fp z = element("memory/perm/z");
        const Fp alpha = element("memory/perm/alpha");
        const std::uint64_t n = interaction.instances("memory/multi_column_perm/perm/cum_prod0");
        std::vector<Fp> numerators(n), denominators(n);
        Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                numerators[i] = z - (cellOf(first, column("mem_pool/addr"), i) +
                                     alpha * cellOf(first, column("mem_pool/value"), i));
                denominators[i] = z - (cellOf(first, column("memory/sorted/addr"), i) +
                                       alpha * cellOf(first, column("memory/sorted/value"), i));
            }
        });
        grandProduct(interaction, "memory/multi_column_perm/perm/cum_prod0", std::move(numerators),
                     std::move(denominators));
    }
    const auto singlePermutation = [&](const std::string& zName, const std::string& pool,
                                       const std::string& sorted, const std::string& product) {
        const Fp z = element(zName);
        const std::uint64_t n = interaction.instances(product);
        std::vector<Fp> numerators(n), denominators(n);
        for (std::size_t i = 0; i < n; ++i) {
            numerators[i] = z - cellOf(first, column(pool), i);
            denominators[i] = z - cellOf(first, column(sorted), i);
        }
        grandProduct(interaction, product, std::move(numerators), std::move(denominators));
    };
    singlePermutation("rc16/perm/z", "range_check16_pool", "range_check16/sorted",
                      "range_check16/perm/cum_prod0");
    if (layout.dilutedSpacing) {
        singlePermutation("diluted/perm/z", "diluted_pool", "diluted_check/permuted_values",
                          "diluted_check/permutation/cum_prod0");
        const Fp z = element("diluted/z");
        const Fp alpha = element("diluted/alpha");
        const std::string sorted = "diluted_check/permuted_values";
        const std::uint64_t n = interaction.instances("diluted_check/cumulative_value");
        Fp value = Fp::one();
        interaction.set("diluted_check/cumulative_value", 0, value);
        for (std::uint64_t i = 1; i < n; ++i) {
            const Fp diff = cellOf(first, column(sorted), i) - cellOf(first, column(sorted), i - 1);
            value = value * (z * diff + Fp::one()) + alpha * diff * diff;
            interaction.set("diluted_check/cumulative_value", i, value);
        }
    }
}

} // namespace proofdesk::stark
