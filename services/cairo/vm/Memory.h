#pragma once

#include "cairo/vm/Value.h"

#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace proofdesk::cairo {

// Write-once segmented memory. Each cell is 32 bytes: a felt's four limbs, or (offset, segment)
// for an address, with the cell's kind in the top bits of the last limb (a felt never uses
// bits 252..255). Temporary segments have negative indices until relocation rules move them.
class Memory {
public:
    struct Cell {
        std::uint64_t w[4] = {0, 0, 0, 0};
        static constexpr std::uint64_t kSet = 1ULL << 63;
        static constexpr std::uint64_t kAddress = 1ULL << 62;
        bool isSet() const { return (w[3] & kSet) != 0; }
        bool isAddress() const { return (w[3] & kAddress) != 0; }
        Value value() const;
        static Cell of(const Value& value);
    };
    using Validator = std::function<void(const Relocatable&, const Value&)>;

    Relocatable addSegment();
    Relocatable addTempSegment();
    std::size_t segmentCount() const { return m_segments.size(); }

    // The value at an address, or nullptr if the cell was never written.
    bool tryGet(const Relocatable& address, Value* out) const;
    Value get(const Relocatable& address) const; // throws VmError if unset
    bool isSet(const Relocatable& address) const;
    // Write-once: writing a different value to a written cell throws VmError.
    void set(const Relocatable& address, const Value& value);

    // Cells read or written by instructions (pc, dst, op0, op1), for memory holes.
    void markAccessed(const Relocatable& address);
    std::size_t accessedCount(std::int64_t segment) const;

    // Used size of a segment: highest written offset + 1 (0 if empty).
    std::uint64_t segmentUsedSize(std::int64_t segment) const;
    const std::vector<Cell>& segmentCells(std::int64_t segment) const;
    // segments.finalize(index, size): the segment's size for relocation, whatever it uses.
    void finalizeSegment(std::int64_t segment, std::uint64_t size);
    std::optional<std::uint64_t> finalizedSize(std::int64_t segment) const;

    void addValidator(std::int64_t segment, Validator validator);

    // Temporary-segment relocation (segments.add_temp_segment + memory.add_relocation_rule).
    void addRelocationRule(const Relocatable& temporaryBase, const Relocatable& destination);
    // An address with the relocation rules applied (unchanged if none applies).
    Relocatable relocated(const Relocatable& address) const;
    // Moves every temporary segment with a rule into its destination and rewrites addresses that
    // point into it. Throws if a temporary segment has data but no rule.
    void relocateTemporarySegments();

    std::size_t cellCount() const; // written cells in all real segments

private:
    std::vector<Cell>* segmentFor(std::int64_t segment);
    const std::vector<Cell>* segmentFor(std::int64_t segment) const;

    std::vector<std::vector<Cell>> m_segments;
    std::vector<std::vector<Cell>> m_tempSegments; // index -1 - segment
    std::vector<std::vector<bool>> m_accessed;
    std::map<std::int64_t, std::vector<Validator>> m_validators;
    std::map<std::int64_t, Relocatable> m_relocationRules;
    std::map<std::int64_t, std::uint64_t> m_finalizedSizes;
};

} // namespace proofdesk::cairo
