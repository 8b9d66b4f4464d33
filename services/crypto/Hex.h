#pragma once

#include <QByteArray>
#include <QString>

#include "Felt.h"

#include <optional>

namespace proofdesk::crypto {

// "0x"-prefixed lowercase hex of the bytes.
QString toHex0x(const QByteArray& bytes);

// Decodes hex with an optional 0x prefix. Returns nullopt for odd length or a non-hex digit.
std::optional<QByteArray> fromHex(QStringView text);

// A 20-byte address as 0x + 40 hex digits in any case; nullopt otherwise.
std::optional<QByteArray> parseAddress(QStringView text);

// The 32-byte big-endian encoding of a field element (as keccak / sha256 inputs take it).
QByteArray toBytes32(const Felt& value);

// EIP-55 mixed-case checksum spelling of a 20-byte address.
QString toChecksumAddress(const QByteArray& address20);

} // namespace proofdesk::crypto
