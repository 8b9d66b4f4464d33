#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace proofdesk::chain {

// An Ethereum (or OP Stack / Arbitrum) block header as eth_getBlockByNumber gives it, encoded
// the way the block hash is computed: keccak256(rlp(header)). The 15 frontier fields are always
// there; the fork additions (London baseFeePerGas .. Prague requestsHash, and any later ones in
// kOptionalHeaderFields) are taken from the JSON when present, and must form a contiguous tail.
struct BlockHeader {
    std::vector<QByteArray> fields; // raw values in RLP order (integers in minimal big-endian)
    QByteArray rlp;
    QByteArray hash;        // keccak256(rlp)
    QByteArray claimedHash; // the JSON's "hash" (empty when the JSON has none)
    std::uint64_t number = 0;
    std::uint64_t timestamp = 0;

    QByteArray parentHash() const { return fields[0]; }
    QByteArray stateRoot() const { return fields[3]; }
    bool hashMatches() const { return claimedHash == hash; }
};

// Builds the header from an eth_getBlockByNumber result; throws ChainError when a field is
// missing, has the wrong size, or the optional tail has a gap.
BlockHeader headerFromRpc(const nlohmann::json& block);
// Decodes a header from its RLP (the fields are kept as they are).
BlockHeader headerFromRlp(const QByteArray& rlp);

// The spec's BlockHeaderField values, in their canonical spelling.
const std::vector<QString>& blockHeaderFieldNames();
// A field's value as the service reports it: 0x-hex, integers as minimal quantities ("0x0").
std::optional<QString> headerFieldValue(const BlockHeader& header, const QString& field);

// The Poseidon MMR leaf input of a header: its RLP cut into 8-byte little-endian words (the last
// word shorter, unpadded).
std::vector<std::uint64_t> littleEndianWords(const QByteArray& bytes);

// A JSON-RPC quantity ("0x1a") as an unsigned 64-bit integer; throws ChainError.
std::uint64_t parseQuantity(const nlohmann::json& value, const char* what);
// 0x-hex of an integer in its minimal form ("0x0" for zero), as JSON-RPC quantities are written.
QString quantityHex(const QByteArray& minimalBigEndian);

} // namespace proofdesk::chain
