#pragma once

#include "api/RequestWire.h"

#include <QStringList>

namespace proofdesk::ui {

// The spec's ChainId values (api::request_enums) as the console offers them: chains whose data
// can be proven, and every chain (destinations, settle chains).
inline QStringList toStringList(const std::vector<std::string>& values) {
    QStringList list;
    for (const std::string& value : values) {
        list << QString::fromStdString(value);
    }
    return list;
}

inline const QStringList& provableChainIds() {
    static const QStringList ids = toStringList(api::request_enums::kProvableChainIds);
    return ids;
}

inline const QStringList& allChainIds() {
    static const QStringList ids = toStringList(api::request_enums::kChainIds);
    return ids;
}

} // namespace proofdesk::ui
