#include "RequestModels.h"

#include "ChainNames.h"
#include "ValueReading.h"

#include "StatusColors.h"

#include <QBrush>
#include <QStringList>

#include <algorithm>

namespace proofdesk::models {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QVariant header(Qt::Orientation orientation, int role, int section, const QStringList& names) {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= names.size()) {
        return {};
    }
    return names[section];
}

QVariant statusBrush(int role, int column, int statusColumn, const std::string& status) {
    if (role == Qt::ForegroundRole && column == statusColumn) {
        return QBrush(statusColor(qs(status)));
    }
    return {};
}

} // namespace

int RequestQueryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RequestQueryModel::data(const QModelIndex& index, int role) const {
    const api::RequestQuery* query = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!query) {
        return {};
    }
    if (role != Qt::DisplayRole) {
        return statusBrush(role, index.column(), StatusColumn, query->status);
    }
    switch (index.column()) {
    case IdColumn:
        return qs(query->internalId);
    case StatusColumn:
        return qs(query->status);
    case KindColumn:
        return qs(query->typ.value("kind", std::string()));
    case ChainColumn:
        return chainLabel(qs(query->typ.value("chain_id", std::string())));
    case CreatedColumn:
        return qs(query->createdAt);
    case CompletedColumn:
        return query->completedAt ? qs(*query->completedAt) : QString();
    default:
        return {};
    }
}

QVariant RequestQueryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    return header(
        orientation, role, section,
        {tr("Query"), tr("Status"), tr("Kind"), tr("Chain"), tr("Created"), tr("Completed")});
}

int RequestActionModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RequestActionModel::data(const QModelIndex& index, int role) const {
    const api::RequestAction* action = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!action) {
        return {};
    }
    const std::optional<std::string> error = api::actionError(*action);
    if (role == Qt::ToolTipRole && error) {
        // The whole reason on every cell of the row (the column shows what fits).
        return qs(*error);
    }
    if (role != Qt::DisplayRole) {
        return statusBrush(role, index.column(), StatusColumn, action->status);
    }
    switch (index.column()) {
    case IndexColumn:
        return action->index;
    case MethodColumn:
        return qs(action->method.value("name", std::string()));
    case StatusColumn:
        return qs(action->status);
    case DependsOnColumn: {
        QStringList list;
        for (int dependency : action->dependsOn) {
            list << QString::number(dependency);
        }
        return list.join(QStringLiteral(", "));
    }
    case OutcomeColumn: {
        if (error) {
            return qs(*error);
        }
        const nlohmann::json& method = action->method;
        if (method.contains("results") && method["results"].is_object()) {
            return qs(method["results"].dump()).left(160);
        }
        return {};
    }
    default:
        return {};
    }
}

QVariant RequestActionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    return header(orientation, role, section,
                  {tr("#"), tr("Method"), tr("Status"), tr("Waits for"), tr("Results or error")});
}

int GrowOrderModel::progressPercent(const api::GrowOrder& order) {
    if (!order.finishBlockNumber) {
        return -1;
    }
    const double total = double(*order.finishBlockNumber - order.startBlockNumber + 1);
    const double done = double(order.nextFromBlockNumber - order.startBlockNumber);
    return total <= 0 ? 100 : int(std::clamp(done / total, 0.0, 1.0) * 100.0 + 0.5);
}

int GrowOrderModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GrowOrderModel::data(const QModelIndex& index, int role) const {
    const api::GrowOrder* order = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!order) {
        return {};
    }
    if (role == OrderIdRole) {
        return qs(order->internalId);
    }
    if (role == ProgressRole) {
        return progressPercent(*order);
    }
    if (role != Qt::DisplayRole) {
        return statusBrush(role, index.column(), StatusColumn, order->status);
    }
    switch (index.column()) {
    case IdColumn:
        return qs(order->internalId);
    case StatusColumn:
        return qs(order->status);
    case ChainColumn:
        return tr("%1 → %2").arg(chainLabel(qs(order->accumulatedChainId)),
                                 chainLabel(qs(order->settleChainId)));
    case ProgressColumn: {
        const int percent = progressPercent(*order);
        if (!order->finishBlockNumber) {
            return tr("from %1, next %2 (open end)")
                .arg(order->startBlockNumber)
                .arg(order->nextFromBlockNumber);
        }
        return tr("%1–%2, next %3 (%4%)")
            .arg(order->startBlockNumber)
            .arg(*order->finishBlockNumber)
            .arg(order->nextFromBlockNumber)
            .arg(percent);
    }
    case HashingColumn: {
        QStringList list;
        for (const std::string& function : order->hashingFunctions) {
            list << qs(function);
        }
        return list.join(QStringLiteral(", "));
    }
    case BatchColumn:
        return qlonglong(order->minBatchSize);
    case ActiveQueryColumn:
        return order->activeQueryId ? qs(*order->activeQueryId) : QString();
    default:
        return {};
    }
}

QVariant GrowOrderModel::headerData(int section, Qt::Orientation orientation, int role) const {
    return header(orientation, role, section,
                  {tr("Grow order"), tr("Status"), tr("Chains"), tr("Progress"), tr("Hashing"),
                   tr("Min batch"), tr("Active query")});
}

int ProvenValueModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProvenValueModel::data(const QModelIndex& index, int role) const {
    const api::ProvenValue* value = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!value || role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case BlockColumn:
        return qlonglong(value->blockNumber);
    case KindColumn:
        return qs(value->kind);
    case AccountColumn:
        return value->account ? qs(*value->account) : QString();
    case NameColumn:
        return qs(value->name);
    case ValueColumn:
        return qs(value->value);
    case ReadsAsColumn:
        return readableValue(qs(value->kind), qs(value->name), qs(value->value));
    default:
        return {};
    }
}

QVariant ProvenValueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    return header(
        orientation, role, section,
        {tr("Block"), tr("Kind"), tr("Account"), tr("Field or slot"), tr("Value"), tr("Reads as")});
}

} // namespace proofdesk::models
