#include "ValueReading.h"

#include "crypto/HexDigit.h"

#include <QDateTime>

#include <array>
#include <optional>
#include <vector>

namespace proofdesk::models {
namespace {} // namespace

QString hexToDecimal(const QString& hex) {
    if (!hex.startsWith(QLatin1String("0x")) || hex.size() < 3 || hex.size() > 66) {
        return {};
    }
    // Little-endian base-1e9 limbs, multiplied by 16 and added to per hex digit.
    std::vector<quint64> limbs{0};
    constexpr quint64 kBase = 1'000'000'000;
    for (qsizetype i = 2; i < hex.size(); ++i) {
        const int digit = crypto::hexDigitValue(hex[i].unicode());
        if (digit < 0) {
            return {};
        }
        quint64 carry = static_cast<quint64>(digit);
        for (quint64& limb : limbs) {
            const quint64 next = limb * 16 + carry;
            limb = next % kBase;
            carry = next / kBase;
        }
        if (carry > 0) {
            limbs.push_back(carry);
        }
    }
    QString decimal = QString::number(limbs.back());
    for (auto it = limbs.rbegin() + 1; it != limbs.rend(); ++it) {
        decimal += QStringLiteral("%1").arg(*it, 9, 10, QLatin1Char('0'));
    }
    return decimal;
}

namespace {

using U256 = std::array<quint64, 4>; // little-endian 64-bit limbs

std::optional<U256> parseU256(const QString& hex) {
    if (!hex.startsWith(QLatin1String("0x")) || hex.size() < 3 || hex.size() > 66) {
        return std::nullopt;
    }
    U256 value{};
    for (qsizetype i = 2; i < hex.size(); ++i) {
        const int digit = crypto::hexDigitValue(hex[i].unicode());
        if (digit < 0) {
            return std::nullopt;
        }
        for (int limb = 3; limb > 0; --limb) {
            value[limb] = (value[limb] << 4) | (value[limb - 1] >> 60);
        }
        value[0] = (value[0] << 4) | static_cast<quint64>(digit);
    }
    return value;
}

bool lessThan(const U256& a, const U256& b) {
    for (int limb = 3; limb >= 0; --limb) {
        if (a[limb] != b[limb]) {
            return a[limb] < b[limb];
        }
    }
    return false;
}

U256 minus(const U256& a, const U256& b) {
    U256 difference{};
    quint64 borrow = 0;
    for (int limb = 0; limb < 4; ++limb) {
        const quint64 subtrahend = b[limb] + borrow;
        borrow = (a[limb] < subtrahend || (borrow && subtrahend == 0)) ? 1 : 0;
        difference[limb] = a[limb] - subtrahend;
    }
    return difference;
}

QString toHex(const U256& value) {
    QString hex = QStringLiteral("0x");
    for (int limb = 3; limb >= 0; --limb) {
        hex += QStringLiteral("%1").arg(value[limb], 16, 16, QLatin1Char('0'));
    }
    return hex;
}

// P = 2^251 + 17·2^192 + 1 and (P - 1) / 2.
constexpr U256 kPrime{1, 0, 0, 0x0800000000000011ULL};
constexpr U256 kHalfPrime{0, 0, 0x8000000000000000ULL, 0x0400000000000008ULL};

} // namespace

QString feltToDecimal(const QString& hex) {
    const auto value = parseU256(hex);
    if (!value || !lessThan(*value, kPrime)) {
        return {};
    }
    if (lessThan(kHalfPrime, *value)) {
        return QLatin1Char('-') + hexToDecimal(toHex(minus(kPrime, *value)));
    }
    return hexToDecimal(toHex(*value));
}

QString weiToEth(const QString& decimalWei) {
    constexpr int kDecimals = 18;
    QString digits = decimalWei;
    if (digits.size() <= kDecimals) {
        digits = QString(kDecimals + 1 - digits.size(), QLatin1Char('0')) + digits;
    }
    QString whole = digits.left(digits.size() - kDecimals);
    QString fraction = digits.right(kDecimals);
    while (fraction.endsWith(QLatin1Char('0'))) {
        fraction.chop(1);
    }
    return (fraction.isEmpty() ? whole : whole + QLatin1Char('.') + fraction) +
           QStringLiteral(" ETH");
}

QString readableValue(const QString& kind, const QString& name, const QString& value) {
    const bool header = kind == QLatin1String("header");
    const bool account = kind == QLatin1String("account");
    if (account && name == QLatin1String("Balance")) {
        const QString wei = hexToDecimal(value);
        return wei.isEmpty() ? QString() : weiToEth(wei);
    }
    if (header && name == QLatin1String("Timestamp")) {
        bool ok = false;
        const qint64 seconds = value.mid(2).toLongLong(&ok, 16);
        return ok && value.startsWith(QLatin1String("0x"))
                   ? QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC)
                         .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"))
                   : QString();
    }
    static const QStringList kCounts{QStringLiteral("Number"),        QStringLiteral("GasLimit"),
                                     QStringLiteral("GasUsed"),       QStringLiteral("Difficulty"),
                                     QStringLiteral("BaseFeePerGas"), QStringLiteral("BlobGasUsed"),
                                     QStringLiteral("ExcessBlobGas")};
    if ((header && kCounts.contains(name)) || (account && name == QLatin1String("Nonce"))) {
        return hexToDecimal(value);
    }
    return {};
}

} // namespace proofdesk::models
