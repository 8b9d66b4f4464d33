#pragma once

#include <QByteArray>
#include <QString>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace proofdesk::chain {

enum class HashingFunction { Keccak, Poseidon };

// "KECCAK" / "POSEIDON" (the spec's HashingFunction values).
QString hashingFunctionName(HashingFunction function);
// Either spelling's case: "KECCAK", "keccak", "Keccak".
std::optional<HashingFunction> parseHashingFunction(const QString& text);

using MmrHash = std::array<std::uint8_t, 32>; // big-endian; a felt for Poseidon

MmrHash toMmrHash(const QByteArray& bytes32);
QByteArray toBytes(const MmrHash& hash);
QString toHex(const MmrHash& hash);
std::optional<MmrHash> mmrHashFromHex(const QString& text);

// A Merkle Mountain Range as Herodotus accumulates block hashes (docs/architecture.md):
// 1-based post-order element indices, parent = H(left, right), root =
// H(element count, bag of peaks folded from the right). Only the peaks are kept: enough to
// append and to compute the root.
class Mmr {
public:
    explicit Mmr(HashingFunction function) : m_function(function) {}
    // Herodotus MMRs start with one genesis leaf, H_single("brave new world").
    static Mmr withGenesis(HashingFunction function);
    // Rebuilds from a persisted state; nullopt if the peaks do not fit the leaf count.
    static std::optional<Mmr> fromState(HashingFunction function, std::uint64_t leaves,
                                        std::vector<MmrHash> peaks);

    // Appends a leaf; returns its element index.
    std::uint64_t append(const MmrHash& leaf);

    HashingFunction function() const { return m_function; }
    std::uint64_t leaves() const { return m_leaves; }
    std::uint64_t size() const; // element (node) count
    const std::vector<MmrHash>& peaks() const { return m_peaks; }
    MmrHash bag() const;
    MmrHash root() const;

    // H(a, b): keccak256(a ‖ b) or poseidon_hash(a, b).
    static MmrHash hashPair(HashingFunction function, const MmrHash& left, const MmrHash& right);
    static MmrHash genesisLeaf(HashingFunction function);
    // The leaf of a verified block: its hash (Keccak), or poseidon_hash_many over the header
    // RLP's 8-byte little-endian words (Poseidon).
    static MmrHash blockLeaf(HashingFunction function, const QByteArray& headerRlp,
                             const QByteArray& blockHash);
    // The element index of the leaf with 0-based position `leafIndex`.
    static std::uint64_t elementIndexOfLeaf(std::uint64_t leafIndex);

private:
    HashingFunction m_function;
    std::uint64_t m_leaves = 0;
    std::vector<MmrHash> m_peaks;
};

} // namespace proofdesk::chain
