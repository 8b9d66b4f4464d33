#include "MerkleProof.h"

#include "ChainError.h"
#include "Rlp.h"
#include "crypto/Keccak.h"

#include <string>

namespace proofdesk::chain {
namespace {

std::vector<int> nibblesOf(const QByteArray& bytes) {
    std::vector<int> out;
    out.reserve(std::size_t(bytes.size()) * 2);
    for (char byte : bytes) {
        const auto b = static_cast<unsigned char>(byte);
        out.push_back(b >> 4);
        out.push_back(b & 0x0f);
    }
    return out;
}

// Hex-prefix decoding (Yellow Paper appendix C): the flag nibble says leaf or extension and
// whether the path has an odd number of nibbles.
std::vector<int> hexPrefixPath(const QByteArray& encoded, bool* isLeaf) {
    if (encoded.isEmpty()) {
        throw ChainError("MPT proof: a node path is empty");
    }
    const std::vector<int> nibbles = nibblesOf(encoded);
    const int flag = nibbles[0];
    if (flag > 3) {
        throw ChainError("MPT proof: hex-prefix flag " + std::to_string(flag) + " is not 0..3");
    }
    *isLeaf = flag >= 2;
    const bool odd = (flag & 1) != 0;
    if (!odd && nibbles[1] != 0) {
        throw ChainError("MPT proof: an even hex-prefix path has a non-zero padding nibble");
    }
    return std::vector<int>(nibbles.begin() + (odd ? 1 : 2), nibbles.end());
}

} // namespace

QByteArray emptyTrieRoot() {
    static const QByteArray root = crypto::keccak256(QByteArray(1, char(0x80)));
    return root;
}

QByteArray emptyCodeHash() {
    static const QByteArray hash = crypto::keccak256(QByteArray());
    return hash;
}

std::optional<QByteArray> verifyMptProof(const QByteArray& root, const QByteArray& key,
                                         const std::vector<QByteArray>& proof) {
    const std::vector<int> path = nibblesOf(crypto::keccak256(key));
    std::size_t position = 0;
    std::size_t used = 0;

    // The node to look at next: either a hash to find among the proof's nodes, or an inline
    // node (encoded in under 32 bytes) embedded in its parent.
    QByteArray expectedHash = root;
    std::optional<RlpItem> inlineNode;

    if (root == emptyTrieRoot()) {
        // The empty trie proves every key absent; clients send [] or ["0x80"].
        if (proof.empty() || (proof.size() == 1 && proof[0] == QByteArray(1, char(0x80)))) {
            return std::nullopt;
        }
    }
    for (;;) {
        RlpItem node;
        if (inlineNode) {
            node = std::move(*inlineNode);
            inlineNode.reset();
        } else {
            if (used >= proof.size()) {
                throw ChainError("MPT proof: it ends before reaching a value (" +
                                 std::to_string(proof.size()) + " nodes)");
            }
            const QByteArray& encoded = proof[used];
            if (crypto::keccak256(encoded) != expectedHash) {
                throw ChainError("MPT proof: node " + std::to_string(used) +
                                 " does not hash to the value its parent names");
            }
            ++used;
            node = rlpDecode(encoded);
        }
        auto finishWith = [&](std::optional<QByteArray> value) {
            if (used != proof.size()) {
                throw ChainError("MPT proof: " + std::to_string(proof.size() - used) +
                                 " nodes are left after the path ends");
            }
            return value;
        };
        if (!node.isList) {
            if (node.bytes.isEmpty()) {
                return finishWith(std::nullopt); // the empty trie
            }
            throw ChainError("MPT proof: a node is a string, not a list");
        }
        const RlpItem* child = nullptr;
        if (node.items.size() == 17) {
            if (position >= path.size()) {
                throw ChainError("MPT proof: the path ends at a branch node");
            }
            child = &node.items[std::size_t(path[position])];
            ++position;
        } else if (node.items.size() == 2) {
            if (node.items[0].isList) {
                throw ChainError("MPT proof: a node's path is a list");
            }
            bool isLeaf = false;
            const std::vector<int> nodePath = hexPrefixPath(node.items[0].bytes, &isLeaf);
            const std::size_t remaining = path.size() - position;
            const bool matches =
                nodePath.size() <= remaining &&
                std::equal(nodePath.begin(), nodePath.end(), path.begin() + long(position));
            if (isLeaf) {
                if (!matches || nodePath.size() != remaining) {
                    return finishWith(std::nullopt); // a different key's leaf
                }
                if (node.items[1].isList) {
                    throw ChainError("MPT proof: a leaf's value is a list");
                }
                return finishWith(node.items[1].bytes);
            }
            if (!matches) {
                return finishWith(std::nullopt); // the extension diverges from the path
            }
            position += nodePath.size();
            child = &node.items[1];
        } else {
            throw ChainError("MPT proof: a node has " + std::to_string(node.items.size()) +
                             " items (branch 17, leaf or extension 2)");
        }
        if (child->isList) {
            if (child->encoded.size() >= 32) {
                throw ChainError("MPT proof: an embedded node of 32 bytes or more");
            }
            inlineNode = *child;
            continue;
        }
        if (child->bytes.isEmpty()) {
            return finishWith(std::nullopt); // an empty slot: the key is absent
        }
        if (child->bytes.size() != 32) {
            throw ChainError("MPT proof: a child reference is neither a hash nor a node");
        }
        expectedHash = child->bytes;
    }
}

AccountState verifyAccountProof(const QByteArray& stateRoot, const QByteArray& address,
                                const std::vector<QByteArray>& proof, bool apeChainAccount) {
    AccountState state;
    const std::optional<QByteArray> leaf = verifyMptProof(stateRoot, address, proof);
    if (!leaf) {
        state.storageRoot = emptyTrieRoot();
        state.codeHash = emptyCodeHash();
        return state;
    }
    const RlpItem account = rlpDecode(*leaf);
    const std::size_t expected = apeChainAccount ? 8 : 4;
    if (!account.isList || account.items.size() != expected) {
        throw ChainError("MPT proof: the account leaf is not a list of " +
                         std::to_string(expected) + " fields");
    }
    for (const RlpItem& item : account.items) {
        if (item.isList) {
            throw ChainError("MPT proof: an account field is a list");
        }
    }
    state.exists = true;
    state.nonce = account.items[0].bytes;
    if (apeChainAccount) {
        state.apeFlags = account.items[1].bytes;
        state.apeFixed = account.items[2].bytes;
        state.apeShares = account.items[3].bytes;
        state.apeDebt = account.items[4].bytes;
        state.apeDelegate = account.items[5].bytes;
        state.codeHash = account.items[6].bytes;
        state.storageRoot = account.items[7].bytes;
    } else {
        state.balance = account.items[1].bytes;
        state.storageRoot = account.items[2].bytes;
        state.codeHash = account.items[3].bytes;
    }
    if (state.storageRoot.size() != 32 || state.codeHash.size() != 32) {
        throw ChainError("MPT proof: the account's storage root or code hash is not 32 bytes");
    }
    return state;
}

QByteArray verifyStorageProof(const QByteArray& storageRoot, const QByteArray& slot,
                              const std::vector<QByteArray>& proof) {
    const std::optional<QByteArray> leaf = verifyMptProof(storageRoot, slot, proof);
    if (!leaf) {
        return {};
    }
    const RlpItem value = rlpDecode(*leaf);
    if (value.isList || value.bytes.size() > 32) {
        throw ChainError("MPT proof: the storage value is not an integer of up to 32 bytes");
    }
    return stripLeadingZeros(value.bytes);
}

} // namespace proofdesk::chain
