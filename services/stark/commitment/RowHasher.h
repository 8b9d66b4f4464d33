#pragma once

#include "Hashes.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace proofdesk::stark {

// Hashes the rows of a block of a committed table as Stone's HashBytesWithLength does (a row is
// the 32-byte Montgomery words of its cells), fed one column at a time: every row keeps its own
// running state, so a block's columns never need to be in memory together.
class RowHasher {
public:
    virtual ~RowHasher() = default;
    // For rows [0, rows): a row's next `width` cells are values[row·width …] (all rows advance
    // together). Rows are split over the prover's workers.
    virtual void absorb(std::span<const Fp> values, std::size_t width) = 0;
    // absorb() for each of `columns` in turn; a hasher whose running states outgrow the caches
    // walks them once for all of them.
    virtual void absorbColumns(std::span<const std::span<const Fp>> columns, std::size_t width) {
        for (const std::span<const Fp> values : columns) {
            absorb(values, width);
        }
    }
    // The rows' digests (masked as the hash names) into `digests`, resized to the rows (its
    // storage is reused, so a caller hashing block after block faults its pages in once); the
    // hasher starts over afterwards.
    virtual void finishInto(std::vector<Digest>& digests) = 0;
    std::vector<Digest> finish() {
        std::vector<Digest> digests;
        finishInto(digests);
        return digests;
    }

    // A hasher for `rows` rows of `cells` cells with the named hash; throws
    // std::invalid_argument for a hash the prover does not commit with (Pedersen).
    static std::unique_ptr<RowHasher> make(const NamedHash& hash, std::size_t rows,
                                           std::size_t cells);
};

// parents[i] = the hash of children[2i] and children[2i + 1] (a Merkle tree's next level), as
// NamedHash::hashPair gives it, batched for the prover: Keccak permutations side by side,
// Poseidon eight lanes at a time. Runs on the calling thread.
void hashPairs(const NamedHash& hash, const Digest* children, std::size_t count, Digest* parents);

} // namespace proofdesk::stark
