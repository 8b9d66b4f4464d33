#pragma once

#include <QByteArray>

namespace proofdesk::crypto {

// Ethereum's Keccak-256 (the original Keccak padding, not SHA3-256).
QByteArray keccak256(const QByteArray& data);

} // namespace proofdesk::crypto
