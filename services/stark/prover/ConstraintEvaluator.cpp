#include "ConstraintEvaluator.h"

#include "algebra/Ntt.h"
#include "algebra/VectorField.h"

#include <algorithm>
#include <bit>
#include <mutex>
#include <set>
#include <type_traits>

namespace proofdesk::stark {
namespace {

constexpr std::size_t kRows = 128; // rows per chunk (lanes)
// Domains of at least this many factors are tabulated per coset (one transform of their
// period's length) instead of multiplied out per row.
constexpr std::size_t kTabulatedFactors = 32;
constexpr std::size_t kNone = std::size_t(-1); // no slot

} // namespace

// The offset-dependent tables: periodic columns and the domain factors x^power − g^shift with
// power > 1, both periodic in the row index.
struct ConstraintEvaluator::Tables {
    Fp offset;
    std::vector<std::vector<Fp>> periodic;
    std::vector<std::vector<Fp>> factors; // empty for power 1 (computed from x)
    std::vector<std::vector<Fp>> domains; // per tabulated domain, its values over one period
    std::vector<Fp> shifts;               // g^shift per factor
    // Per entry of m_denominators: 1/denominator over one period of rows where that period is
    // shorter than the coset (the domain's factors all have power > 1), else empty (inverted
    // chunk by chunk). Only the composition's tables have them (on the trace domain itself the
    // denominators vanish).
    std::vector<std::vector<Fp>> inverseDenominators;
    // Bit-reversed chunks: lane q's point is offset·g^u times laneSteps[q] = (g^C)^bitrev(q).
    std::vector<Fp> laneSteps;
};

struct ConstraintEvaluator::Chunk {
    std::size_t rows = 0; // lanes in use
    std::size_t slot = 0; // the chunk's first slot in the columns and the output
    bool bitReversed = false;
    std::uint64_t residue = 0;      // bit-reversed: u, every lane's row is u mod C
    std::vector<std::uint64_t> row; // per lane, the trace row (index of the point) it holds
    std::vector<Fp> nodes;          // node-major: nodes[n·kRows + b]
    // Where node n's values are: its rows in `nodes`, or, for a cell whose rows do not wrap
    // around the trace, the column itself (not copied).
    std::vector<const Fp*> values;
    // The same in the vector path's own form (vector_field::rows), 64-byte aligned in
    // packedNodes; staged holds a cell's or periodic column's rows before conversion.
    std::vector<std::uint64_t> packedNodes;
    std::vector<const std::uint64_t*> packedValues;
    std::vector<Fp> staged;
    bool constantsFilled = false;   // constants and named values are the same in every chunk
    const void* filledAt = nullptr; // where they were filled
    std::vector<Fp> x;              // the points
    std::vector<Fp> factors;        // the per-row factors' values, factor-major
    std::vector<Fp> domains;        // domain-major
};

ConstraintEvaluator::ConstraintEvaluator(const air::Air& air,
                                         const std::map<std::string, Fp>& values)
    : m_air(air), m_length(air.traceLength()) {
    const air::ExprArena& arena = air.arena();
    for (const std::string& name : arena.valueNames()) {
        const auto it = values.find(name);
        m_named.push_back(it != values.end() ? it->second : Fp::zero());
    }
    const std::int64_t n = std::int64_t(m_length);
    for (const air::MaskItem& cell : arena.cells()) {
        m_cellColumn.push_back(cell.column);
        m_cellShift.push_back(std::uint64_t(((cell.row % n) + n) % n));
    }
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> factorIndex;
    std::map<std::vector<std::size_t>, std::size_t> domainIndex;
    const auto domainOf = [&](const air::Domain& domain) {
        std::vector<std::size_t> factors;
        for (const air::DomainFactor& f : domain) {
            const auto key = std::make_pair(f.power, f.shift);
            auto it = factorIndex.find(key);
            if (it == factorIndex.end()) {
                it = factorIndex.emplace(key, m_factors.size()).first;
                m_factors.push_back(f);
            }
            factors.push_back(it->second);
        }
        auto it = domainIndex.find(factors);
        if (it == domainIndex.end()) {
            it = domainIndex.emplace(factors, m_domains.size()).first;
            m_domains.push_back(factors);
        }
        return it->second;
    };
    const std::size_t firstColumns = air.layout().columnsFirst;
    for (const air::Constraint& constraint : air.constraints()) {
        m_numerator.push_back(domainOf(constraint.numerator));
        m_denominator.push_back(domainOf(constraint.denominator));
        // The cells this constraint reads.
        std::set<std::uint32_t> cells;
        std::vector<std::uint32_t> stack = {constraint.expr.index()};
        std::set<std::uint32_t> seen;
        while (!stack.empty()) {
            const std::uint32_t index = stack.back();
            stack.pop_back();
            if (!seen.insert(index).second) {
                continue;
            }
            const air::Node& node = arena.nodes()[index];
            switch (node.kind) {
            case air::NodeKind::Cell:
                cells.insert(node.a);
                break;
            case air::NodeKind::Add:
            case air::NodeKind::Sub:
            case air::NodeKind::Mul:
                stack.push_back(node.a);
                stack.push_back(node.b);
                break;
            case air::NodeKind::Neg:
                stack.push_back(node.a);
                break;
            default:
                break;
            }
        }
        bool interaction = false;
        for (const std::uint32_t cell : cells) {
            interaction = interaction || arena.cells()[cell].column >= firstColumns;
        }
        m_readsInteraction.push_back(interaction);
        m_constraintCells.emplace_back(cells.begin(), cells.end());
    }
    for (const air::DomainFactor& f : m_factors) {
        if (f.power != 1 && m_length % f.power != 0) {
            throw std::logic_error("a domain factor's power does not divide the trace length");
        }
    }
    tabulateLargeDomains();
    const int laneBits = std::countr_zero(std::min<std::uint64_t>(kRows, m_length));
    for (std::uint64_t q = 0; q < (std::uint64_t(1) << laneBits); ++q) {
        m_laneReversed.push_back(std::uint32_t(bitReverse(q, laneBits)));
    }
    m_stride = m_length >> laneBits;
    m_strideBits = std::countr_zero(m_stride);
    for (const std::size_t d : m_denominator) {
        if (std::find(m_denominators.begin(), m_denominators.end(), d) == m_denominators.end()) {
            m_denominators.push_back(d);
        }
    }
}

std::uint64_t ConstraintEvaluator::periodOf(std::size_t domain) const {
    std::uint64_t period = 1;
    for (const std::size_t f : m_domains[domain]) {
        period = std::max(period, m_length / m_factors[f].power);
    }
    return period;
}

void ConstraintEvaluator::tabulateLargeDomains() {
    const Fp& g = m_air.traceGenerator();
    m_tabulatedSlot.assign(m_domains.size(), kNone);
    m_factorSlot.assign(m_factors.size(), kNone);
    for (std::size_t d = 0; d < m_domains.size(); ++d) {
        const std::vector<std::size_t>& factors = m_domains[d];
        std::uint64_t period = 0;
        for (const std::size_t f : factors) {
            period = std::max(period, m_length / m_factors[f].power);
        }
        // x^power = y^(power·period/N): q's degree is the sum of those exponents.
        std::uint64_t degree = 0;
        for (const std::size_t f : factors) {
            degree += m_factors[f].power * period / m_length;
        }
        if (factors.size() < kTabulatedFactors || degree >= period) {
            for (const std::size_t f : factors) {
                if (m_factorSlot[f] == kNone) {
                    m_factorSlot[f] = m_factorsPerRow++;
                }
            }
            continue;
        }
        TabulatedDomain domain{period, std::vector<Fp>(degree + 1, Fp::zero())};
        std::vector<Fp>& q = domain.coefficients;
        q[0] = Fp::one();
        std::uint64_t reached = 0;
        for (const std::size_t f : factors) {
            // q ← q·(y^e − c), from the top down so q[k − e] is still the old coefficient.
            const std::uint64_t e = m_factors[f].power * period / m_length;
            const Fp c = g.pow(m_factors[f].shift);
            for (std::uint64_t k = reached + e + 1; k-- > 0;) {
                const Fp shifted = k >= e ? q[k - e] : Fp::zero();
                q[k] = k <= reached ? shifted - c * q[k] : shifted;
            }
            reached += e;
        }
        m_tabulatedSlot[d] = m_tabulated.size();
        m_tabulated.push_back(std::move(domain));
    }
}

ConstraintEvaluator::Tables ConstraintEvaluator::tablesFor(const Fp& offset,
                                                           bool withInverses) const {
    Tables tables;
    tables.offset = offset;
    const Fp& g = m_air.traceGenerator();
    // A periodic column is a polynomial q of degree < P in y = x^(N/period) (period = P·step), so
    // on the coset offset·<g> it takes `period` values: q at offset^(N/period)·ω^i, ω of order
    // `period` (= g^(N/period)). Interpolate q from its P values once and evaluate it there by
    // NTTs, rather than barycentrically per point (an inversion and P products each).
    for (const air::PeriodicColumn& column : m_air.periodicColumns()) {
        const std::size_t values = column.values.size();
        const std::uint64_t period = values * column.step;
        std::vector<Fp> table(period, Fp::zero());
        std::copy(column.values.begin(), column.values.end(), table.begin());
        inverseNtt(std::span<Fp>(table.data(), values));
        cosetValuesInPlace(table, offset.pow(m_length / period));
        tables.periodic.push_back(std::move(table));
    }
    for (std::size_t index = 0; index < m_factors.size(); ++index) {
        const air::DomainFactor& f = m_factors[index];
        tables.shifts.push_back(g.pow(f.shift));
        std::vector<Fp> table;
        // Only the factors multiplied per row need a table (the Keccak builtin's thousands of
        // factors, tabulated as domains, would take a table of up to 2^19 values each).
        if (f.power != 1 && m_factorSlot[index] != kNone) {
            const std::uint64_t period = m_length / f.power;
            const Fp step = g.pow(f.power);
            Fp value = offset.pow(f.power);
            table.resize(period);
            for (std::uint64_t i = 0; i < period; ++i) {
                table[i] = value - tables.shifts.back();
                value *= step;
            }
        }
        tables.factors.push_back(std::move(table));
    }
    for (const TabulatedDomain& domain : m_tabulated) {
        std::vector<Fp> table(domain.period, Fp::zero());
        std::copy(domain.coefficients.begin(), domain.coefficients.end(), table.begin());
        cosetValuesInPlace(table, offset.pow(m_length / domain.period));
        tables.domains.push_back(std::move(table));
    }
    // Most denominators repeat every few rows (x^(N/16) − 1 every 16): their inverses over one
    // period, all inverted together, instead of once per row.
    for (const std::size_t d : m_denominators) {
        const std::uint64_t period = periodOf(d);
        std::vector<Fp> inverses;
        if (withInverses && period < m_length) {
            if (const std::size_t slot = m_tabulatedSlot[d]; slot != kNone) {
                inverses = tables.domains[slot];
            } else {
                inverses.assign(period, Fp::one());
                for (const std::size_t f : m_domains[d]) {
                    const std::vector<Fp>& factor = tables.factors[f];
                    for (std::uint64_t i = 0; i < period; ++i) {
                        inverses[i] *= factor[i % factor.size()];
                    }
                }
            }
            invertAll(inverses);
        }
        tables.inverseDenominators.push_back(std::move(inverses));
    }
    const Fp laneStep = g.pow(m_stride); // g^C
    for (std::size_t q = 0; q < m_laneReversed.size(); ++q) {
        tables.laneSteps.push_back(laneStep.pow(m_laneReversed[q]));
    }
    return tables;
}

void ConstraintEvaluator::placeChunk(std::size_t index, bool bitReversed, Chunk& chunk) const {
    chunk.bitReversed = bitReversed;
    chunk.row.resize(kRows);
    if (!bitReversed) {
        chunk.slot = index * kRows;
        chunk.rows = std::min<std::size_t>(kRows, m_length - chunk.slot);
        for (std::size_t q = 0; q < chunk.rows; ++q) {
            chunk.row[q] = chunk.slot + q;
        }
        return;
    }
    // Slot c·lanes + q holds the point of row bitrev(c·lanes + q) = u + C·bitrev(q), with
    // u = bitrev(c) on the slot's high bits and C = N/lanes.
    const std::size_t lanes = m_laneReversed.size();
    chunk.slot = index * lanes;
    chunk.rows = lanes;
    chunk.residue = bitReverse(index, m_strideBits);
    for (std::size_t q = 0; q < lanes; ++q) {
        chunk.row[q] = chunk.residue + m_stride * m_laneReversed[q];
    }
}

// Lane q of a bit-reversed chunk reads row u + C·bitrev(q) + shift = low + C·((bitrev(q) + k) mod
// lanes), where u + shift = low + C·k (mod N); that row sits at slot bitrev(low)·lanes +
// bitrev((bitrev(q) + k) mod lanes): the chunk at bitrev(low), its lanes turned by k.
ConstraintEvaluator::ShiftedChunk ConstraintEvaluator::shiftedChunk(std::uint64_t residue,
                                                                    std::uint64_t shift) const {
    const std::uint64_t v = (residue + shift) & (m_length - 1);
    return {bitReverse(v & (m_stride - 1), m_strideBits) * m_laneReversed.size(),
            v >> m_strideBits};
}

// A cell's values in a bit-reversed chunk: for k = 0 the other chunk itself, in place;
// otherwise its lanes, rotated, into `out`.
void ConstraintEvaluator::readShiftedLanes(const Fp* column, std::uint64_t shift,
                                           const Chunk& chunk, Fp* out, const Fp*& values) const {
    const std::size_t lanes = m_laneReversed.size();
    const auto [start, turn] = shiftedChunk(chunk.residue, shift);
    const Fp* block = column + start;
    if (turn == 0) {
        values = block;
        return;
    }
    for (std::size_t q = 0; q < lanes; ++q) {
        out[q] = block[m_laneReversed[(m_laneReversed[q] + turn) & (lanes - 1)]];
    }
    values = out;
}

// The next chunk's cells are read from as many chunks of the columns, scattered over them (two
// cells of one column a few rows apart sit in different chunks): fetched ahead, into L2, while
// this chunk is evaluated.
void ConstraintEvaluator::prefetchChunk(const std::vector<std::span<const Fp>>& columns,
                                        std::uint64_t residue) const {
    const std::size_t lanes = m_laneReversed.size();
    constexpr std::size_t kPerLine = 64 / sizeof(Fp);
    for (std::size_t cell = 0; cell < m_cellColumn.size(); ++cell) {
        const std::span<const Fp> column = columns[m_cellColumn[cell]];
        if (column.size() < m_length) { // not given, or a periodic column's one period
            continue;
        }
        const Fp* block = column.data() + shiftedChunk(residue, m_cellShift[cell]).start;
        for (std::size_t q = 0; q < lanes; q += kPerLine) {
            __builtin_prefetch(block + q, 0, 2);
        }
    }
}

// A table over one period of rows (its size divides N) read at each lane's row `shift` rows on;
// in a bit-reversed chunk whose rows all agree modulo the period, one entry for all.
void ConstraintEvaluator::readPeriodic(std::span<const Fp> table, const Chunk& chunk, Fp* out,
                                       std::uint64_t shift) const {
    const std::uint64_t size = table.size();
    if (chunk.bitReversed && m_stride % size == 0) {
        std::fill(out, out + chunk.rows, table[(chunk.residue + shift) % size]);
        return;
    }
    for (std::size_t r = 0; r < chunk.rows; ++r) {
        out[r] = table[(chunk.row[r] + shift) % size];
    }
}

// A cell's rows in a chunk: in the column itself where they lie in order, else in `scratch`
// (rotated lanes, or rows wrapping around the trace); null for a column not given.
const Fp* ConstraintEvaluator::cellRows(const std::vector<std::span<const Fp>>& columns,
                                        std::uint32_t cell, const Chunk& chunk, Fp* scratch) const {
    const std::span<const Fp> cells = columns[m_cellColumn[cell]];
    if (cells.empty()) { // a column not given (the interaction, before it is drawn)
        return nullptr;
    }
    if (cells.size() < m_length) { // a periodic column's values over one period
        readPeriodic(cells, chunk, scratch, m_cellShift[cell]);
        return scratch;
    }
    const Fp* column = cells.data();
    if (chunk.bitReversed) {
        const Fp* values = nullptr;
        readShiftedLanes(column, m_cellShift[cell], chunk, scratch, values);
        return values;
    }
    const std::uint64_t mask = m_length - 1;
    const std::uint64_t start = (chunk.slot + m_cellShift[cell]) & mask;
    if (start + chunk.rows <= m_length) {
        return column + start;
    }
    for (std::size_t r = 0; r < chunk.rows; ++r) {
        scratch[r] = column[(start + r) & mask];
    }
    return scratch;
}

// Every node's rows of the chunk: as Montgomery words (chunk.values), or with `packed` in the
// vector path's own form (chunk.packedValues), where chains of products and sums stay without
// a conversion per operation.
template <bool packed>
void ConstraintEvaluator::evaluateNodes(const std::vector<std::span<const Fp>>& columns,
                                        const Tables& tables, Chunk& chunk) const {
    namespace rows = vector_field::rows;
    using Word = std::conditional_t<packed, std::uint64_t, Fp>;
    const air::ExprArena& arena = m_air.arena();
    const std::size_t count = arena.nodes().size();
    const std::size_t n = chunk.rows;
    // Words per node: 64-byte multiples, so every node's packed rows stay aligned.
    constexpr std::size_t kStride = packed ? rows::words(kRows) : kRows;
    std::vector<Word>& storage = [&]() -> std::vector<Word>& {
        if constexpr (packed) {
            return chunk.packedNodes;
        } else {
            return chunk.nodes;
        }
    }();
    std::vector<const Word*>& values = [&]() -> std::vector<const Word*>& {
        if constexpr (packed) {
            return chunk.packedValues;
        } else {
            return chunk.values;
        }
    }();
    Word* out = nullptr;
    if constexpr (packed) {
        out = vector_field::alignedWords(storage, count * kStride);
        chunk.staged.resize(kRows);
    } else {
        storage.resize(count * kStride);
        out = storage.data();
    }
    values.resize(count);
    // Constants and named values are the same in every full chunk (and the packed storage,
    // realigned, has not moved since it was filled).
    const bool fillConstants = !chunk.constantsFilled || n != kRows || out != chunk.filledAt;
    chunk.constantsFilled = n == kRows;
    chunk.filledAt = out;
    const auto fill = [&](const Fp& value, Word* to) {
        if constexpr (packed) {
            rows::fill(value, n, to);
        } else {
            std::fill(to, to + n, value);
        }
    };
    for (std::size_t i = 0; i < count; ++i, out += kStride) {
        const air::Node& node = arena.nodes()[i];
        const bool operands = node.kind == air::NodeKind::Add || node.kind == air::NodeKind::Sub ||
                              node.kind == air::NodeKind::Mul || node.kind == air::NodeKind::Neg;
        const Word* a = operands ? values[node.a] : nullptr;
        const Word* b = operands ? values[node.b] : nullptr;
        values[i] = out;
        switch (node.kind) {
        case air::NodeKind::Constant:
            if (fillConstants) {
                fill(arena.constants()[node.a], out);
            }
            break;
        case air::NodeKind::Value:
            if (fillConstants) {
                fill(m_named[node.a], out);
            }
            break;
        case air::NodeKind::Cell: {
            if constexpr (packed) {
                const Fp* cells = cellRows(columns, node.a, chunk, chunk.staged.data());
                if (cells == nullptr) {
                    fill(Fp::zero(), out);
                } else {
                    rows::load(cells, n, out);
                }
            } else {
                const Fp* cells = cellRows(columns, node.a, chunk, out);
                if (cells == nullptr) {
                    fill(Fp::zero(), out);
                } else {
                    values[i] = cells; // in the column itself, or copied into out
                }
            }
            break;
        }
        case air::NodeKind::Periodic:
            if constexpr (packed) {
                readPeriodic(tables.periodic[node.a], chunk, chunk.staged.data());
                rows::load(chunk.staged.data(), n, out);
            } else {
                readPeriodic(tables.periodic[node.a], chunk, out);
            }
            break;
        case air::NodeKind::Add:
            if constexpr (packed) {
                rows::add(a, b, out, n);
            } else {
                for (std::size_t r = 0; r < n; ++r) {
                    out[r] = a[r] + b[r];
                }
            }
            break;
        case air::NodeKind::Sub:
            if constexpr (packed) {
                rows::subtract(a, b, out, n);
            } else {
                for (std::size_t r = 0; r < n; ++r) {
                    out[r] = a[r] - b[r];
                }
            }
            break;
        case air::NodeKind::Mul:
            if constexpr (packed) {
                rows::multiply(a, b, out, n);
            } else {
                vector_field::multiply({a, n}, {b, n}, {out, n});
            }
            break;
        case air::NodeKind::Neg:
            if constexpr (packed) {
                rows::negate(a, out, n);
            } else {
                for (std::size_t r = 0; r < n; ++r) {
                    out[r] = -a[r];
                }
            }
            break;
        }
    }
}

// The chunk's points and the domains' values there.
void ConstraintEvaluator::evaluateDomains(const Tables& tables, Chunk& chunk) const {
    const std::size_t rows = chunk.rows;
    chunk.x.resize(kRows);
    const Fp& g = m_air.traceGenerator();
    if (chunk.bitReversed) {
        const Fp base = tables.offset * g.pow(chunk.residue);
        for (std::size_t r = 0; r < rows; ++r) {
            chunk.x[r] = base * tables.laneSteps[r];
        }
    } else {
        Fp x = tables.offset * g.pow(chunk.slot);
        for (std::size_t r = 0; r < rows; ++r) {
            chunk.x[r] = x;
            x *= g;
        }
    }
    chunk.factors.resize(m_factorsPerRow * kRows);
    for (std::size_t f = 0; f < m_factors.size(); ++f) {
        if (m_factorSlot[f] == kNone) {
            continue;
        }
        Fp* values = chunk.factors.data() + m_factorSlot[f] * kRows;
        if (m_factors[f].power == 1) {
            for (std::size_t r = 0; r < rows; ++r) {
                values[r] = chunk.x[r] - tables.shifts[f];
            }
        } else {
            readPeriodic(tables.factors[f], chunk, values);
        }
    }
    chunk.domains.assign(m_domains.size() * kRows, Fp::one());
    for (std::size_t d = 0; d < m_domains.size(); ++d) {
        Fp* values = chunk.domains.data() + d * kRows;
        if (const std::size_t slot = m_tabulatedSlot[d]; slot != kNone) {
            readPeriodic(tables.domains[slot], chunk, values);
            continue;
        }
        for (const std::size_t f : m_domains[d]) {
            const Fp* factor = chunk.factors.data() + m_factorSlot[f] * kRows;
            vector_field::multiply({values, rows}, {factor, rows}, {values, rows});
        }
    }
}

void ConstraintEvaluator::composition(const std::vector<std::span<const Fp>>& columns,
                                      const Fp& offset, const Fp& alpha, std::span<Fp> out,
                                      CancelFlag cancel) const {
    const Tables tables = tablesFor(offset, true);
    // Constraints grouped by (numerator, denominator): each group's α-weighted sum is divided
    // once. Denominators without a table of inverses are inverted together per chunk.
    std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> groups;
    for (std::size_t k = 0; k < m_air.constraints().size(); ++k) {
        groups[{m_numerator[k], m_denominator[k]}].push_back(k);
    }
    std::vector<Fp> alphaPowers(m_air.constraints().size());
    Fp power = Fp::one();
    for (Fp& p : alphaPowers) {
        p = power;
        power *= alpha;
    }
    // Each group's constraints as the nodes holding their values and their powers of α.
    struct Group {
        std::size_t numerator = 0;
        std::size_t denominator = 0;
        std::vector<std::uint32_t> nodes;
        std::vector<Fp> coefficients;
    };
    std::vector<Group> byDomains;
    for (const auto& [domains, members] : groups) {
        Group& group = byDomains.emplace_back(Group{domains.first, domains.second, {}, {}});
        for (const std::size_t k : members) {
            group.nodes.push_back(m_air.constraints()[k].expr.index());
            group.coefficients.push_back(alphaPowers[k]);
        }
    }
    std::vector<std::size_t> inverseSlot(m_domains.size(), 0);
    std::vector<std::size_t> perChunk; // the slots inverted chunk by chunk
    for (std::size_t i = 0; i < m_denominators.size(); ++i) {
        inverseSlot[m_denominators[i]] = i;
        if (tables.inverseDenominators[i].empty()) {
            perChunk.push_back(i);
        }
    }
    // The vector path keeps the nodes and the groups' sums in its own form (a chunk's lanes
    // are a power of two: eight or more of them is a multiple of 8).
    const bool packed = vector_field::enabled() && m_laneReversed.size() % 8 == 0;
    const std::size_t chunks = (m_length + kRows - 1) / kRows;
    // Guided ranges: a worker's ranges mostly follow one another, so the chunks a range's
    // shifted cells read were mostly read by the range before it (with many equal ranges each
    // range's start read them again), and the last ranges are short.
    const auto evaluateRange = [&](std::size_t begin, std::size_t end) {
        Chunk chunk;
        std::vector<Fp> inverses(m_denominators.size() * kRows);
        std::vector<Fp> batch(perChunk.size() * kRows);
        std::vector<Fp> sum(kRows);
        std::vector<std::uint64_t> packedSumStorage;
        std::uint64_t* packedSum =
            vector_field::alignedWords(packedSumStorage, vector_field::rows::words(kRows));
        std::vector<Fp> quotient(kRows);         // numerator / denominator
        std::vector<const std::uint64_t*> terms; // a group's constraints' packed rows
        // Chunks in the order of their residues u (chunk bitrev(u)): a cell `shift` rows on
        // reads the chunk of residue u + shift, which the chunks after it read again for
        // smaller shifts, so a worker's column reads stay in its caches.
        for (std::size_t c = begin; c < end; ++c) {
            cancel.check();
            if (c + 1 < end) {
                prefetchChunk(columns, c + 1);
            }
            placeChunk(bitReverse(c, m_strideBits), true, chunk);
            if (packed) {
                evaluateNodes<true>(columns, tables, chunk);
            } else {
                evaluateNodes<false>(columns, tables, chunk);
            }
            evaluateDomains(tables, chunk);
            const std::uint64_t first = chunk.slot;
            for (std::size_t b = 0; b < perChunk.size(); ++b) {
                std::copy_n(chunk.domains.data() + m_denominators[perChunk[b]] * kRows, kRows,
                            batch.data() + b * kRows);
            }
            invertAll(batch);
            for (std::size_t b = 0; b < perChunk.size(); ++b) {
                std::copy_n(batch.data() + b * kRows, kRows, inverses.data() + perChunk[b] * kRows);
            }
            for (std::size_t i = 0; i < m_denominators.size(); ++i) {
                const std::vector<Fp>& table = tables.inverseDenominators[i];
                if (table.empty()) {
                    continue;
                }
                readPeriodic(table, chunk, inverses.data() + i * kRows);
            }
            std::fill(out.begin() + std::ptrdiff_t(first),
                      out.begin() + std::ptrdiff_t(first + chunk.rows), Fp::zero());
            for (const Group& group : byDomains) {
                const std::size_t rows = chunk.rows;
                const Fp* numerator = chunk.domains.data() + group.numerator * kRows;
                const Fp* inverse = inverses.data() + inverseSlot[group.denominator] * kRows;
                vector_field::multiply({numerator, rows}, {inverse, rows}, {quotient.data(), rows});
                if (packed) {
                    terms.clear();
                    for (const std::uint32_t node : group.nodes) {
                        terms.push_back(chunk.packedValues[node]);
                    }
                    vector_field::rows::combine(terms.data(), group.coefficients.data(),
                                                terms.size(), packedSum, rows);
                    vector_field::rows::multiplyAddInto(packedSum, quotient.data(),
                                                        out.data() + first, rows);
                    continue;
                }
                std::fill(sum.begin(), sum.end(), Fp::zero());
                for (std::size_t m = 0; m < group.nodes.size(); ++m) {
                    vector_field::scaleAdd({chunk.values[group.nodes[m]], rows},
                                           group.coefficients[m], {sum.data(), rows});
                }
                vector_field::multiplyAdd({sum.data(), rows}, {quotient.data(), rows},
                                          out.subspan(first, rows));
            }
        }
    };
    Workers::shared().forRangeGuided(chunks, 4, evaluateRange);
}

std::optional<ConstraintViolation>
ConstraintEvaluator::firstViolation(const std::vector<std::span<const Fp>>& columns,
                                    bool interactionOnly, CancelFlag cancel) const {
    const Tables tables = tablesFor(Fp::one(), false);
    const std::size_t count = m_air.constraints().size();
    std::vector<std::uint64_t> lowest(count, m_length); // m_length: holds everywhere
    std::mutex mutex;
    const std::size_t chunks = (m_length + kRows - 1) / kRows;
    Workers::shared().forRange(chunks, 4, [&](std::size_t begin, std::size_t end) {
        Chunk chunk;
        std::vector<std::uint64_t> local(count, m_length);
        for (std::size_t c = begin; c < end; ++c) {
            cancel.check();
            placeChunk(c, false, chunk);
            evaluateNodes<false>(columns, tables, chunk);
            evaluateDomains(tables, chunk);
            for (std::size_t k = 0; k < count; ++k) {
                if (m_readsInteraction[k] != interactionOnly) {
                    continue;
                }
                const Fp* value = chunk.values[m_air.constraints()[k].expr.index()];
                const Fp* numerator = chunk.domains.data() + m_numerator[k] * kRows;
                const Fp* denominator = chunk.domains.data() + m_denominator[k] * kRows;
                for (std::size_t r = 0; r < chunk.rows; ++r) {
                    if (denominator[r].isZero() && !numerator[r].isZero() && !value[r].isZero()) {
                        local[k] = std::min<std::uint64_t>(local[k], chunk.row[r]);
                        break;
                    }
                }
            }
        }
        const std::lock_guard lock(mutex);
        for (std::size_t k = 0; k < count; ++k) {
            lowest[k] = std::min(lowest[k], local[k]);
        }
    });
    for (std::size_t k = 0; k < count; ++k) {
        if (lowest[k] == m_length) {
            continue;
        }
        ConstraintViolation violation;
        violation.constraint = m_air.constraints()[k].name;
        violation.row = lowest[k];
        const air::LayoutSpec& layout = m_air.layout();
        for (const std::uint32_t slot : m_constraintCells[k]) {
            const std::uint64_t column = m_cellColumn[slot];
            const std::uint64_t row = (lowest[k] + m_cellShift[slot]) & (m_length - 1);
            // Name the cell by the most specific virtual column holding it.
            std::string name;
            std::uint64_t bestStep = 0;
            for (const auto& [columnName, vc] : layout.columns) {
                const std::int64_t delta = std::int64_t(row) - vc.offset;
                if (vc.column == column && delta >= 0 && delta % std::int64_t(vc.step) == 0 &&
                    vc.step > bestStep) {
                    bestStep = vc.step;
                    name = columnName + "[" + std::to_string(std::uint64_t(delta) / vc.step) + "]";
                }
            }
            if (name.empty()) {
                name = "column " + std::to_string(column) + ", row " + std::to_string(row);
            }
            violation.cells.emplace_back(name, columns[column][row % columns[column].size()]);
        }
        return violation;
    }
    return std::nullopt;
}

} // namespace proofdesk::stark
