#include "Clock.h"

#include <QTimeZone>

namespace proofdesk::core {

QString toIsoTimestamp(const QDateTime& time) {
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QString toIsoTimestampMs(qint64 msSinceEpoch) {
    return toIsoTimestamp(QDateTime::fromMSecsSinceEpoch(msSinceEpoch, Qt::UTC));
}

} // namespace proofdesk::core
