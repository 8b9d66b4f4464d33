#pragma once

#include "air/Layout.h"
#include "field/Fp.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace proofdesk::stark {

// The trace columns of one layout at one trace length, written through the layout's virtual
// columns (instance i of a virtual column is one cell), with the three pools the Cairo AIR
// permutes — memory (address, value) pairs, 16-bit range-checked values, diluted values — keeping
// track of which of their cells the components used, so the rest can be filled at the end.
class TraceTable {
public:
    // `periods`: periodic columns (by the layout's index) and the rows after which their values
    // repeat — each holds that many rows, and a cell further on is the cell a period back
    // (see periodicColumns).
    TraceTable(const air::LayoutSpec& layout, std::uint64_t traceLength, std::size_t columnCount,
               std::size_t firstColumn, const std::map<std::size_t, std::uint64_t>& periods = {});

    const air::LayoutSpec& layout() const { return m_layout; }
    std::uint64_t length() const { return m_length; }
    // Instances of a virtual column in the trace.
    std::uint64_t instances(const std::string& column) const;
    // The rows the column holding a virtual column stores: the trace's length, or its period.
    std::uint64_t storedRows(const std::string& column) const;

    // A virtual column resolved once, for writers that fill many of its cells.
    class Column {
    public:
        Column() = default;
        Column(std::vector<Fp>* cells, std::uint64_t offset, std::uint64_t step,
               std::uint64_t rowMask = ~std::uint64_t(0))
            : m_cells(cells), m_offset(offset), m_step(step), m_rowMask(rowMask) {}
        Fp& operator[](std::uint64_t instance) const {
            return (*m_cells)[(m_offset + instance * m_step) & m_rowMask];
        }

    private:
        std::vector<Fp>* m_cells = nullptr;
        std::uint64_t m_offset = 0;
        std::uint64_t m_step = 1;
        std::uint64_t m_rowMask = ~std::uint64_t(0); // a periodic column's period − 1
    };
    Column column(const std::string& name);

    // Pool bookkeeping: the pool's cells (instances of the pool's virtual column) used so far,
    // each by which virtual column (0: unused, else one more than its index in columnsUsed).
    struct Pool {
        air::VirtualColumn cells; // instance i: the i-th cell of the pool
        std::vector<std::uint16_t> used;
    };

    // A virtual column that lies in a pool, resolved once: write() marks the pool's cell used by
    // this column (TraceError when another column holds it, out_of_range past the pool: the cell
    // is then left as it was) and sets it. Writes of distinct instances may run on many threads
    // at once.
    class PoolColumn {
    public:
        PoolColumn() = default;
        void write(std::uint64_t instance, const Fp& value) const {
            mark(instance);
            m_cells[instance] = value;
        }
        // The cells themselves, to read back.
        const Column& cells() const { return m_cells; }

    private:
        friend class TraceTable;
        void mark(std::uint64_t instance) const;

        const TraceTable* m_table = nullptr;
        Column m_cells;
        Pool* m_pool = nullptr;
        const char* m_poolName = "";
        std::uint64_t m_first = 0;  // the pool cell of instance 0
        std::uint64_t m_stride = 0; // pool cells from one instance to the next
        std::uint16_t m_writer = 0; // this column's mark in Pool::used
    };
    PoolColumn memoryAddresses(const std::string& addressColumn);
    PoolColumn rangeChecked(const std::string& column);
    PoolColumn dilutedValues(const std::string& column);

    // A memory access's pair of virtual columns (the address's in the memory pool).
    class MemoryColumns {
    public:
        MemoryColumns() = default;
        MemoryColumns(PoolColumn address, Column value) : m_address(address), m_value(value) {}
        void write(std::uint64_t instance, std::uint64_t address, const Fp& value) const {
            m_address.write(instance, Fp::fromU64(address));
            m_value[instance] = value;
        }

    private:
        PoolColumn m_address;
        Column m_value;
    };
    MemoryColumns memoryColumns(const std::string& addressColumn, const std::string& valueColumn);

    // Every cell of the virtual columns named `prefix`… at a row past `period` (a power of two)
    // becomes the cell at that row modulo the period: a component whose instances are all alike,
    // written for one period, repeated through the trace.
    void repeatPeriod(const std::string& prefix, std::uint64_t period);

    void set(const std::string& column, std::uint64_t instance, const Fp& value);
    void set(const std::string& column, std::uint64_t instance, std::uint64_t value) {
        set(column, instance, Fp::fromU64(value));
    }
    const Fp& get(const std::string& column, std::uint64_t instance) const;

    // A memory access in a memory-pool cell: the virtual columns of its address and value.
    void memory(const std::string& addressColumn, const std::string& valueColumn,
                std::uint64_t instance, std::uint64_t address, const Fp& value);
    // A value in a range-check pool cell (`column` lies in range_check16_pool).
    void rangeCheck(const std::string& column, std::uint64_t instance, std::uint64_t value);
    // A value in a diluted pool cell (`column` lies in diluted_pool).
    void diluted(const std::string& column, std::uint64_t instance, const Fp& value);

    std::vector<std::vector<Fp>>& columns() { return m_columns; }
    std::vector<std::vector<Fp>> takeColumns() { return std::move(m_columns); }

    Pool& memoryPool() { return m_memory; }
    Pool& rangeCheckPool() { return m_rangeCheck; }
    Pool& dilutedPool() { return m_diluted; }

private:
    Fp& cell(const std::string& column, std::uint64_t instance);
    // Throws what cell() throws for a cell outside this part of the trace.
    void checkInstance(const std::string& column, std::uint64_t instance);
    PoolColumn poolColumn(Pool& pool, const std::string& column, const char* poolName);

    const air::LayoutSpec& m_layout;
    std::uint64_t m_length;
    std::size_t m_firstColumn; // the index of m_columns[0] among the layout's columns
    std::vector<std::vector<Fp>> m_columns;
    Pool m_memory;
    Pool m_rangeCheck;
    Pool m_diluted;
    std::map<std::string, std::uint16_t> m_poolWriters; // virtual column -> its Pool::used mark
    std::vector<std::string> m_poolWriterNames;
};

} // namespace proofdesk::stark
