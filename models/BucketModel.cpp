#include "BucketModel.h"

#include "StatusColors.h"

#include <QBrush>

namespace proofdesk::models {

BucketModel::BucketModel(QObject* parent) : RecordTableModel(parent) {}

int BucketModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BucketModel::data(const QModelIndex& index, int role) const {
    const api::ProofBucket* bucket = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!bucket) {
        return {};
    }
    if (role == BucketIdRole) {
        return QString::fromStdString(bucket->id);
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        return QBrush(statusColor(QString::fromStdString(bucket->status)));
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case IdColumn:
        return QString::fromStdString(bucket->id);
    case StatusColumn:
        return QString::fromStdString(bucket->status);
    case LeavesColumn:
        return bucket->leaves;
    case NodeWidthColumn:
        return bucket->nodeWidth;
    case MockProofColumn:
        return bucket->mockProof ? tr("mocked") : QString();
    case ExternalIdColumn:
        return bucket->externalId ? QString::fromStdString(*bucket->externalId) : QString();
    case CreatedColumn:
        return QString::fromStdString(bucket->createdAt);
    default:
        return {};
    }
}

QVariant BucketModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case IdColumn:
        return tr("Bucket");
    case StatusColumn:
        return tr("Status");
    case LeavesColumn:
        return tr("Leaves");
    case NodeWidthColumn:
        return tr("Node width");
    case MockProofColumn:
        return tr("Proof");
    case ExternalIdColumn:
        return tr("External id");
    case CreatedColumn:
        return tr("Created");
    default:
        return {};
    }
}

} // namespace proofdesk::models
