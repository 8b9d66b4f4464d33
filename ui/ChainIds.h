#pragma once

#include "api/RequestWire.h"
#include "models/ChainNames.h"

#include <QComboBox>
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

// A chain picker: each chain by its label, its id as the item's data; `selected` chosen.
inline void fillChainComboBox(QComboBox* box, const QStringList& ids, const QString& selected) {
    for (const QString& id : ids) {
        box->addItem(models::chainLabel(id), id);
    }
    box->setCurrentIndex(std::max(0, box->findData(selected)));
}

// The chain id a picker filled by fillChainComboBox stands at.
inline QString chainIdOf(const QComboBox* box) {
    return box->currentData().toString();
}

} // namespace proofdesk::ui
