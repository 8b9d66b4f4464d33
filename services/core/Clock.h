#pragma once

#include <QDateTime>
#include <QTimeZone>

#include <atomic>

namespace proofdesk::core {

// The one source of "now" for services, so tests can move time (expiry, lifetimes).
class Clock {
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0;
    qint64 nowMs() const { return now().toMSecsSinceEpoch(); }
};

class SystemClock final : public Clock {
public:
    QDateTime now() const override { return QDateTime::currentDateTimeUtc(); }
};

// A clock that stands still until told to move; thread-safe.
class ManualClock final : public Clock {
public:
    explicit ManualClock(qint64 startMs = QDateTime::currentMSecsSinceEpoch()) : m_ms(startMs) {}
    QDateTime now() const override { return QDateTime::fromMSecsSinceEpoch(m_ms.load(), Qt::UTC); }
    void advanceSeconds(qint64 seconds) { m_ms += seconds * 1000; }
    void setMs(qint64 ms) { m_ms = ms; }

private:
    std::atomic<qint64> m_ms;
};

// ISO 8601 UTC with milliseconds, e.g. 2026-11-22T08:45:01.123Z.
QString toIsoTimestamp(const QDateTime& time);
QString toIsoTimestampMs(qint64 msSinceEpoch);

} // namespace proofdesk::core
