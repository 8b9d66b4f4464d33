#include "Ulid.h"

#include "SecureRandom.h"

#include <array>
#include <mutex>

namespace proofdesk::core {
namespace {
constexpr char kCrockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// The 80 random bits of an id, big-endian. Ids made in the same millisecond continue from the
// previous one's bits plus a fresh random step of 1 to 2^32, so they sort in the order they were
// made (a list ordered by id is the creation order, even for records made within one millisecond
// or under a test's stopped clock) and the next id still cannot be guessed from the last.
std::array<unsigned char, 10> randomPart(quint64 ms) {
    static std::mutex mutex;
    static quint64 lastMs = 0;
    static std::array<unsigned char, 10> last{};
    const QByteArray fresh = secureRandomBytes(14);
    std::array<unsigned char, 10> out{};
    std::lock_guard lock(mutex);
    bool carry = true;
    if (ms == lastMs) {
        // last + 1 + (32 fresh bits), from the lowest byte up.
        quint64 add = 1;
        for (int i = 0; i < 4; ++i) {
            add += quint64(static_cast<unsigned char>(fresh[10 + i])) << (8 * i);
        }
        for (int i = 9; i >= 0; --i) {
            const quint64 sum = quint64(last[std::size_t(i)]) + (add & 0xff);
            out[std::size_t(i)] = static_cast<unsigned char>(sum & 0xff);
            add = (add >> 8) + (sum >> 8);
        }
        carry = add != 0; // past 2^80: about 2^48 ids in one millisecond, never in practice
    }
    if (carry) {
        for (int i = 0; i < 10; ++i) {
            out[std::size_t(i)] = static_cast<unsigned char>(fresh[i]);
        }
    }
    lastMs = ms;
    last = out;
    return out;
}
} // namespace

QString newUlid(qint64 msSinceEpoch) {
    // 128 bits: 48 of time then 80 of randomness, written as 26 base32 digits (130 bits, top 2
    // zero).
    unsigned char bits[16];
    const auto ms = static_cast<quint64>(msSinceEpoch);
    for (int i = 0; i < 6; ++i) {
        bits[i] = static_cast<unsigned char>((ms >> (8 * (5 - i))) & 0xff);
    }
    const std::array<unsigned char, 10> random = randomPart(ms);
    for (int i = 0; i < 10; ++i) {
        bits[6 + i] = random[std::size_t(i)];
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
