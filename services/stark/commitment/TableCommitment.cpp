#include "TableCommitment.h"

#include "channel/ProofReader.h"

#include <bit>

namespace proofdesk::stark {

std::uint64_t leafCount(const TableShape& shape) {
    return shape.columns == 1 ? shape.rows / 2 : shape.rows;
}

int treeHeight(const TableShape& shape) {
    return std::countr_zero(leafCount(shape));
}

namespace {

std::vector<std::uint8_t> rowBytes(const std::vector<Fp>& row) {
    std::vector<std::uint8_t> bytes(row.size() * 32);
    for (std::size_t i = 0; i < row.size(); ++i) {
        toMontgomeryBytes(row[i], bytes.data() + 32 * i);
    }
    return bytes;
}

Digest feltWord(const Fp& value) {
    Digest word{};
    toMontgomeryBytes(value, word.data());
    return word;
}

} // namespace

std::optional<Digest> rowLeaf(const std::vector<Fp>& row, const TableShape& shape,
                              const CommitmentHashes& hashes) {
    const NamedHash& hash = hashes.forChildDepth(std::uint64_t(treeHeight(shape)) + 1);
    return hash.hashBytes(rowBytes(row));
}

std::map<std::uint64_t, std::vector<Fp>>
decommitTable(ProofReader& reader, const TableShape& shape, const Digest& root,
              const std::vector<std::uint64_t>& rows, const std::map<Cell, Fp>& known,
              const CommitmentHashes& hashes, Stage stage, const std::string& name) {
    std::map<std::uint64_t, std::vector<Fp>> values;
    for (const std::uint64_t row : rows) {
        if (row >= shape.rows) {
            throw Rejection(stage, name + ": query row " + std::to_string(row) + " out of range");
        }
        std::vector<Fp>& cells = values[row];
        cells.reserve(shape.columns);
        for (std::size_t column = 0; column < shape.columns; ++column) {
            const auto it = known.find({row, column});
            cells.push_back(it != known.end()
                                ? it->second
                                : reader.readDecommittedFelt(name + ", row " + std::to_string(row) +
                                                             ", column " + std::to_string(column)));
        }
    }

    const int height = treeHeight(shape);
    const NamedHash& leafHash = hashes.forChildDepth(std::uint64_t(height) + 1);
    std::map<std::uint64_t, Digest> level;
    const auto failed = [&](const std::string& what) {
        return Rejection(stage, name + ": " + what);
    };
    if (shape.columns == 1) {
        std::map<std::uint64_t, Digest> words;
        for (const auto& [row, cells] : values) {
            words[row] = feltWord(cells[0]);
        }
        std::map<std::uint64_t, Digest> partners;
        for (const auto& [row, word] : words) {
            if (!words.contains(row ^ 1)) {
                partners[row ^ 1] = {};
            }
        }
        for (auto& [row, word] : partners) {
            word = reader.readNode(name + ", row " + std::to_string(row));
        }
        words.merge(partners);
        for (const auto& [row, word] : words) {
            if (row % 2 == 0) {
                const auto leaf = leafHash.hashPair(word, words.at(row + 1));
                if (!leaf) {
                    throw failed("a decommitted word is not a field element");
                }
                level[row / 2] = *leaf;
            }
        }
    } else {
        for (const auto& [row, cells] : values) {
            const auto leaf = leafHash.hashBytes(rowBytes(cells));
            if (!leaf) {
                throw failed("a row cannot be hashed");
            }
            level[row] = *leaf;
        }
    }

    for (int depth = height; depth > 0; --depth) {
        const NamedHash& hash = hashes.forChildDepth(std::uint64_t(depth));
        std::map<std::uint64_t, Digest> parents;
        for (auto it = level.begin(); it != level.end();) {
            const std::uint64_t index = it->first;
            Digest left{}, right{};
            const auto sibling = level.find(index ^ 1);
            const Digest siblingDigest =
                sibling != level.end()
                    ? sibling->second
                    : reader.readNode(name + ": authentication node " +
                                      std::to_string((std::uint64_t(1) << depth) + (index ^ 1)));
            if (index % 2 == 0) {
                left = it->second;
                right = siblingDigest;
            } else {
                left = siblingDigest;
                right = it->second;
            }
            const auto parent = hash.hashPair(left, right);
            if (!parent) {
                throw failed("an authentication node is not a field element");
            }
            parents[index / 2] = *parent;
            it = sibling != level.end() && (index % 2 == 0) ? std::next(it, 2) : std::next(it);
        }
        level = std::move(parents);
    }
    if (level.size() != 1 || level.begin()->second != root) {
        throw failed("Merkle root mismatch");
    }
    return values;
}

} // namespace proofdesk::stark
