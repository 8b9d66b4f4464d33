#include "cairo/vm/Memory.h"

namespace proofdesk::cairo {

Value Memory::Cell::value() const {
    if (isAddress()) {
        return Relocatable{static_cast<std::int64_t>(w[1]), w[0]};
    }
    return *Felt::fromLimbs({w[0], w[1], w[2], w[3] & ~(kSet | kAddress)});
}

Memory::Cell Memory::Cell::of(const Value& value) {
    Cell cell;
    if (value.isAddress()) {
        cell.w[0] = value.address().offset;
        cell.w[1] = static_cast<std::uint64_t>(value.address().segment);
        cell.w[3] = kSet | kAddress;
    } else {
        const auto& limbs = value.felt().limbs();
        cell.w[0] = limbs[0];
        cell.w[1] = limbs[1];
        cell.w[2] = limbs[2];
        cell.w[3] = limbs[3] | kSet;
    }
    return cell;
}

Relocatable Memory::addSegment() {
    m_segments.emplace_back();
    m_accessed.emplace_back();
    return {static_cast<std::int64_t>(m_segments.size() - 1), 0};
}

Relocatable Memory::addTempSegment() {
    m_tempSegments.emplace_back();
    return {-static_cast<std::int64_t>(m_tempSegments.size()), 0};
}

std::vector<Memory::Cell>* Memory::segmentFor(std::int64_t segment) {
    if (segment >= 0) {
        return static_cast<std::size_t>(segment) < m_segments.size()
                   ? &m_segments[static_cast<std::size_t>(segment)]
                   : nullptr;
    }
    const auto index = static_cast<std::size_t>(-segment - 1);
    return index < m_tempSegments.size() ? &m_tempSegments[index] : nullptr;
}

const std::vector<Memory::Cell>* Memory::segmentFor(std::int64_t segment) const {
    return const_cast<Memory*>(this)->segmentFor(segment);
}

bool Memory::tryGet(const Relocatable& address, Value* out) const {
    const std::vector<Cell>* cells = segmentFor(address.segment);
    if (!cells || address.offset >= cells->size()) {
        return false;
    }
    const Cell& cell = (*cells)[address.offset];
    if (!cell.isSet()) {
        return false;
    }
    *out = cell.value();
    return true;
}

Value Memory::get(const Relocatable& address) const {
    Value value;
    if (!tryGet(address, &value)) {
        throw VmError("unknown value at memory cell " + address.toString());
    }
    return value;
}

bool Memory::isSet(const Relocatable& address) const {
    const std::vector<Cell>* cells = segmentFor(address.segment);
    return cells && address.offset < cells->size() && (*cells)[address.offset].isSet();
}

void Memory::set(const Relocatable& address, const Value& value) {
    std::vector<Cell>* cells = segmentFor(address.segment);
    if (!cells) {
        throw VmError("write to a segment that does not exist: " + address.toString());
    }
    if (address.offset >= (1ULL << 40)) {
        throw VmError("write at an offset too large: " + address.toString());
    }
    if (address.offset >= cells->size()) {
        cells->resize(address.offset + 1);
    }
    Cell& cell = (*cells)[address.offset];
    const Cell fresh = Cell::of(value);
    if (cell.isSet()) {
        if (cell.w[0] != fresh.w[0] || cell.w[1] != fresh.w[1] || cell.w[2] != fresh.w[2] ||
            cell.w[3] != fresh.w[3]) {
            throw VmError("inconsistent memory assignment at " + address.toString() + ": " +
                          cell.value().toString() + " was written, now " + value.toString());
        }
        return;
    }
    cell = fresh;
    auto validators = m_validators.find(address.segment);
    if (validators != m_validators.end()) {
        for (const Validator& validate : validators->second) {
            validate(address, value);
        }
    }
}

void Memory::markAccessed(const Relocatable& address) {
    if (address.segment < 0 || static_cast<std::size_t>(address.segment) >= m_accessed.size()) {
        return;
    }
    auto& marks = m_accessed[static_cast<std::size_t>(address.segment)];
    if (address.offset >= marks.size()) {
        marks.resize(address.offset + 1, false);
    }
    marks[address.offset] = true;
}

std::size_t Memory::accessedCount(std::int64_t segment) const {
    if (segment < 0 || static_cast<std::size_t>(segment) >= m_accessed.size()) {
        return 0;
    }
    std::size_t count = 0;
    for (bool mark : m_accessed[static_cast<std::size_t>(segment)]) {
        count += mark ? 1 : 0;
    }
    return count;
}

std::uint64_t Memory::segmentUsedSize(std::int64_t segment) const {
    const std::vector<Cell>* cells = segmentFor(segment);
    return cells ? cells->size() : 0;
}

const std::vector<Memory::Cell>& Memory::segmentCells(std::int64_t segment) const {
    static const std::vector<Cell> empty;
    const std::vector<Cell>* cells = segmentFor(segment);
    return cells ? *cells : empty;
}

void Memory::addValidator(std::int64_t segment, Validator validator) {
    m_validators[segment].push_back(std::move(validator));
}

void Memory::addRelocationRule(const Relocatable& temporaryBase, const Relocatable& destination) {
    if (temporaryBase.segment >= 0 || temporaryBase.offset != 0) {
        throw VmError("a relocation rule must start at the base of a temporary segment, not " +
                      temporaryBase.toString());
    }
    if (m_relocationRules.count(temporaryBase.segment)) {
        throw VmError("segment " + temporaryBase.toString() + " already has a relocation rule");
    }
    m_relocationRules[temporaryBase.segment] = destination;
}

Relocatable Memory::relocated(const Relocatable& address) const {
    Relocatable current = address;
    for (int depth = 0; current.segment < 0 && depth < 64; ++depth) {
        auto rule = m_relocationRules.find(current.segment);
        if (rule == m_relocationRules.end()) {
            return current;
        }
        current = rule->second + static_cast<std::int64_t>(current.offset);
    }
    return current;
}

void Memory::relocateTemporarySegments() {
    if (m_tempSegments.empty()) {
        return;
    }
    auto resolve = [this](const Relocatable& address) { return relocated(address); };
    auto rewrite = [&resolve](Cell& cell) {
        if (cell.isSet() && cell.isAddress() && static_cast<std::int64_t>(cell.w[1]) < 0) {
            cell = Cell::of(resolve({static_cast<std::int64_t>(cell.w[1]), cell.w[0]}));
        }
    };
    for (auto& segment : m_segments) {
        for (Cell& cell : segment) {
            rewrite(cell);
        }
    }
    for (std::size_t i = 0; i < m_tempSegments.size(); ++i) {
        const std::int64_t segment = -static_cast<std::int64_t>(i) - 1;
        auto& cells = m_tempSegments[i];
        bool hasData = false;
        for (const Cell& cell : cells) {
            hasData = hasData || cell.isSet();
        }
        if (!hasData) {
            continue;
        }
        const Relocatable base = resolve({segment, 0});
        if (base.segment < 0) {
            throw VmError("temporary segment " + std::to_string(segment) +
                          " has data but no relocation rule");
        }
        for (std::size_t offset = 0; offset < cells.size(); ++offset) {
            if (cells[offset].isSet()) {
                rewrite(cells[offset]);
                set(base + static_cast<std::int64_t>(offset), cells[offset].value());
            }
        }
        cells.clear();
    }
}

std::size_t Memory::cellCount() const {
    std::size_t count = 0;
    for (const auto& segment : m_segments) {
        for (const Cell& cell : segment) {
            count += cell.isSet() ? 1 : 0;
        }
    }
    return count;
}

void Memory::finalizeSegment(std::int64_t segment, std::uint64_t size) {
    if (segment < 0 || static_cast<std::size_t>(segment) >= m_segments.size()) {
        throw VmError("segments.finalize: no segment " + std::to_string(segment));
    }
    m_finalizedSizes[segment] = size;
}

std::optional<std::uint64_t> Memory::finalizedSize(std::int64_t segment) const {
    auto it = m_finalizedSizes.find(segment);
    if (it == m_finalizedSizes.end()) {
        return std::nullopt;
    }
    return it->second;
}

} // namespace proofdesk::cairo
