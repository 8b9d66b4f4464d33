#include "TraceTable.h"

#include "Parallel.h"
#include "TraceComponents.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>

namespace proofdesk::stark {

TraceTable::TraceTable(const air::LayoutSpec& layout, std::uint64_t traceLength,
                       std::size_t columnCount, std::size_t firstColumn,
                       const std::map<std::size_t, std::uint64_t>& periods)
    : m_layout(layout), m_length(traceLength), m_firstColumn(firstColumn), m_columns(columnCount) {
    for (const auto& [column, period] : periods) {
        if (column < firstColumn || column - firstColumn >= columnCount ||
            !std::has_single_bit(period) || period > traceLength) {
            throw std::logic_error(
                "a periodic column lies outside the trace or does not divide it");
        }
    }
    // Each column zeroed by a worker (a 2^20-row trace is some 800 MB to touch: one thread
    // spent a tenth of the trace phase on it).
    Workers::shared().forEach(columnCount, [&](std::size_t c) {
        const auto period = periods.find(firstColumn + c);
        m_columns[c] = std::vector<Fp>(period == periods.end() ? traceLength : period->second);
    });
    const auto pool = [&](const char* name) {
        Pool p;
        const auto it = layout.columns.find(name);
        if (it != layout.columns.end()) {
            p.cells = it->second;
            p.used.assign(traceLength / p.cells.step, 0);
        }
        return p;
    };
    if (firstColumn == 0) {
        m_memory = pool("mem_pool/addr");
        m_rangeCheck = pool("range_check16_pool");
        m_diluted = pool("diluted_pool");
    }
}

std::uint64_t TraceTable::instances(const std::string& column) const {
    return m_length / m_layout.column(column).step;
}

std::uint64_t TraceTable::storedRows(const std::string& column) const {
    const air::VirtualColumn& vc = m_layout.column(column);
    if (vc.column < m_firstColumn || vc.column - m_firstColumn >= m_columns.size()) {
        throw std::out_of_range("trace column " + column + " lies outside this part of the trace");
    }
    return m_columns[vc.column - m_firstColumn].size();
}

void TraceTable::checkInstance(const std::string& column, std::uint64_t instance) {
    cell(column, instance);
}

Fp& TraceTable::cell(const std::string& column, std::uint64_t instance) {
    const air::VirtualColumn& vc = m_layout.column(column);
    const std::uint64_t row = std::uint64_t(vc.offset) + instance * vc.step;
    if (vc.column < m_firstColumn || vc.column - m_firstColumn >= m_columns.size() ||
        row >= m_length) {
        throw std::out_of_range("trace cell " + column + "[" + std::to_string(instance) +
                                "] lies outside this part of the trace");
    }
    std::vector<Fp>& cells = m_columns[vc.column - m_firstColumn];
    return cells[row & (cells.size() - 1)]; // a periodic column's cell a period back
}

TraceTable::Column TraceTable::column(const std::string& name) {
    const air::VirtualColumn& vc = m_layout.column(name);
    if (vc.column < m_firstColumn || vc.column - m_firstColumn >= m_columns.size() ||
        vc.offset < 0) {
        throw std::out_of_range("trace column " + name + " lies outside this part of the trace");
    }
    std::vector<Fp>& cells = m_columns[vc.column - m_firstColumn];
    return {&cells, std::uint64_t(vc.offset), vc.step,
            cells.size() < m_length ? cells.size() - 1 : ~std::uint64_t(0)};
}

void TraceTable::repeatPeriod(const std::string& prefix, std::uint64_t period) {
    for (const auto& [name, vc] : m_layout.columns) {
        if (!name.starts_with(prefix) || vc.column < m_firstColumn ||
            vc.column - m_firstColumn >= m_columns.size()) {
            continue;
        }
        // Rows a period apart hold the same instance's cell, or instance 0's for a column
        // sparser than the period; a periodic column holds its own period only.
        std::vector<Fp>& cells = m_columns[vc.column - m_firstColumn];
        const std::uint64_t first = std::uint64_t(vc.offset);
        const std::uint64_t step = vc.step;
        const std::uint64_t perPeriod = std::max<std::uint64_t>(1, period / step);
        const std::uint64_t stored = (cells.size() - first + step - 1) / step;
        Workers::shared().forRange(stored, 1 << 14, [&](std::size_t begin, std::size_t end) {
            for (std::uint64_t instance = std::max<std::uint64_t>(begin, perPeriod); instance < end;
                 ++instance) {
                cells[first + instance * step] = cells[first + (instance % perPeriod) * step];
            }
        });
    }
}

void TraceTable::set(const std::string& column, std::uint64_t instance, const Fp& value) {
    cell(column, instance) = value;
}

const Fp& TraceTable::get(const std::string& column, std::uint64_t instance) const {
    return const_cast<TraceTable*>(this)->cell(column, instance);
}

TraceTable::PoolColumn TraceTable::poolColumn(Pool& pool, const std::string& column,
                                              const char* poolName) {
    const air::VirtualColumn& vc = m_layout.column(column);
    const std::int64_t delta = vc.offset - pool.cells.offset;
    const std::int64_t poolStep = std::int64_t(pool.cells.step);
    if (pool.used.empty() || vc.column != pool.cells.column || delta < 0 || delta % poolStep != 0 ||
        vc.step % pool.cells.step != 0) {
        throw std::logic_error(column + " does not lie in the " + poolName);
    }
    const auto [writer, added] =
        m_poolWriters.try_emplace(column, std::uint16_t(m_poolWriterNames.size() + 1));
    if (added) {
        m_poolWriterNames.push_back(column);
    }
    PoolColumn handle;
    handle.m_table = this;
    handle.m_cells = this->column(column);
    handle.m_pool = &pool;
    handle.m_poolName = poolName;
    handle.m_first = std::uint64_t(delta / poolStep);
    handle.m_stride = vc.step / pool.cells.step;
    handle.m_writer = writer->second;
    return handle;
}

void TraceTable::PoolColumn::mark(std::uint64_t instance) const {
    const std::uint64_t index = m_first + instance * m_stride;
    if (index >= m_pool->used.size()) {
        throw std::out_of_range(std::string("instance ") + std::to_string(instance) +
                                " lies outside the " + m_poolName);
    }
    // One thread may mark a cell while another marks a different one; two columns on one cell
    // (two threads, perhaps) leave the first mark and the second writer sees it.
    std::uint16_t holder = 0;
    if (std::atomic_ref<std::uint16_t>(m_pool->used[index])
            .compare_exchange_strong(holder, m_writer, std::memory_order_relaxed) ||
        holder == m_writer) {
        return;
    }
    // Only a dynamic layout's parameters can place two components on one cell.
    const std::uint64_t row = m_pool->cells.offset + index * m_pool->cells.step;
    throw TraceError("the " + std::string(m_poolName) + "'s cell at row " + std::to_string(row) +
                     " of column " + std::to_string(m_pool->cells.column) + " holds both " +
                     m_table->m_poolWriterNames[holder - 1u] + " and " +
                     m_table->m_poolWriterNames[m_writer - 1u] +
                     ": the layout's parameters place them on the same cell");
}

TraceTable::PoolColumn TraceTable::memoryAddresses(const std::string& addressColumn) {
    return poolColumn(m_memory, addressColumn, "memory pool");
}

TraceTable::PoolColumn TraceTable::rangeChecked(const std::string& column) {
    return poolColumn(m_rangeCheck, column, "range-check pool");
}

TraceTable::PoolColumn TraceTable::dilutedValues(const std::string& column) {
    return poolColumn(m_diluted, column, "diluted pool");
}

TraceTable::MemoryColumns TraceTable::memoryColumns(const std::string& addressColumn,
                                                    const std::string& valueColumn) {
    return {memoryAddresses(addressColumn), column(valueColumn)};
}

void TraceTable::memory(const std::string& addressColumn, const std::string& valueColumn,
                        std::uint64_t instance, std::uint64_t address, const Fp& value) {
    checkInstance(valueColumn, instance);
    checkInstance(addressColumn, instance);
    memoryColumns(addressColumn, valueColumn).write(instance, address, value);
}

void TraceTable::rangeCheck(const std::string& column, std::uint64_t instance,
                            std::uint64_t value) {
    checkInstance(column, instance);
    rangeChecked(column).write(instance, Fp::fromU64(value));
}

void TraceTable::diluted(const std::string& column, std::uint64_t instance, const Fp& value) {
    checkInstance(column, instance);
    dilutedValues(column).write(instance, value);
}

} // namespace proofdesk::stark
