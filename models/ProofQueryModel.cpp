#include "ProofQueryModel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <map>

namespace proofdesk::models {
namespace {

QString text(const std::optional<std::string>& value) {
    return value ? QString::fromStdString(*value) : QString();
}

} // namespace

ProofQueryModel::ProofQueryModel(QObject* parent) : QAbstractTableModel(parent) {}

int ProofQueryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProofQueryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const api::ProofQuery* ProofQueryModel::queryAt(int row) const {
    if (row < 0 || row >= rowCount()) {
        return nullptr;
    }
    return &m_rows[static_cast<std::size_t>(row)];
}

QVariant ProofQueryModel::data(const QModelIndex& index, int role) const {
    const api::ProofQuery* query = index.isValid() ? queryAt(index.row()) : nullptr;
    if (!query) {
        return {};
    }
    if (role == QueryIdRole) {
        return QString::fromStdString(query->id);
    }
    if (role == StatusRole) {
        return QString::fromStdString(query->status);
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        // Colours that read on light and dark palettes alike.
        if (query->status == "DONE") {
            return QBrush(QColor(0x2e, 0x9d, 0x4f));
        }
        if (query->status == "FAILED") {
            return QBrush(QColor(0xd9, 0x3f, 0x3f));
        }
        return QBrush(QColor(0xc7, 0x8a, 0x12));
    }
    if (role == Qt::ToolTipRole && query->errorReason) {
        return QString::fromStdString(*query->errorReason);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case IdColumn:
        return QString::fromStdString(query->id);
    case StatusColumn:
        return QString::fromStdString(query->status);
    case StepColumn:
        return text(query->step);
    case ResultColumn:
        return QString::fromStdString(query->result);
    case JobSizeColumn:
        return text(query->jobSize);
    case CreatedColumn:
        return QString::fromStdString(query->createdAt);
    case CompletedColumn:
        return text(query->completedAt);
    case FactHashColumn:
        return text(query->sharpFactHash);
    default:
        return {};
    }
}

QVariant ProofQueryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case IdColumn:
        return tr("Query");
    case StatusColumn:
        return tr("Status");
    case StepColumn:
        return tr("Step");
    case ResultColumn:
        return tr("Result");
    case JobSizeColumn:
        return tr("Job size");
    case CreatedColumn:
        return tr("Created");
    case CompletedColumn:
        return tr("Completed");
    case FactHashColumn:
        return tr("SHARP fact hash");
    default:
        return {};
    }
}

void ProofQueryModel::update(const std::vector<api::ProofQuery>& queries) {
    std::map<std::string, const api::ProofQuery*> incoming;
    for (const api::ProofQuery& query : queries) {
        incoming[query.id] = &query;
    }
    // Remove rows that are gone, bottom up.
    for (int row = rowCount() - 1; row >= 0; --row) {
        if (!incoming.count(m_rows[static_cast<std::size_t>(row)].id)) {
            beginRemoveRows({}, row, row);
            m_rows.erase(m_rows.begin() + row);
            endRemoveRows();
        }
    }
    // Walk the new order: update rows in place, insert new ones where they belong.
    for (std::size_t position = 0; position < queries.size(); ++position) {
        const api::ProofQuery& query = queries[position];
        const auto found = std::find_if(m_rows.begin(), m_rows.end(),
                                        [&query](const auto& row) { return row.id == query.id; });
        const int row = static_cast<int>(position);
        if (found == m_rows.end()) {
            beginInsertRows({}, row, row);
            m_rows.insert(m_rows.begin() + row, query);
            endInsertRows();
            continue;
        }
        const int current = static_cast<int>(found - m_rows.begin());
        if (current != row) {
            beginMoveRows({}, current, current, {}, current < row ? row + 1 : row);
            api::ProofQuery moved = std::move(*found);
            m_rows.erase(found);
            m_rows.insert(m_rows.begin() + row, std::move(moved));
            endMoveRows();
        }
        if (m_rows[position] != query) {
            m_rows[position] = query;
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
}

} // namespace proofdesk::models
