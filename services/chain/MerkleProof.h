#pragma once

#include <QByteArray>

#include <optional>
#include <vector>

namespace proofdesk::chain {

// Verifies a Merkle-Patricia proof (eth_getProof, EIP-1186) of `key` (the trie key before
// hashing: a 20-byte address or a 32-byte storage slot) against `root`. Returns the leaf's value
// (its RLP payload as stored) or nullopt for a valid proof of absence. Throws ChainError when the
// proof does not hash-chain from the root, is malformed, or has nodes left over.
std::optional<QByteArray> verifyMptProof(const QByteArray& root, const QByteArray& key,
                                         const std::vector<QByteArray>& proof);

// The account leaf: [nonce, balance, storageRoot, codeHash] (Ethereum) or the 8 fields of an
// ApeChain account [nonce, flags, fixed, shares, debt, delegate, codeHash, storageRoot].
struct AccountState {
    bool exists = false;
    QByteArray nonce, balance, storageRoot, codeHash; // integers in minimal big-endian
    QByteArray apeFlags, apeFixed, apeShares, apeDebt, apeDelegate;
};

// The empty trie's root keccak(rlp("")), and the code hash of an account without code.
QByteArray emptyTrieRoot();
QByteArray emptyCodeHash();

// Proves an account at a state root. A proof of absence gives exists == false with the empty
// account's values (nonce 0, balance 0, empty storage root and code hash).
AccountState verifyAccountProof(const QByteArray& stateRoot, const QByteArray& address,
                                const std::vector<QByteArray>& proof, bool apeChainAccount);

// Proves a storage slot (32 bytes) at a storage root: the value as a minimal big-endian integer
// (empty for zero or absent). An empty storage trie accepts the proofs [] and ["0x80"].
QByteArray verifyStorageProof(const QByteArray& storageRoot, const QByteArray& slot,
                              const std::vector<QByteArray>& proof);

} // namespace proofdesk::chain
