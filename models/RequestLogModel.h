#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QString>

#include <deque>

namespace proofdesk::models {

struct RequestLogRow {
    QDateTime at;
    QString method;
    QString path;
    int status = 0;
    double milliseconds = 0;
};

// The local server's request log as a table: newest last, capped; rows are only ever appended
// (beginInsertRows) or dropped from the front (beginRemoveRows), never reset.
class RequestLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, MethodColumn, PathColumn, StatusColumn, DurationColumn, ColumnCount };

    explicit RequestLogModel(int capacity = 2000, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void append(const RequestLogRow& row);

private:
    int m_capacity;
    std::deque<RequestLogRow> m_rows;
};

} // namespace proofdesk::models
