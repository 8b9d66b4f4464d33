#pragma once

#include "api/ProofWire.h"

#include <QAbstractTableModel>

#include <vector>

namespace proofdesk::models {

// The proof queries of the console's live table, newest first. update() takes a fresh page from
// the service and applies it incrementally: changed rows emit dataChanged, new ones are inserted,
// vanished ones removed, so selections and scroll positions survive polling.
class ProofQueryModel : public QAbstractTableModel {
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void update(const std::vector<api::ProofQuery>& queries);
    const api::ProofQuery* queryAt(int row) const;

private:
    std::vector<api::ProofQuery> m_rows;
};

} // namespace proofdesk::models
