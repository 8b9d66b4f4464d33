#include "Ulid.h"

#include "SecureRandom.h"

namespace proofdesk::core {
namespace {
constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
}

QString newUlid(qint64 msSinceEpoch) {
    // 128 bits: 48 of time then 80 of randomness, written as 26 base32 digits (130 bits, top 2
    // zero).
    unsigned char bits[16];
    const auto ms = static_cast<quint64>(msSinceEpoch);
    for (int i = 0; i < 6; ++i) {
        bits[i] = static_cast<unsigned char>((ms >> (8 * (5 - i))) & 0xff);
    }
    const QByteArray random = secureRandomBytes(10);
    for (int i = 0; i < 10; ++i) {
        bits[6 + i] = static_cast<unsigned char>(random[i]);
    }
    QString out(26, QLatin1Char('0'));
    for (int digit = 0; digit < 26; ++digit) {
        // Digit d covers bit positions [130 - 5(d+1), 130 - 5d) of a 130-bit number.
        int value = 0;
        for (int b = 0; b < 5; ++b) {
            const int position = 129 - (digit * 5 + b); // 129 .. 0, big-endian order
            value <<= 1;
            if (position < 128) {
                const int byteIndex = 15 - position / 8;
                value |= (bits[byteIndex] >> (position % 8)) & 1;
            }
        }
        out[digit] = QLatin1Char(kCrockford[value]);
    }
    return out;
}

bool isUlid(const QString& text) {
    if (text.size() != 26 || text[0] > QLatin1Char('7')) {
        return false;
    }
    for (const QChar c : text) {
        if (!QByteArrayView(kCrockford).contains(static_cast<char>(c.toLatin1()))) {
            return false;
        }
    }
    return true;
}

} // namespace proofdesk::core
