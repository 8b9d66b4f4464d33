#pragma once

#include <QByteArray>
#include <QString>

namespace proofdesk::core {

// Bytes from the operating system's cryptographic source.
QByteArray secureRandomBytes(int count);

// A random opaque token: prefix followed by base64url(bytes) without padding.
QString secureRandomToken(const QString& prefix, int byteCount = 32);

// Lowercase hex SHA-256 of the UTF-8 text; how tokens and keys are stored and indexed.
QString sha256Hex(const QString& text);

// Constant-time comparison of two byte strings of possibly different length.
bool constantTimeEquals(const QByteArray& a, const QByteArray& b);

} // namespace proofdesk::core
