#pragma once

#include "RecordTableModel.h"
#include "api/ProofWire.h"

namespace proofdesk::models {

// The project's buckets (GET /buckets), newest first, updated incrementally from each poll.
class BucketModel : public RecordTableModel<api::ProofBucket> {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StatusColumn,
        LeavesColumn,
        NodeWidthColumn,
        MockProofColumn,
        ExternalIdColumn,
        CreatedColumn,
        ColumnCount
    };
    enum Role { BucketIdRole = Qt::UserRole + 1 };

    explicit BucketModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    std::string keyOf(const api::ProofBucket& bucket) const override { return bucket.id; }
};

} // namespace proofdesk::models
