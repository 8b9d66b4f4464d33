#include "TraceTable.h"

#include "Parallel.h"
#include "TraceComponents.h"

#include <stdexcept>

namespace proofdesk::stark {

TraceTable::TraceTable(const air::LayoutSpec& layout, std::uint64_t traceLength,
                       std::size_t columnCount, std::size_t firstColumn)
    : m_layout(layout), m_length(traceLength), m_firstColumn(firstColumn), m_columns(columnCount) {
    // Each column zeroed by a worker (a 2^20-row trace is some 800 MB to touch: one thread
    // spent a tenth of the trace phase on it).
    Workers::shared().forEach(columnCount,
                              [&](std::size_t c) { m_columns[c] = std::vector<Fp>(traceLength); });
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

Fp& TraceTable::cell(const std::string& column, std::uint64_t instance) {
    const air::VirtualColumn& vc = m_layout.column(column);
    const std::uint64_t row = std::uint64_t(vc.offset) + instance * vc.step;
    if (vc.column < m_firstColumn || vc.column - m_firstColumn >= m_columns.size() ||
        row >= m_length) {
        throw std::out_of_range("trace cell " + column + "[" + std::to_string(instance) +
                                "] lies outside this part of the trace");
    }
    return m_columns[vc.column - m_firstColumn][row];
}

TraceTable::Column TraceTable::column(const std::string& name) {
    const air::VirtualColumn& vc = m_layout.column(name);
    if (vc.column < m_firstColumn || vc.column - m_firstColumn >= m_columns.size() ||
        vc.offset < 0) {
        throw std::out_of_range("trace column " + name + " lies outside this part of the trace");
    }
    return {&m_columns[vc.column - m_firstColumn], std::uint64_t(vc.offset), vc.step};
}

void TraceTable::set(const std::string& column, std::uint64_t instance, const Fp& value) {
    cell(column, instance) = value;
}

const Fp& TraceTable::get(const std::string& column, std::uint64_t instance) const {
    return const_cast<TraceTable*>(this)->cell(column, instance);
}

void TraceTable::markUsed(Pool& pool, const std::string& column, std::uint64_t instance,
                          const std::string& poolName) {
    const air::VirtualColumn& vc = m_layout.column(column);
    const std::int64_t row = vc.offset + std::int64_t(instance * vc.step);
    const std::int64_t delta = row - pool.cells.offset;
    if (pool.used.empty() || vc.column != pool.cells.column || delta < 0 ||
        delta % std::int64_t(pool.cells.step) != 0) {
        throw std::logic_error(column + " does not lie in the " + poolName);
    }
    const auto [writer, added] =
        m_poolWriters.try_emplace(column, std::uint16_t(m_poolWriterNames.size() + 1));
    if (added) {
        m_poolWriterNames.push_back(column);
    }
    std::uint16_t& used = pool.used[std::size_t(delta) / pool.cells.step];
    if (used != 0 && used != writer->second) {
        // Only a dynamic layout's parameters can place two components on one cell.
        throw TraceError("the " + poolName + "'s cell at row " + std::to_string(row) +
                         " of column " + std::to_string(vc.column) + " holds both " +
                         m_poolWriterNames[used - 1u] + " and " + column +
                         ": the layout's parameters place them on the same cell");
    }
    used = writer->second;
}

void TraceTable::memory(const std::string& addressColumn, const std::string& valueColumn,
                        std::uint64_t instance, std::uint64_t address, const Fp& value) {
    set(addressColumn, instance, address);
    set(valueColumn, instance, value);
    markUsed(m_memory, addressColumn, instance, "memory pool");
}

void TraceTable::rangeCheck(const std::string& column, std::uint64_t instance,
                            std::uint64_t value) {
    set(column, instance, value);
    markUsed(m_rangeCheck, column, instance, "range-check pool");
}

void TraceTable::diluted(const std::string& column, std::uint64_t instance, const Fp& value) {
    set(column, instance, value);
    markUsed(m_diluted, column, instance, "diluted pool");
}

} // namespace proofdesk::stark
