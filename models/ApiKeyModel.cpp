#include "ApiKeyModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace proofdesk::models {

ApiKeyModel::ApiKeyModel(QObject* parent) : RecordTableModel(parent) {}

void ApiKeyModel::setActiveKey(const QString& apiKey) {
    m_active = apiKey;
    if (rowCount() > 0) {
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    }
}

int ApiKeyModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ApiKeyModel::data(const QModelIndex& index, int role) const {
    const api::ApiKeyRecord* key = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!key) {
        return {};
    }
    const QString apiKey = QString::fromStdString(key->apiKey);
    const bool inUse = apiKey == m_active;
    if (role == ApiKeyRole) {
        return apiKey;
    }
    if (role == Qt::DecorationRole && index.column() == NameColumn) {
        const QColor color(QString::fromStdString(key->color));
        return color.isValid() ? QVariant(color) : QVariant();
    }
    if (role == Qt::FontRole && inUse) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(key->name);
    case KeyColumn:
        return apiKey;
    case CreatedColumn:
        return QString::fromStdString(key->createdAt);
    case InUseColumn:
        return inUse ? tr("in use") : QString();
    default:
        return {};
    }
}

QVariant ApiKeyModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KeyColumn:
        return tr("API key");
    case CreatedColumn:
        return tr("Created");
    case InUseColumn:
        return tr("Console");
    default:
        return {};
    }
}

} // namespace proofdesk::models
