#pragma once

#include "Parallel.h"
#include "air/Air.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace proofdesk::stark {

// A constraint that does not hold on the trace: which, where, and the cells it read there.
struct ConstraintViolation {
    std::string constraint;
    std::uint64_t row = 0;
    std::vector<std::pair<std::string, Fp>> cells; // "column 19, row 4113" -> value
};

// Evaluates an AIR's constraints over a whole coset offset·⟨g⟩ of the trace domain (g of order N,
// the trace length) at once, from every trace column's values there, in chunks of 128 points
// split over the workers. The composition takes the values in the transforms' bit-reversed
// order (slot i holds the value at offset·g^bitrev(i)), so no column is permuted: a chunk of
// slots holds rows u + C·bitrev(q) (C = N/128), and a cell read at row offset r is another
// chunk's slots, rotated where u + r passes a multiple of C. The constraint checker takes the
// trace rows themselves (offset 1) in natural order. With the vector path
// (vector_field::enabled()) the composition keeps a chunk's nodes in that path's own form
// (vector_field::rows): a cell is converted once when read, not at every product.
class ConstraintEvaluator {
public:
    // `values`: the public values and interaction elements the constraints read, by name.
    ConstraintEvaluator(const air::Air& air, const std::map<std::string, Fp>& values);

    // The composition Σ_k α^k·c_k(x)·numerator_k(x)/denominator_k(x) at x = offset·g^bitrev(i)
    // into out[i], from the columns' values at those points (bit-reversed order, as forwardNtt
    // leaves them). `columns` are indexed as the layout numbers columns (first, then
    // interaction). A column given fewer than N values is periodic: its values at offset·g^k for
    // k below its size, in natural order, repeat (periodicCosetValues). So in firstViolation.
    void composition(const std::vector<std::span<const Fp>>& columns, const Fp& offset,
                     const Fp& alpha, std::span<Fp> out, CancelFlag cancel = {}) const;

    // The first constraint (in the AIR's order) that fails on a row of its domain, at the lowest
    // such row; `columns` hold the trace's values on its rows. With `interactionOnly` false only
    // the constraints reading no interaction column are checked (the interaction is not drawn
    // yet), with true only those reading one.
    std::optional<ConstraintViolation>
    firstViolation(const std::vector<std::span<const Fp>>& columns, bool interactionOnly,
                   CancelFlag cancel = {}) const;

private:
    struct Chunk;
    struct Tables;
    void tabulateLargeDomains();
    Tables tablesFor(const Fp& offset, bool withInverses) const;
    // The rows after which a domain's values repeat: the largest of its factors' N/power.
    std::uint64_t periodOf(std::size_t domain) const;
    // Chunk `index` of the points: rows index·lanes … in natural order, or, bit-reversed, the
    // slots index·lanes … of values stored in the transforms' order.
    void placeChunk(std::size_t index, bool bitReversed, Chunk& chunk) const;
    // Where a cell `shift` rows on reads for a bit-reversed chunk of residue u: the first slot
    // of the chunk holding its rows, and how far that chunk's lanes turn.
    struct ShiftedChunk {
        std::size_t start = 0;
        std::uint64_t turn = 0;
    };
    ShiftedChunk shiftedChunk(std::uint64_t residue, std::uint64_t shift) const;
    void readShiftedLanes(const Fp* column, std::uint64_t shift, const Chunk& chunk, Fp* out,
                          const Fp*& values) const;
    // Fetches into L2, ahead, the blocks the chunk of residue `residue` reads.
    void prefetchChunk(const std::vector<std::span<const Fp>>& columns,
                       std::uint64_t residue) const;
    void readPeriodic(std::span<const Fp> table, const Chunk& chunk, Fp* out,
                      std::uint64_t shift = 0) const;
    const Fp* cellRows(const std::vector<std::span<const Fp>>& columns, std::uint32_t cell,
                       const Chunk& chunk, Fp* scratch) const;
    template <bool packed>
    void evaluateNodes(const std::vector<std::span<const Fp>>& columns, const Tables& tables,
                       Chunk& chunk) const;
    void evaluateDomains(const Tables& tables, Chunk& chunk) const;

    const air::Air& m_air;
    std::uint64_t m_length;
    std::vector<Fp> m_named;                 // by the arena's value slots
    std::vector<std::uint64_t> m_cellColumn; // per arena cell
    std::vector<std::uint64_t> m_cellShift;  // row offset mod N
    std::vector<air::DomainFactor> m_factors;
    std::vector<std::vector<std::size_t>> m_domains; // distinct domains as factor indices
    // Domains of many factors (the Keccak builtin's have up to 962), tabulated per coset rather
    // than multiplied out on every row: a product of factors x^power − c is a polynomial q in
    // y = x^(N/period), period the largest of its factors' periods N/power, so on a coset it
    // takes `period` values, found by one transform of q's coefficients.
    struct TabulatedDomain {
        std::uint64_t period = 0;
        std::vector<Fp> coefficients; // of q, lowest first
    };
    std::vector<TabulatedDomain> m_tabulated;
    std::vector<std::size_t> m_tabulatedSlot; // per domain: its index in m_tabulated, or none
    // Per factor: its slot among the factors a domain multiplied per row reads, or none.
    std::vector<std::size_t> m_factorSlot;
    std::size_t m_factorsPerRow = 0;
    std::vector<std::size_t> m_numerator; // per constraint: its domain index
    std::vector<std::size_t> m_denominator;
    std::vector<std::size_t> m_denominators; // the distinct denominators, in first use
    std::vector<bool> m_readsInteraction;    // per constraint
    std::vector<std::vector<std::uint32_t>> m_constraintCells; // arena cell slots per constraint
    // A chunk's lanes, min(kRows, N): per lane q, bitrev(q) over log2(lanes) bits.
    std::vector<std::uint32_t> m_laneReversed;
    std::uint64_t m_stride = 1; // C = N/lanes, the spacing of a bit-reversed chunk's rows
    int m_strideBits = 0;       // log2 C
};

} // namespace proofdesk::stark
