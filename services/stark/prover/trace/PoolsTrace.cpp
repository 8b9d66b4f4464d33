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

// The pool's used cells of `column` as numbers (0 for the unused ones), converted by the workers;
// TraceError naming `what` for a cell that is not a 64-bit number.
std::vector<std::uint64_t> smallValuesOf(TraceTable& trace, const TraceTable::Pool& pool,
                                         const air::VirtualColumn& column, const char* what) {
    std::vector<std::uint64_t> numbers(pool.used.size(), 0);
    Workers::shared().forRange(numbers.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (pool.used[i]) {
                numbers[i] = smallValue(cellOf(trace.columns(), column, i), what);
            }
        }
    });
    return numbers;
}

std::uint64_t dilutedForm(std::uint64_t value, std::uint64_t spacing, std::uint64_t bits) {
    std::uint64_t out = 0;
    for (std::uint64_t i = 0; i < bits; ++i) {
        out |= ((value >> i) & 1) << (i * spacing);
    }
    return out;
}

// A pool's sorted copy has a cell for every cell of its pool (a layout that breaks this is a bug).
void requireRoom(const TraceTable& trace, const std::string& column, std::uint64_t cells) {
    if (cells > trace.instances(column)) {
        throw std::logic_error(column + " has " + std::to_string(trace.instances(column)) +
                               " cells, fewer than the " + std::to_string(cells) + " to sort");
    }
}

