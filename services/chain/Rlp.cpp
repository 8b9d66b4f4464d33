#include "Rlp.h"

#include "ChainError.h"

#include <string>

namespace proofdesk::chain {
namespace {

void appendLength(QByteArray& out, qsizetype length, unsigned char shortBase) {
    if (length <= 55) {
        out.append(char(shortBase + length));
        return;
    }
    const QByteArray digits = minimalBigEndian(std::uint64_t(length));
    out.append(char(shortBase + 55 + digits.size()));
    out.append(digits);
}

std::uint64_t readLength(const QByteArray& data, qsizetype at, int count) {
    if (at + count > data.size()) {
        throw ChainError("RLP: the length runs past the end of the input");
    }
    if (count > 8) {
        throw ChainError("RLP: a length of more than 8 bytes");
    }
    if (static_cast<unsigned char>(data[at]) == 0) {
        throw ChainError("RLP: a length with a leading zero byte");
    }
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
        value = (value << 8) | static_cast<unsigned char>(data[at + i]);
    }
    if (value <= 55) {
        throw ChainError("RLP: the long form is used for a payload of 55 bytes or fewer");
    }
    return value;
}

RlpItem decodeAt(const QByteArray& data, qsizetype& at, int depth) {
    if (depth > 64) {
        throw ChainError("RLP: lists nested more than 64 deep");
    }
    if (at >= data.size()) {
        throw ChainError("RLP: unexpected end of input");
    }
    const qsizetype start = at;
    const auto prefix = static_cast<unsigned char>(data[at]);
    RlpItem item;
    qsizetype payloadStart = 0;
    std::uint64_t payloadLength = 0;
    if (prefix < 0x80) {
        item.bytes = data.mid(at, 1);
        at += 1;
        item.encoded = item.bytes;
        return item;
    }
    if (prefix <= 0xb7) {
        payloadLength = prefix - 0x80;
        payloadStart = at + 1;
        if (payloadLength == 1 && payloadStart < data.size() &&
            static_cast<unsigned char>(data[payloadStart]) < 0x80) {
            throw ChainError("RLP: a single byte below 0x80 wrapped in a string prefix");
        }
    } else if (prefix <= 0xbf) {
        const int count = prefix - 0xb7;
        payloadLength = readLength(data, at + 1, count);
        payloadStart = at + 1 + count;
    } else if (prefix <= 0xf7) {
        item.isList = true;
        payloadLength = prefix - 0xc0;
        payloadStart = at + 1;
    } else {
        item.isList = true;
        const int count = prefix - 0xf7;
        payloadLength = readLength(data, at + 1, count);
        payloadStart = at + 1 + count;
    }
    if (payloadLength > std::uint64_t(data.size() - payloadStart)) {
        throw ChainError("RLP: an item of " + std::to_string(payloadLength) +
                         " bytes runs past the end of the input");
    }
    const qsizetype end = payloadStart + qsizetype(payloadLength);
    if (item.isList) {
        qsizetype inner = payloadStart;
        while (inner < end) {
            item.items.push_back(decodeAt(data, inner, depth + 1));
        }
        if (inner != end) {
            throw ChainError("RLP: a list item runs past the end of its list");
        }
    } else {
        item.bytes = data.mid(payloadStart, qsizetype(payloadLength));
    }
    at = end;
    item.encoded = data.mid(start, end - start);
    return item;
}

} // namespace

void rlpAppendBytes(QByteArray& out, const QByteArray& bytes) {
    if (bytes.size() == 1 && static_cast<unsigned char>(bytes[0]) < 0x80) {
        out.append(bytes);
        return;
    }
    appendLength(out, bytes.size(), 0x80);
    out.append(bytes);
}

QByteArray rlpEncodeBytes(const QByteArray& bytes) {
    QByteArray out;
    out.reserve(bytes.size() + 9);
    rlpAppendBytes(out, bytes);
    return out;
}

QByteArray rlpEncodeList(const QByteArray& concatenatedItems) {
    QByteArray out;
    out.reserve(concatenatedItems.size() + 9);
    appendLength(out, concatenatedItems.size(), 0xc0);
    out.append(concatenatedItems);
    return out;
}

QByteArray minimalBigEndian(std::uint64_t value) {
    QByteArray out;
    while (value != 0) {
        out.prepend(char(value & 0xff));
        value >>= 8;
    }
    return out;
}

QByteArray stripLeadingZeros(const QByteArray& bigEndian) {
    qsizetype first = 0;
    while (first < bigEndian.size() && bigEndian[first] == 0) {
        ++first;
    }
    return bigEndian.mid(first);
}

RlpItem rlpDecode(const QByteArray& data) {
    qsizetype at = 0;
    RlpItem item = decodeAt(data, at, 0);
    if (at != data.size()) {
        throw ChainError("RLP: " + std::to_string(data.size() - at) + " bytes left after the item");
    }
    return item;
}

} // namespace proofdesk::chain
