#include "Hex.h"

#include "HexDigit.h"

#include "Keccak.h"

namespace proofdesk::crypto {

QString toHex0x(const QByteArray& bytes) {
    return QStringLiteral("0x") + QString::fromLatin1(bytes.toHex());
}

std::optional<QByteArray> fromHex(QStringView text) {
    if (text.startsWith(u"0x") || text.startsWith(u"0X")) {
        text = text.mid(2);
    }
    if (text.size() % 2 != 0) {
        return std::nullopt;
    }
    QByteArray out;
    out.reserve(text.size() / 2);
    for (qsizetype i = 0; i < text.size(); i += 2) {
        const int hi = hexDigitValue(text[i].unicode());
        const int lo = hexDigitValue(text[i + 1].unicode());
        if (hi < 0 || lo < 0) {
            return std::nullopt;
        }
        out.append(static_cast<char>((hi << 4) | lo));
    }
    return out;
}

std::optional<QByteArray> parseAddress(QStringView text) {
    if (text.size() != 42 || !(text.startsWith(u"0x") || text.startsWith(u"0X"))) {
        return std::nullopt;
    }
    return fromHex(text);
}

QByteArray toBytes32(const Felt& value) {
    std::uint8_t bytes[32];
    value.toBytesBE(bytes);
    return QByteArray(reinterpret_cast<const char*>(bytes), 32);
}

QString toChecksumAddress(const QByteArray& address20) {
    const QByteArray lower = address20.toHex();
    const QByteArray hash = keccak256(lower).toHex();
    QString out = QStringLiteral("0x");
    for (qsizetype i = 0; i < lower.size(); ++i) {
        const char c = lower[i];
        const bool upper = c >= 'a' && c <= 'f' && hash[i] >= '8';
        out += QLatin1Char(upper ? static_cast<char>(c - 'a' + 'A') : c);
    }
    return out;
}

} // namespace proofdesk::crypto
