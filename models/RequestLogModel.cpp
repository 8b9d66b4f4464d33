#include "RequestLogModel.h"

#include <QBrush>
#include <QColor>

namespace proofdesk::models {

RequestLogModel::RequestLogModel(int capacity, QObject* parent)
    : QAbstractTableModel(parent), m_capacity(std::max(1, capacity)) {}

int RequestLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RequestLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RequestLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(m_rows.size())) {
        return {};
    }
    const RequestLogRow& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return row.at.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
        case MethodColumn:
            return row.method;
        case PathColumn:
            return row.path;
        case StatusColumn:
            return row.status;
        case DurationColumn:
            return QString::number(row.milliseconds, 'f', 1);
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        if (row.status >= 500) {
            return QBrush(QColor(0xdc, 0x26, 0x26));
        }
        if (row.status >= 400) {
            return QBrush(QColor(0xd9, 0x77, 0x06));
        }
        return QBrush(QColor(0x16, 0xa3, 0x4a));
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == StatusColumn || index.column() == DurationColumn)) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant RequestLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case MethodColumn:
        return tr("Method");
    case PathColumn:
        return tr("Path");
    case StatusColumn:
        return tr("Status");
    case DurationColumn:
        return tr("ms");
    default:
        return {};
    }
}

void RequestLogModel::append(const RequestLogRow& row) {
    if (static_cast<int>(m_rows.size()) >= m_capacity) {
        beginRemoveRows({}, 0, 0);
        m_rows.pop_front();
        endRemoveRows();
    }
    const int position = static_cast<int>(m_rows.size());
    beginInsertRows({}, position, position);
    m_rows.push_back(row);
    endInsertRows();
}

} // namespace proofdesk::models