// cum_0 = n_0/d_0, cum_i = cum_{i−1}·n_i/d_i with n_i = z − pool_i, d_i = z − sorted_i.
void grandProduct(TraceTable& interaction, const std::string& column, std::vector<Fp> numerators,
                  std::vector<Fp> denominators) {
    const TraceTable::Column cells = interaction.column(column);
    const std::size_t n = numerators.size();
    // Each range writes its own running product of numerator / denominator (one batch inverse
    // a range); then every range but the first is scaled by the product of those before it.
    const std::size_t ranges =
        std::min<std::size_t>(std::max<std::size_t>(1, n >> 12),
                              std::size_t(std::max(1, Workers::shared().threads())) * 4);
    const auto rangeBegin = [&](std::size_t r) { return n * r / ranges; };
    Workers::shared().forEach(ranges, [&](std::size_t r) {
        const std::size_t begin = rangeBegin(r);
        const std::size_t end = rangeBegin(r + 1);
        invertAll(std::span(denominators).subspan(begin, end - begin));
        Fp product = Fp::one();
        for (std::size_t i = begin; i < end; ++i) {
            product *= numerators[i] * denominators[i];
            cells[i] = product;
        }
    });
    std::vector<Fp> before(ranges, Fp::one());
    for (std::size_t r = 1; r < ranges; ++r) {
        before[r] = before[r - 1] * cells[rangeBegin(r) - 1];
    }
    Workers::shared().forEach(ranges, [&](std::size_t r) {
        if (r == 0) {
            return;
        }
        for (std::size_t i = rangeBegin(r); i < rangeBegin(r + 1); ++i) {
            cells[i] *= before[r];
        }
    });
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
    const TraceTable::MemoryColumns publicCells =
        trace.memoryColumns("orig/public_memory/addr", "orig/public_memory/value");
    const air::VirtualColumn& publicAddresses = layout.column("orig/public_memory/addr");
    for (std::uint64_t i = 0; i < publicSlots; ++i) {
        publicCells.write(i, 0, Fp::zero());
        isPublicSlot[poolIndex(pool, publicAddresses, i)] = true;
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
    const std::vector<std::uint64_t> addresses =
        smallValuesOf(trace, pool, addressCells, "a memory address");
    for (std::uint64_t i = 0; i < pool.used.size(); ++i) {
        if (!pool.used[i]) {
            unused.push_back(i);
        } else if (!isPublicSlot[i]) {
            const std::uint64_t address = addresses[i];
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
    const TraceTable::MemoryColumns poolCells =
        trace.memoryColumns("mem_pool/addr", "mem_pool/value");
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
        poolCells.write(unused[next++], address, value);
        sorted.push_back({address, value});
    }
    for (; next < unused.size(); ++next) {
        poolCells.write(unused[next], publicMemory.front().address, publicMemory.front().value);
        sorted.push_back({publicMemory.front().address, publicMemory.front().value});
    }

    // Sorted by address, stably, by counting: every address lies in [1, top].
    std::vector<std::size_t> firstOf(top + 2, 0);
    for (const Access& access : sorted) {
        ++firstOf[access.address + 1];
    }
    for (std::uint64_t address = 1; address <= top + 1; ++address) {
        firstOf[address] += firstOf[address - 1];
    }
    std::vector<Access> ordered(sorted.size());
    for (const Access& access : sorted) {
        ordered[firstOf[access.address]++] = access;
    }
    sorted = {};
    requireRoom(trace, "memory/sorted/addr", ordered.size());
    for (std::uint64_t i = 1; i < ordered.size(); ++i) {
        if (ordered[i].address == ordered[i - 1].address &&
            ordered[i].value != ordered[i - 1].value) {
            throw TraceError("memory address " + std::to_string(ordered[i].address) +
                             " is read with two different values");
        }
    }
    const TraceTable::Column sortedAddresses = trace.column("memory/sorted/addr");
    const TraceTable::Column sortedValues = trace.column("memory/sorted/value");
    Workers::shared().forRange(ordered.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            sortedAddresses[i] = Fp::fromU64(ordered[i].address);
            sortedValues[i] = ordered[i].value;
        }
    });
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
    // The used cells as numbers, converted by the workers (each a product out of Montgomery
    // form), then counted in order.
    const std::vector<std::uint64_t> numbers = smallValuesOf(trace, pool, cells, "a range check");
    std::vector<std::uint64_t> values;
    values.reserve(pool.used.size());
    std::vector<bool> present(high - low + 1, false);
    std::vector<std::uint64_t> unused;
    for (std::uint64_t i = 0; i < pool.used.size(); ++i) {
        if (!pool.used[i]) {
            unused.push_back(i);
            continue;
        }
        const std::uint64_t value = numbers[i];
        if (value < low || value > high) {
            throw TraceError("a range-checked value (" + std::to_string(value) +
                             ") lies outside the public input's bounds [" + std::to_string(low) +
                             ", " + std::to_string(high) + "]");
        }
        present[value - low] = true;
        values.push_back(value);
    }
    const TraceTable::PoolColumn poolCells = trace.rangeChecked("range_check16_pool");
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
        poolCells.write(unused[next++], Fp::fromU64(value));
        values.push_back(value);
    }
    for (; next < unused.size(); ++next) {
        poolCells.write(unused[next], Fp::fromU64(high));
        values.push_back(high);
    }
    // Sorted by counting: every value lies in [low, high].
    std::vector<std::uint64_t> counts(high - low + 1, 0);
    for (const std::uint64_t value : values) {
        ++counts[value - low];
    }
    requireRoom(trace, "range_check16/sorted", values.size());
    std::size_t at = 0;
    for (std::uint64_t value = low; value <= high; ++value) {
        std::fill_n(values.begin() + std::ptrdiff_t(at), counts[value - low], value);
        at += counts[value - low];
    }
    const TraceTable::Column sortedCells = trace.column("range_check16/sorted");
    Workers::shared().forRange(values.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            sortedCells[i] = Fp::fromU64(values[i]);
        }
    });
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
    const TraceTable::PoolColumn poolCells = trace.dilutedValues("diluted_pool");
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
        poolCells.write(unused[next++], Fp::fromU64(value));
        values.push_back(value);
    }
    for (; next < unused.size(); ++next) {
        poolCells.write(unused[next], Fp::zero());
        values.push_back(0);
    }
    std::sort(values.begin(), values.end());
    requireRoom(trace, "diluted_check/permuted_values", values.size());
    const TraceTable::Column sortedCells = trace.column("diluted_check/permuted_values");
    for (std::uint64_t i = 0; i < values.size(); ++i) {
        sortedCells[i] = Fp::fromU64(values[i]);
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
        const air::VirtualColumn& addresses = column("mem_pool/addr");
        const air::VirtualColumn& values = column("mem_pool/value");
        const air::VirtualColumn& sortedAddresses = column("memory/sorted/addr");
        const air::VirtualColumn& sortedValues = column("memory/sorted/value");
        Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                numerators[i] =
                    z - (cellOf(first, addresses, i) + alpha * cellOf(first, values, i));
                denominators[i] = z - (cellOf(first, sortedAddresses, i) +
                                       alpha * cellOf(first, sortedValues, i));
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
        const air::VirtualColumn& poolCells = column(pool);
        const air::VirtualColumn& sortedCells = column(sorted);
        Workers::shared().forRange(n, 1 << 12, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                numerators[i] = z - cellOf(first, poolCells, i);
                denominators[i] = z - cellOf(first, sortedCells, i);
            }
        });
        grandProduct(interaction, product, std::move(numerators), std::move(denominators));
    };
    singlePermutation("rc16/perm/z", "range_check16_pool", "range_check16/sorted",
                      "range_check16/perm/cum_prod0");
    if (layout.dilutedSpacing) {
        singlePermutation("diluted/perm/z", "diluted_pool", "diluted_check/permuted_values",
                          "diluted_check/permutation/cum_prod0");
        const Fp z = element("diluted/z");
        const Fp alpha = element("diluted/alpha");
        const air::VirtualColumn& sorted = column("diluted_check/permuted_values");
        const std::uint64_t n = interaction.instances("diluted_check/cumulative_value");
        const TraceTable::Column cumulative = interaction.column("diluted_check/cumulative_value");
        Fp value = Fp::one();
        cumulative[0] = value;
        for (std::uint64_t i = 1; i < n; ++i) {
            const Fp diff = cellOf(first, sorted, i) - cellOf(first, sorted, i - 1);
            value = value * (z * diff + Fp::one()) + alpha * diff * diff;
            cumulative[i] = value;
        }
    }
}

} // namespace proofdesk::stark
