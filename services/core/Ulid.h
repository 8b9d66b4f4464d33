#pragma once

#include <QString>

namespace proofdesk::core {

// A ULID: 48-bit millisecond timestamp and 80 random bits, 26 characters of Crockford base32.
// Time-sortable and unguessable; used for every record id. Ids made within one millisecond sort in
// the order they were made.
QString newUlid(qint64 msSinceEpoch);

// True for a 26-character Crockford base32 string whose first character is 0-7.
bool isUlid(const QString& text);

} // namespace proofdesk::core
