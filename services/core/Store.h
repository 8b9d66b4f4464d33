#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <functional>
#include <mutex>
#include <vector>

namespace proofdesk::core {

class Store;

// One schema step of one component (auth, jobs, proof, ...). Versions start at 1 per component.
// `backfill`, when set, runs after the statements in the same transaction: the rows a new table
// needs from what is already stored, where SQL alone cannot derive them.
struct Migration {
    int version;
    QString description;
    std::vector<QString> statements;
    std::function<void(Store&)> backfill = {};
};

// The SQLite store: one file in the data dir, WAL, synchronous=FULL so that every acknowledged
// write is on disk, owner-only file mode, one connection per thread (created on first use in that
// thread). Components bring their own versioned migrations.
class Store {
public:
    explicit Store(const QString& databasePath);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    const QString& path() const { return m_path; }

    // This thread's connection, opened and configured on first use.
    QSqlDatabase connection();

    // Applies every migration of `component` newer than the recorded version, each in its own
    // transaction. Throws ServiceError(Internal) if a step fails (nothing of that step is kept).
    void migrate(const QString& component, const std::vector<Migration>& migrations);
    int schemaVersion(const QString& component);

    // Runs `work` in a write transaction (BEGIN IMMEDIATE ... COMMIT); rolls back if it throws.
    // Write transactions of this process take turns on a mutex (SQLite has one writer anyway),
    // so they queue instead of sleeping in SQLite's busy handler; other processes still meet
    // the busy timeout. The calling thread must not hold an unfinished read query (its WAL
    // snapshot could not be upgraded to a write).
    void write(const std::function<void(QSqlDatabase&)>& work);
    // Inside write(): runs `action` once the transaction has committed (not after a rollback).
    // Outside a write: runs it now. For caches of what the transaction changes.
    void afterCommit(std::function<void()> action);

    // Prepares and runs one statement with positional bindings; throws ServiceError on failure.
    QSqlQuery exec(const QString& sql, const QVariantList& bindings = {});

private:
    QString connectionNameForThisThread() const;
    void configure(QSqlDatabase& db);

    QString m_path;
    QString m_storeId;
    std::mutex m_namesMutex;
    std::mutex m_writeMutex;
    std::vector<QString> m_connectionNames;
};

} // namespace proofdesk::core
