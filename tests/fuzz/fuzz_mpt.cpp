// libFuzzer target: Merkle-Patricia proof verification. The input is cut into a root, a key and
// proof nodes; the verifier must either throw ChainError or give an answer, and a present value
// must come from nodes that hash-chain from the root (checked again here by re-running with the
// first node altered, which must then fail). No crash, no hang.

#include "chain/ChainError.h"
#include "chain/MerkleProof.h"
#include "crypto/Keccak.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace proofdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) {
        return 0;
    }
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    // First byte: key length (bit 0: 32 bytes, else 20) and account kind (bit 1: ApeChain); then
    // the key; then nodes, each after a 2-byte big-endian length.
    const int keyLength = (data[0] & 1) ? 32 : 20;
    QByteArray rest = input.mid(1);
    const QByteArray key = rest.left(keyLength).leftJustified(keyLength, '\0');
    rest = rest.mid(keyLength);
    std::vector<QByteArray> nodes;
    while (rest.size() >= 2) {
        const int length =
            (static_cast<unsigned char>(rest[0]) << 8) | static_cast<unsigned char>(rest[1]);
        nodes.push_back(rest.mid(2, length));
        rest = rest.mid(2 + length);
    }
    // The root is the first node's hash, so a proof can get past the first check.
    const QByteArray root = nodes.empty() ? chain::emptyTrieRoot() : crypto::keccak256(nodes[0]);
    try {
        const auto value = chain::verifyMptProof(root, key, nodes);
        if (value && !nodes.empty()) {
            std::vector<QByteArray> altered = nodes;
            altered[0].append('\0');
            try {
                chain::verifyMptProof(root, key, altered);
                std::abort(); // a node that does not hash to the root was accepted
            } catch (const chain::ChainError&) {
            }
        }
        chain::verifyAccountProof(root, key.left(20), nodes, (data[0] & 2) != 0);
    } catch (const chain::ChainError&) {
    }
    return 0;
}
