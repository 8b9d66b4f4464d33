#pragma once

#include "Hashes.h"
#include "Rejection.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::stark {

class ProofReader;

// Which hash Stone uses where in a commitment's Merkle tree: nodes whose children sit at depth
// d (the root at depth 0) use the verifier-friendly hash when d ≤ verifierFriendlyLayers, the
// commitment hash below. Hashing a table row counts as one layer below the leaves.
struct CommitmentHashes {
    NamedHash commitment;
    NamedHash verifierFriendly;
    std::uint64_t verifierFriendlyLayers = 0;

    const NamedHash& forChildDepth(std::uint64_t depth) const {
        return depth <= verifierFriendlyLayers ? verifierFriendly : commitment;
    }
};

// A table of `rows` rows (a power of two) and `columns` field elements per row, committed row by
// row: a row's leaf is the hash of its cells' Montgomery words (for one column, two consecutive
// rows form a leaf as a Merkle pair).
struct TableShape {
    std::uint64_t rows = 0;
    std::size_t columns = 0;
};

using Cell = std::pair<std::uint64_t, std::size_t>; // (row, column)

// The leaf digests of the tree over a table: row i's leaf (or pair i's for one column).
std::uint64_t leafCount(const TableShape& shape);
int treeHeight(const TableShape& shape);
std::optional<Digest> rowLeaf(const std::vector<Fp>& row, const TableShape& shape,
                              const CommitmentHashes& hashes);

// Reads a table's decommitment for the queried rows (ascending, distinct) in Stone's order — the
// cells the verifier does not already know (row by row), the partner rows completing two-row
// leaves of a one-column table, then the authentication nodes bottom-up, left to right — and
// checks it against `root`. Throws Rejection (at `stage`) naming `name` when the root differs.
// Returns every queried row's cells.
std::map<std::uint64_t, std::vector<Fp>>
decommitTable(ProofReader& reader, const TableShape& shape, const Digest& root,
              const std::vector<std::uint64_t>& rows, const std::map<Cell, Fp>& known,
              const CommitmentHashes& hashes, Stage stage, const std::string& name);

} // namespace proofdesk::stark
