#pragma once

#include "RecordTableModel.h"
#include "api/RequestWire.h"

namespace proofdesk::models {

// A request's queries (GET /get_queries), one row per origin chain or grow-order batch.
class RequestQueryModel : public RecordTableModel<api::RequestQuery> {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StatusColumn,
        KindColumn,
        ChainColumn,
        CreatedColumn,
        CompletedColumn,
        ColumnCount
    };
    using RecordTableModel::RecordTableModel;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    std::string keyOf(const api::RequestQuery& query) const override { return query.internalId; }
};

// A query's actions (GET /get_actions): what each one does, what it waits for, how it went.
class RequestActionModel : public RecordTableModel<api::RequestAction> {
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        MethodColumn,
        StatusColumn,
        DependsOnColumn,
        OutcomeColumn,
        ColumnCount
    };
    using RecordTableModel::RecordTableModel;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    std::string keyOf(const api::RequestAction& action) const override {
        return std::to_string(action.index);
    }
};

// The project's grow orders (GET /grow-orders), newest first, with their progress.
class GrowOrderModel : public RecordTableModel<api::GrowOrder> {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StatusColumn,
        ChainColumn,
        ProgressColumn,
        HashingColumn,
        BatchColumn,
        ActiveQueryColumn,
        ColumnCount
    };
    enum Role { OrderIdRole = Qt::UserRole + 1, ProgressRole };
    using RecordTableModel::RecordTableModel;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Percent from start to finish (blocks accumulated so far); -1 without a finish block.
    static int progressPercent(const api::GrowOrder& order);

protected:
    std::string keyOf(const api::GrowOrder& order) const override { return order.internalId; }
};

// Values a query delivered to the destination chain's local registry (GET /proven-values).
class ProvenValueModel : public RecordTableModel<api::ProvenValue> {
    Q_OBJECT
public:
    enum Column {
        BlockColumn,
        KindColumn,
        AccountColumn,
        NameColumn,
        ValueColumn,
        ReadsAsColumn, // the value as a person reads it (ETH, a date, a count), when it is one
        ColumnCount
    };
    using RecordTableModel::RecordTableModel;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    std::string keyOf(const api::ProvenValue& value) const override {
        return std::to_string(value.blockNumber) + '/' + value.kind + '/' +
               value.account.value_or(std::string()) + '/' + value.name;
    }
};

} // namespace proofdesk::models
