#pragma once

#include "Parallel.h"
#include "TableCommitment.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <vector>

namespace proofdesk::stark {

class ProofWriter;

// Where a committed table's polynomials are evaluated: the 2^logDomain points offset·ω^bitrev(e)
// (entry e), `rowWidth` consecutive entries of each polynomial per table row — one entry per row
// for the trace (a row holds every column at one point), a coset of 2^step entries for a FRI
// layer.
struct EvaluationDomain {
    int logDomain = 0;
    Fp offset = Fp::one();
    std::size_t rowWidth = 1;
};

// A table Stone commits to — the trace, the interaction trace, the composition's columns, a FRI
// layer — held as the coefficients of its polynomials, never as a whole evaluation: committing
// evaluates one block (a coset as large as a polynomial) at a time, hashing every row as its
// columns arrive, and keeps the Merkle tree's top levels only; decommitting re-evaluates the
// subtrees the queries fall in. A one-column table pairs its rows into leaves (the two cells'
// Montgomery words hashed as a Merkle pair), as Stone does.
class CommittedTable {
public:
    // `polynomials` (power-of-two sizes, the largest at most the domain's) must outlive the
    // table; one with fewer coefficients than the largest, N, is a periodic column's h, the
    // polynomial h(x^(N/size)) (evaluatePeriodicOnCoset).
    // Merkle levels down to `storedDepth` are kept (2^16 digests, 2 MiB, at the deepest).
    // Committing evaluates at most `maxBlockEntries` entries (a power of two) of each polynomial
    // at a time, but always a whole leaf.
    CommittedTable(std::vector<std::span<const Fp>> polynomials, EvaluationDomain domain,
                   CommitmentHashes hashes, CancelFlag cancel = {}, int storedDepth = 16,
                   std::size_t maxBlockEntries = std::size_t(1) << 19);

    TableShape shape() const { return m_shape; }
    // Evaluates, hashes and builds the tree; `progress` gets the fraction done. Returns the root.
    Digest commit(const std::function<void(double)>& progress = {});
    const Digest& root() const { return m_levels.front().front(); }

    // Writes the decommitment of `rows` (ascending, distinct) the way decommitTable reads it:
    // the cells not in `known`, row by row, then the authentication nodes bottom-up.
    void decommit(ProofWriter& writer, const std::vector<std::uint64_t>& rows,
                  const std::set<Cell>& known = {}) const;
    // The cells of one row (re-evaluated).
    std::vector<Fp> row(std::uint64_t index) const;

private:
    struct Subtree {
        std::vector<std::vector<Fp>> rows;
        std::vector<std::vector<Digest>> levels; // levels[0]: the leaves; up to depth K + 1
    };
    Subtree recompute(std::uint64_t subtree) const;
    // The subtree from its polynomials' values on its coset.
    Subtree subtreeOf(const std::vector<std::vector<Fp>>& values) const;
    // Several subtrees, their cosets evaluated together.
    std::map<std::uint64_t, Subtree> recomputeAll(const std::set<std::uint64_t>& subtrees) const;
    // The leaves over rows given as each polynomial's entries.
    std::vector<Digest> hashLeaves(const std::vector<std::vector<Fp>>& evaluations,
                                   std::size_t rows) const;
    Digest node(int depth, std::uint64_t index, std::map<std::uint64_t, Subtree>& cache) const;

    std::vector<std::span<const Fp>> m_polynomials;
    EvaluationDomain m_domain;
    CommitmentHashes m_hashes;
    CancelFlag m_cancel;
    TableShape m_shape;
    std::uint64_t m_rowsPerLeaf = 1; // 2 for a one-column table: two cells make a leaf
    int m_height = 0;                // depth of the leaves
    int m_keptDepth = 0;             // levels 0 … m_keptDepth are stored
    std::size_t m_maxBlockEntries;
    std::size_t m_coefficients = 0; // the largest polynomial's
    std::vector<std::vector<Digest>> m_levels;
};

// The values of polynomials at the 2^k points x0·ω_{2^k}^bitrev(i) (slot i), each polynomial
// folded modulo x^(2^k) − x0^(2^k) first when it has more coefficients than that.
std::vector<std::vector<Fp>> evaluateOnSmallCoset(const std::vector<std::span<const Fp>>& polys,
                                                  const Fp& x0, int k);
// The same on several cosets at once (result[c] is coset x0s[c]'s): the remainders are found by
// halving the polynomials, the halves shared by the cosets they serve (issue #48: folding every
// column onto each queried coset from its coefficients took most of a decommitment).
std::vector<std::vector<std::vector<Fp>>>
evaluateOnSmallCosets(const std::vector<std::span<const Fp>>& polys, const std::vector<Fp>& x0s,
                      int k);

} // namespace proofdesk::stark
