#include "SecureRandom.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace proofdesk::core {

QByteArray secureRandomBytes(int count) {
    QByteArray bytes(count, Qt::Uninitialized);
    auto* words = reinterpret_cast<quint32*>(bytes.data());
    const int wordCount = count / 4;
    QRandomGenerator::system()->fillRange(words, wordCount);
    for (int i = wordCount * 4; i < count; ++i) {
        bytes[i] = static_cast<char>(QRandomGenerator::system()->generate() & 0xff);
    }
    return bytes;
}

QString secureRandomToken(const QString& prefix, int byteCount) {
    const QByteArray encoded = secureRandomBytes(byteCount).toBase64(
        QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    return prefix + QString::fromLatin1(encoded);
}

QString sha256Hex(const QString& text) {
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

bool constantTimeEquals(const QByteArray& a, const QByteArray& b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    }
    return diff == 0;
}

} // namespace proofdesk::core
