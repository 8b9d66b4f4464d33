#include "Keccak.h"

#include <QCryptographicHash>

namespace proofdesk::crypto {

QByteArray keccak256(const QByteArray& data) {
    return QCryptographicHash::hash(data, QCryptographicHash::Keccak_256);
}

} // namespace proofdesk::crypto
