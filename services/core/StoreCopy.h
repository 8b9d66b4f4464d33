#pragma once

#include "Store.h"

#include <QString>

#include <vector>

namespace proofdesk::core {

struct TableCopy {
    QString table;
    qint64 rows = 0;
    int sampled = 0; // rows read back from the destination and compared, column by column
};

// Copies every table of a SQLite store into a PostgreSQL store of the same schema (both opened
// by the same components, so their migrations match), in one transaction on the destination,
// tables in the order their foreign keys need; identity counters are moved past the copied rows.
// Then checks it: the destination's row count of every table equals the source's, and up to ten
// rows of each (the first and the last) are read back by primary key and compared. Throws
// ServiceError (nothing copied) when the destination already holds rows of a copied table, when
// a table is missing there, or when a check fails.
std::vector<TableCopy> copyStore(Store& from, Store& to);

} // namespace proofdesk::core
