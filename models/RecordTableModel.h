#pragma once

#include <QAbstractTableModel>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace proofdesk::models {

// A table of records that a poll replaces wholesale, applied incrementally so that selections and
// scroll positions survive: vanished rows are removed, new ones inserted where they belong (runs
// of them in one insert), reordered ones moved, and changed ones reported by one dataChanged per
// contiguous run. The usual poll (new records on top, a few changed) costs O(n) hashing, so a
// table of 100,000 records stays responsive. Subclasses say how a record is keyed and shown.
template <class Record> class RecordTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
    }

    const Record* recordAt(int row) const {
        return row >= 0 && row < rowCount() ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
    }

    // -1 when no row has that key.
    int rowOf(const std::string& key) const {
        for (std::size_t row = 0; row < m_rows.size(); ++row) {
            if (keyOf(m_rows[row]) == key) {
                return static_cast<int>(row);
            }
        }
        return -1;
    }

    void update(const std::vector<Record>& records) {
        if (m_rows.empty()) {
            if (!records.empty()) {
                beginInsertRows({}, 0, static_cast<int>(records.size()) - 1);
                m_rows = records;
                endInsertRows();
            }
            return;
        }
        std::unordered_set<std::string> incoming;
        incoming.reserve(records.size());
        for (const Record& record : records) {
            incoming.insert(keyOf(record));
        }
        removeVanished(incoming);
        std::unordered_set<std::string> present;
        present.reserve(m_rows.size());
        for (const Record& row : m_rows) {
            present.insert(keyOf(row));
        }
        int changedFrom = -1;
        const auto flushChanged = [this, &changedFrom](int end) {
            if (changedFrom >= 0) {
                emit this->dataChanged(this->index(changedFrom, 0),
                                       this->index(end - 1, this->columnCount() - 1));
                changedFrom = -1;
            }
        };
        for (std::size_t position = 0; position < records.size(); ++position) {
            const Record& record = records[position];
            const std::string key = keyOf(record);
            const int row = static_cast<int>(position);
            if (!present.count(key)) {
                flushChanged(row);
                // A run of new records goes in with one insert.
                std::size_t end = position + 1;
                while (end < records.size() && !present.count(keyOf(records[end]))) {
                    ++end;
                }
                beginInsertRows({}, row, static_cast<int>(end) - 1);
                m_rows.insert(m_rows.begin() + row, records.begin() + row,
                              records.begin() + static_cast<std::ptrdiff_t>(end));
                endInsertRows();
                position = end - 1;
                continue;
            }
            if (keyOf(m_rows[position]) != key) {
                flushChanged(row);
                int current = row + 1;
                while (keyOf(m_rows[static_cast<std::size_t>(current)]) != key) {
                    ++current;
                }
                beginMoveRows({}, current, current, {}, row);
                Record moved = std::move(m_rows[static_cast<std::size_t>(current)]);
                m_rows.erase(m_rows.begin() + current);
                m_rows.insert(m_rows.begin() + row, std::move(moved));
                endMoveRows();
            }
            if (!(m_rows[position] == record)) {
                m_rows[position] = record;
                if (changedFrom < 0) {
                    changedFrom = row;
                }
            } else {
                flushChanged(row);
            }
        }
        flushChanged(static_cast<int>(m_rows.size()));
    }

protected:
    virtual std::string keyOf(const Record& record) const = 0;

private:
    void removeVanished(const std::unordered_set<std::string>& incoming) {
        // Bottom up, one removal per contiguous run.
        int row = rowCount() - 1;
        while (row >= 0) {
            if (incoming.count(keyOf(m_rows[static_cast<std::size_t>(row)]))) {
                --row;
                continue;
            }
            int first = row;
            while (first > 0 &&
                   !incoming.count(keyOf(m_rows[static_cast<std::size_t>(first - 1)]))) {
                --first;
            }
            beginRemoveRows({}, first, row);
            m_rows.erase(m_rows.begin() + first, m_rows.begin() + row + 1);
            endRemoveRows();
            row = first - 1;
        }
    }

    std::vector<Record> m_rows;
};

} // namespace proofdesk::models
