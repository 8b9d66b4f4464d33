#pragma once

#include <QByteArray>

#include <cstdint>
#include <vector>

namespace proofdesk::chain {

// Recursive Length Prefix (Ethereum Yellow Paper, appendix B).
struct RlpItem {
    bool isList = false;
    QByteArray bytes;           // the string's payload (isList == false)
    std::vector<RlpItem> items; // the list's items (isList == true)
    QByteArray encoded;         // the item's own encoding, prefix included
};

// Encodes a byte string.
void rlpAppendBytes(QByteArray& out, const QByteArray& bytes);
QByteArray rlpEncodeBytes(const QByteArray& bytes);
// Wraps already-encoded items into a list.
QByteArray rlpEncodeList(const QByteArray& concatenatedItems);
// The minimal big-endian bytes of an integer (0 -> empty).
QByteArray minimalBigEndian(std::uint64_t value);
// Strips leading zero bytes (a big-endian integer in its minimal form).
QByteArray stripLeadingZeros(const QByteArray& bigEndian);

// Decodes exactly one item spanning all of `data` (canonical form only: no leading zeros in
// lengths, no long form for short payloads, single bytes below 0x80 not wrapped). Throws
// ChainError on anything else, naming what is wrong.
RlpItem rlpDecode(const QByteArray& data);

} // namespace proofdesk::chain
