#pragma once

#include "api/ProofWire.h"

#include "RecordTableModel.h"

namespace proofdesk::models {

// The proof queries of the console's live table, newest first, updated incrementally from each
// polled page (RecordTableModel).
class ProofQueryModel : public RecordTableModel<api::ProofQuery> {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StatusColumn,
        StepColumn,
        ResultColumn,
        JobSizeColumn,
        CreatedColumn,
        CompletedColumn,
        FactHashColumn,
        ColumnCount
    };
    enum Role { QueryIdRole = Qt::UserRole + 1, StatusRole };

    explicit ProofQueryModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const api::ProofQuery* queryAt(int row) const { return recordAt(row); }

protected:
    std::string keyOf(const api::ProofQuery& query) const override { return query.id; }
};

} // namespace proofdesk::models
