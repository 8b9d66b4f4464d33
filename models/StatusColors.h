#pragma once

#include <QColor>
#include <QString>

namespace proofdesk::models {

// One colour per status family, readable on light and dark palettes alike: done (green), failed
// or cancelled (red), open or active (blue), anything in flight (amber).
inline QColor statusColor(const QString& status) {
    if (status == QLatin1String("DONE") || status == QLatin1String("COMPLETED")) {
        return {0x2e, 0x9d, 0x4f};
    }
    if (status == QLatin1String("FAILED") || status == QLatin1String("CANCELLED")) {
        return {0xd9, 0x3f, 0x3f};
    }
    if (status == QLatin1String("OPEN") || status == QLatin1String("ACTIVE")) {
        return {0x25, 0x63, 0xeb};
    }
    return {0xc7, 0x8a, 0x12};
}

// Mocked proofs and facts (purple: not a status, and never the green of a real DONE).
inline QColor mockedColor() {
    return {0x8e, 0x44, 0xad};
}

} // namespace proofdesk::models
