#include "CommittedTable.h"

#include "RowHasher.h"
#include "algebra/Ntt.h"
#include "channel/ProofWriter.h"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <mutex>
#include <stdexcept>

namespace proofdesk::stark {
namespace {

// The polynomials a block evaluates before their values are hashed together.
constexpr std::size_t kHashedTogether = 4;
// The blocks a coset is committed in, at most: each folds the whole polynomial first.
constexpr std::size_t kMostBlocksPerCoset = 4;

// The parents of a level of nodes, hashed in parallel, into `parents` (resized, storage reused).
void parentsInto(const std::vector<Digest>& level, const NamedHash& hash,
                 std::vector<Digest>& parents) {
    parents.resize(level.size() / 2);
    Workers::shared().forRange(parents.size(), 256, [&](std::size_t begin, std::size_t end) {
        hashPairs(hash, level.data() + 2 * begin, end - begin, parents.data() + begin);
    });
}

std::vector<Digest> parentsOf(const std::vector<Digest>& level, const NamedHash& hash) {
    std::vector<Digest> parents;
    parentsInto(level, hash, parents);
    return parents;
}

Digest wordOf(const Fp& value) {
    Digest word{};
    toMontgomeryBytes(value, word.data());
    return word;
}

// The leaves of a one-column table: rows 2k and 2k + 1 as a Merkle pair of their words.
void pairLeavesInto(std::span<const Fp> cells, const NamedHash& hash, std::vector<Digest>& leaves) {
    leaves.resize(cells.size() / 2);
    Workers::shared().forRange(leaves.size(), 256, [&](std::size_t begin, std::size_t end) {
        constexpr std::size_t kBatch = 64;
        std::array<Digest, 2 * kBatch> words;
        for (std::size_t first = begin; first < end; first += kBatch) {
            const std::size_t n = std::min(kBatch, end - first);
            for (std::size_t i = 0; i < 2 * n; ++i) {
                words[i] = wordOf(cells[2 * first + i]);
            }
            hashPairs(hash, words.data(), n, leaves.data() + first);
        }
    });
}

std::vector<Digest> pairLeaves(const std::vector<Fp>& cells, const NamedHash& hash) {
    std::vector<Digest> leaves;
    pairLeavesInto(cells, hash, leaves);
    return leaves;
}

} // namespace

std::vector<std::vector<Fp>> evaluateOnSmallCoset(const std::vector<std::span<const Fp>>& polys,
                                                  const Fp& x0, int k) {
    return std::move(evaluateOnSmallCosets(polys, {x0}, k).front());
}

std::vector<std::vector<std::vector<Fp>>>
evaluateOnSmallCosets(const std::vector<std::span<const Fp>>& polys, const std::vector<Fp>& x0s,
                      int k) {
    const std::size_t m = std::size_t(1) << k;
    std::vector<std::vector<std::vector<Fp>>> out(
        x0s.size(), std::vector<std::vector<Fp>>(polys.size(), std::vector<Fp>(m)));
    if (polys.empty() || x0s.empty()) {
        return out;
    }
    // Periodic columns' polynomials (fewer coefficients than the largest) are evaluated alone
    // at the end; the others are remainders first.
    std::size_t size = 0;
    for (const std::span<const Fp> poly : polys) {
        size = std::max(size, poly.size());
    }
    std::vector<std::size_t> dense;
    for (std::size_t p = 0; p < polys.size(); ++p) {
        if (polys[p].size() == size) {
            dense.push_back(p);
        }
    }
    if (size <= m) { // the polynomial is its own remainder
        for (std::vector<std::vector<Fp>>& coset : out) {
            for (const std::size_t p : dense) {
                std::copy(polys[p].begin(), polys[p].end(), coset[p].begin());
            }
        }
    } else {
        // Each polynomial's remainder modulo x^m − x0^m per coset, by a tree of halvings: the
        // remainder modulo x^(s/2) − f, f = x0^(s/2), is the remainder modulo x^s − f² with its
        // high half times f added to its low half, and cosets whose x0^(s/2) agree share it.
        // Folding each coset from the coefficients took size products per coset and polynomial;
        // the tree takes about size·(log2(cosets) + 2) per polynomial, whatever the cosets.
        const auto groupedBy = [&](const std::vector<std::size_t>& members, std::size_t exponent) {
            std::vector<std::pair<Fp, std::vector<std::size_t>>> groups;
            for (const std::size_t c : members) {
                const Fp key = x0s[c].pow(exponent);
                auto it = std::find_if(groups.begin(), groups.end(),
                                       [&](const auto& group) { return group.first == key; });
                if (it == groups.end()) {
                    groups.emplace_back(key, std::vector<std::size_t>{});
                    it = std::prev(groups.end());
                }
                it->second.push_back(c);
            }
            return groups;
        };
        // Halves `remainder` for each group of `members`, into `scratch` (which holds every
        // smaller level), down to m coefficients: the cosets' remainders. The groups are at most
        // two, with factors f and −f (their squares are the remainder's own factor): where both
        // are queried, both halves come from one pass, low ± f·high, in place of the remainder.
        const std::function<void(std::size_t, std::span<Fp>, const std::vector<std::size_t>&,
                                 std::span<Fp>)>
            descend = [&](std::size_t p, std::span<Fp> remainder,
                          const std::vector<std::size_t>& members, std::span<Fp> scratch) {
                if (remainder.size() == m) {
                    for (const std::size_t c : members) {
                        std::copy(remainder.begin(), remainder.end(), out[c][p].begin());
                    }
                    return;
                }
                const std::size_t half = remainder.size() / 2;
                const auto groups = groupedBy(members, half);
                if (groups.size() == 2) {
                    const std::span<Fp> plus = remainder.first(half);
                    const std::span<Fp> minus = remainder.subspan(half);
                    foldModuloPair(remainder, groups[0].first, plus, minus);
                    descend(p, plus, groups[0].second, scratch);
                    descend(p, minus, groups[1].second, scratch);
                    return;
                }
                const std::span<Fp> halved = scratch.first(half);
                foldModulo(remainder, groups.front().first, halved);
                descend(p, halved, groups.front().second, scratch.subspan(half));
            };
        // One task per polynomial and group of the first halving, each with a buffer of `size`
        // entries from a pool of one per running task.
        std::vector<std::size_t> all(x0s.size());
        for (std::size_t c = 0; c < all.size(); ++c) {
            all[c] = c;
        }
        const auto firstGroups = groupedBy(all, size / 2);
        std::mutex poolMutex;
        std::vector<std::vector<Fp>> pool;
        Workers::shared().forEach(dense.size() * firstGroups.size(), [&](std::size_t task) {
            std::vector<Fp> buffer;
            {
                const std::lock_guard lock(poolMutex);
                if (!pool.empty()) {
                    buffer = std::move(pool.back());
                    pool.pop_back();
                }
            }
            buffer.resize(size);
            const std::size_t p = dense[task / firstGroups.size()];
            const auto& [factor, group] = firstGroups[task % firstGroups.size()];
            const std::span<Fp> halved = std::span<Fp>(buffer).first(size / 2);
            foldModulo(polys[p], factor, halved);
            descend(p, halved, group, std::span<Fp>(buffer).subspan(size / 2));
            const std::lock_guard lock(poolMutex);
            pool.push_back(std::move(buffer));
        });
    }
    // The remainder r gives the values r(x0·y) = Σ_t (r_t·x0^t)·y^t on x0·⟨ω_m⟩.
    Workers::shared().forEach(x0s.size() * polys.size(), [&](std::size_t i) {
        std::vector<Fp>& values = out[i / polys.size()][i % polys.size()];
        const std::span<const Fp> poly = polys[i % polys.size()];
        if (poly.size() < size) {
            evaluatePeriodicOnCoset(poly, size / poly.size(), x0s[i / polys.size()], values);
            return;
        }
        scaleByPowers(values, x0s[i / polys.size()]);
        forwardNtt(values);
    });
    return out;
}

CommittedTable::CommittedTable(std::vector<std::span<const Fp>> polynomials,
                               EvaluationDomain domain, CommitmentHashes hashes, CancelFlag cancel,
                               int storedDepth, std::size_t maxBlockEntries)
    : m_polynomials(std::move(polynomials)), m_domain(domain), m_hashes(std::move(hashes)),
      m_cancel(cancel), m_maxBlockEntries(maxBlockEntries) {
    if (m_polynomials.empty()) {
        throw std::invalid_argument("a committed table needs a polynomial");
    }
    std::size_t size = 0;
    for (const auto& poly : m_polynomials) {
        size = std::max(size, poly.size());
    }
    for (const auto& poly : m_polynomials) {
        if (!std::has_single_bit(poly.size())) {
            throw std::invalid_argument("a committed table's polynomial has no power-of-two size");
        }
    }
    m_coefficients = size;
    const std::size_t entries = std::size_t(1) << domain.logDomain;
    if (!std::has_single_bit(size) || size > entries || !std::has_single_bit(domain.rowWidth) ||
        domain.rowWidth > size) {
        throw std::invalid_argument("a committed table's shape does not fit its domain");
    }
    m_shape = {entries / domain.rowWidth, m_polynomials.size() * domain.rowWidth};
    m_rowsPerLeaf = m_shape.columns == 1 ? 2 : 1;
    m_height = std::countr_zero(m_shape.rows / m_rowsPerLeaf);
    m_keptDepth = std::clamp(storedDepth, 0, m_height);
    if (!std::has_single_bit(m_maxBlockEntries)) {
        throw std::invalid_argument("a committed table's block size must be a power of two");
    }
}

std::vector<Digest> CommittedTable::hashLeaves(const std::vector<std::vector<Fp>>& evaluations,
                                               std::size_t rows) const {
    const NamedHash& hash = m_hashes.forChildDepth(std::uint64_t(m_height) + 1);
    if (m_rowsPerLeaf == 2) {
        return pairLeaves(evaluations.front(), hash);
    }
    auto hasher = RowHasher::make(hash, rows, m_shape.columns);
    for (const std::vector<Fp>& values : evaluations) {
        hasher->absorb(values, m_domain.rowWidth);
    }
    return hasher->finish();
}

Digest CommittedTable::commit(const std::function<void(double)>& progress) {
    // The domain is walked in blocks, each a coset of the polynomials' own size — an NTT of the
    // scaled coefficients — or, past m_maxBlockEntries entries, a smaller coset with each
    // polynomial folded onto it first (its coefficients k, k + size, … summed with the coset's
    // powers). Each block folds the whole polynomial (its size in products), so a coset is cut
    // into at most kMostBlocksPerCoset blocks; within that, a block's buffers and per-row hash
    // states (200 bytes a row for Keccak) stay near 0.2 GiB at the default 2^19 (2^16 steps on
    // small: a peak of 1,047 MiB against 1,225 with blocks of 2^21; at 2^20 steps 32 blocks a
    // coset tripled the commitment's time).
    const std::size_t coefficients = m_coefficients;
    const std::size_t size =
        std::min(coefficients, std::max({m_maxBlockEntries, coefficients / kMostBlocksPerCoset,
                                         m_domain.rowWidth * m_rowsPerLeaf}));
    const std::size_t folds = coefficients / size;
    const int n = std::countr_zero(size);
    const int logBlocks = m_domain.logDomain - n;
    const std::size_t blocks = std::size_t(1) << logBlocks;
    const std::size_t rowsPerBlock = size / m_domain.rowWidth;
    const std::size_t leavesPerBlock = rowsPerBlock / m_rowsPerLeaf;
    const int r = std::countr_zero(leavesPerBlock);
    const int blockDepth = std::max(m_keptDepth, m_height - r);
    std::vector<Digest> blockLevel(std::size_t(1) << blockDepth);
    const std::size_t nodesPerBlock = leavesPerBlock >> (m_height - blockDepth);

    const NamedHash& leafHash = m_hashes.forChildDepth(std::uint64_t(m_height) + 1);
    auto hasher =
        m_rowsPerLeaf == 1 ? RowHasher::make(leafHash, rowsPerBlock, m_shape.columns) : nullptr;
    // Polynomials are evaluated a few at a time and their values hashed together (the row
    // hasher's states are walked once per batch); the first buffer also serves pair leaves.
    const std::size_t batch = std::min(m_polynomials.size(), kHashedTogether);
    // (Each written whole before it is read, first by the workers.)
    std::vector<UninitializedBuffer<Fp>> buffers;
    for (std::size_t b = 0; b < batch; ++b) {
        buffers.emplace_back(size);
    }
    UninitializedBuffer<Fp>& scratch = buffers.front();
    UninitializedBuffer<Fp> powers(size); // the block's offset^k, shared by its polynomials
    // A block's leaves and the levels above them, alternating between two buffers: reused by
    // every block, so their pages are faulted in once.
    std::vector<Digest> leaves, upper, lower;
    const Fp omega = rootOfUnity(m_domain.logDomain);
    for (std::size_t block = 0; block < blocks; ++block) {
        const Fp offset = m_domain.offset * omega.pow(bitReverse(block, logBlocks));
        fillInParallel(powers, Fp::one());
        scaleByPowers(powers, offset);
        const Fp foldFactor = offset.pow(std::uint64_t(size)); // offset^size
        // The polynomial's values on the block: its coefficients (folded first when it is
        // larger than the block) times the powers, transformed.
        const auto evaluate = [&](std::span<const Fp> poly, std::span<Fp> out) {
            if (poly.size() < coefficients) { // a periodic column's
                evaluatePeriodicOnCoset(poly, coefficients / poly.size(), offset, out);
                return;
            }
            if (folds == 1) {
                forwardNttOfProducts(poly, powers, out);
                return;
            }
            foldModulo(poly, foldFactor, out);
            forwardNttOfProducts(out, powers, out);
        };
        if (hasher) {
            std::vector<std::span<const Fp>> evaluated;
            for (std::size_t first = 0; first < m_polynomials.size(); first += batch) {
                evaluated.clear();
                for (std::size_t p = first; p < std::min(first + batch, m_polynomials.size());
                     ++p) {
                    m_cancel.check();
                    evaluate(m_polynomials[p], buffers[p - first]);
                    evaluated.emplace_back(buffers[p - first]);
                }
                hasher->absorbColumns(evaluated, m_domain.rowWidth);
            }
            hasher->finishInto(leaves);
        } else {
            evaluate(m_polynomials.front(), scratch);
            pairLeavesInto(scratch, leafHash, leaves);
        }
        const std::vector<Digest>* level = &leaves;
        for (int depth = m_height; depth > blockDepth; --depth) {
            std::vector<Digest>& parents = level == &upper ? lower : upper;
            parentsInto(*level, m_hashes.forChildDepth(std::uint64_t(depth)), parents);
            level = &parents;
        }
        std::copy(level->begin(), level->end(),
                  blockLevel.begin() + std::ptrdiff_t(block * nodesPerBlock));
        if (progress) {
            progress(double(block + 1) / double(blocks));
        }
    }
    for (int depth = blockDepth; depth > m_keptDepth; --depth) {
        blockLevel = parentsOf(blockLevel, m_hashes.forChildDepth(std::uint64_t(depth)));
    }
    m_levels.assign(std::size_t(m_keptDepth) + 1, {});
    m_levels[std::size_t(m_keptDepth)] = std::move(blockLevel);
    for (int depth = m_keptDepth; depth > 0; --depth) {
        m_levels[std::size_t(depth) - 1] =
            parentsOf(m_levels[std::size_t(depth)], m_hashes.forChildDepth(std::uint64_t(depth)));
    }
    return root();
}

CommittedTable::Subtree CommittedTable::recompute(std::uint64_t subtree) const {
    return std::move(recomputeAll({subtree}).begin()->second);
}

std::map<std::uint64_t, CommittedTable::Subtree>
CommittedTable::recomputeAll(const std::set<std::uint64_t>& subtrees) const {
    const int logRows = m_height - m_keptDepth + std::countr_zero(m_rowsPerLeaf);
    const int k = logRows + std::countr_zero(m_domain.rowWidth);
    std::vector<std::uint64_t> order(subtrees.begin(), subtrees.end());
    std::vector<Fp> x0s;
    x0s.reserve(order.size());
    for (const std::uint64_t subtree : order) {
        const std::uint64_t firstEntry = (subtree << logRows) * m_domain.rowWidth;
        x0s.push_back(
            m_domain.offset *
            rootOfUnity(m_domain.logDomain).pow(bitReverse(firstEntry, m_domain.logDomain)));
    }
    const auto values = evaluateOnSmallCosets(m_polynomials, x0s, k);
    std::vector<Subtree> built(order.size());
    Workers::shared().forEach(order.size(), [&](std::size_t i) {
        m_cancel.check();
        built[i] = subtreeOf(values[i]);
    });
    std::map<std::uint64_t, Subtree> out;
    for (std::size_t i = 0; i < order.size(); ++i) {
        out.emplace(order[i], std::move(built[i]));
    }
    return out;
}

CommittedTable::Subtree
CommittedTable::subtreeOf(const std::vector<std::vector<Fp>>& values) const {
    const int logRows = m_height - m_keptDepth + std::countr_zero(m_rowsPerLeaf);
    const std::size_t rows = std::size_t(1) << logRows;
    Subtree out;
    out.rows.resize(rows);
    for (std::size_t row = 0; row < rows; ++row) {
        out.rows[row].reserve(m_shape.columns);
        for (const std::vector<Fp>& poly : values) {
            for (std::size_t u = 0; u < m_domain.rowWidth; ++u) {
                out.rows[row].push_back(poly[row * m_domain.rowWidth + u]);
            }
        }
    }
    out.levels.push_back(hashLeaves(values, rows));
    for (int depth = m_height; depth > m_keptDepth + 1; --depth) {
        out.levels.push_back(
            parentsOf(out.levels.back(), m_hashes.forChildDepth(std::uint64_t(depth))));
    }
    return out;
}

Digest CommittedTable::node(int depth, std::uint64_t index,
                            std::map<std::uint64_t, Subtree>& cache) const {
    if (depth <= m_keptDepth) {
        return m_levels[std::size_t(depth)][index];
    }
    const std::uint64_t subtree = index >> (depth - m_keptDepth);
    auto it = cache.find(subtree);
    if (it == cache.end()) {
        it = cache.emplace(subtree, recompute(subtree)).first;
    }
    const std::uint64_t local = index - (subtree << (depth - m_keptDepth));
    return it->second.levels[std::size_t(m_height - depth)][local];
}

std::vector<Fp> CommittedTable::row(std::uint64_t index) const {
    const int logRows = m_height - m_keptDepth + std::countr_zero(m_rowsPerLeaf);
    const Subtree subtree = recompute(index >> logRows);
    return subtree.rows[index & ((std::uint64_t(1) << logRows) - 1)];
}

void CommittedTable::decommit(ProofWriter& writer, const std::vector<std::uint64_t>& rows,
                              const std::set<Cell>& known) const {
    const int logRows = m_height - m_keptDepth + std::countr_zero(m_rowsPerLeaf);
    // Every subtree the rows fall in (their pair partners and the authentication nodes below the
    // kept levels lie in the same ones), evaluated together.
    std::set<std::uint64_t> subtrees;
    for (const std::uint64_t row : rows) {
        subtrees.insert(row >> logRows);
    }
    std::map<std::uint64_t, Subtree> cache = recomputeAll(subtrees);
    for (const std::uint64_t row : rows) {
        m_cancel.check();
        const std::uint64_t subtree = row >> logRows;
        auto it = cache.find(subtree);
        if (it == cache.end()) {
            it = cache.emplace(subtree, recompute(subtree)).first;
        }
        const std::vector<Fp>& cells = it->second.rows[row & ((std::uint64_t(1) << logRows) - 1)];
        for (std::size_t column = 0; column < cells.size(); ++column) {
            if (!known.contains({row, column})) {
                writer.writeDecommittedFelt(
                    cells[column], writer.annotating() ? "Row " + std::to_string(row) +
                                                             ", Column " + std::to_string(column)
                                                       : std::string());
            }
        }
    }
    std::set<std::uint64_t> level(rows.begin(), rows.end());
    if (m_rowsPerLeaf == 2) {
        // The partners completing the queried rows' pairs, as words, then the pairs as leaves.
        std::set<std::uint64_t> leaves;
        for (const std::uint64_t row : rows) {
            if (!level.contains(row ^ 1)) {
                const auto it = cache.find((row ^ 1) >> logRows);
                const std::vector<Fp>& partner =
                    it->second.rows[(row ^ 1) & ((std::uint64_t(1) << logRows) - 1)];
                writer.writeData(wordOf(partner[0]),
                                 writer.annotating()
                                     ? "To complete packages, element #" + std::to_string(row ^ 1)
                                     : std::string());
            }
            leaves.insert(row / 2);
        }
        level = std::move(leaves);
    }
    for (int depth = m_height; depth > 0; --depth) {
        std::set<std::uint64_t> parents;
        for (auto it = level.begin(); it != level.end();) {
            const std::uint64_t index = *it;
            const bool siblingKnown = level.contains(index ^ 1);
            if (!siblingKnown) {
                writer.writeNode(node(depth, index ^ 1, cache),
                                 writer.annotating()
                                     ? "For node " +
                                           std::to_string((std::uint64_t(1) << depth) + (index ^ 1))
                                     : std::string());
            }
            parents.insert(index / 2);
            it = siblingKnown && index % 2 == 0 ? std::next(it, 2) : std::next(it);
        }
        level = std::move(parents);
    }
}

} // namespace proofdesk::stark
