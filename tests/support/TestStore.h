#pragma once

#include <QString>

namespace proofdesk::test {

// Whether this run's stores are on PostgreSQL: PROOFDESK_TEST_STORE names a throwaway cluster's
// database (tests/support/with-postgres.sh sets it).
bool testStoreIsPostgres();

// Where one test's store lives: on that cluster when there is one, a database of its own for
// each `sqlitePath` (new and empty the first time, the same one again after, as a reopened file
// would be); else `sqlitePath` itself. Throws std::runtime_error when the cluster cannot make
// the database.
QString testStoreLocation(const QString& sqlitePath);

} // namespace proofdesk::test
