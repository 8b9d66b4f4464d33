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

// The two backends of one schema.
enum class StoreDialect { Sqlite, Postgres };

// Where a store lives: a SQLite file, or a PostgreSQL database named by a URL
// `postgresql://USER[:PASSWORD]@HOST[:PORT]/DB` (`postgres://` too; a password may instead come
// from PGPASSWORD or ~/.pgpass, as libpq reads them; `?host=/DIR` names a Unix socket directory).
struct StoreLocation {
    StoreDialect dialect = StoreDialect::Sqlite;
    QString sqlitePath;
    QString host;
    int port = 5432;
    QString user;
    QString password;
    QString database;

    static bool isPostgresUrl(const QString& text);
    // A file path or a PostgreSQL URL; throws ServiceError(BadRequest) for a malformed URL.
    static StoreLocation parse(const QString& text);
    // For logs and status: the file, or the URL without its password.
    QString describe() const;
};

// The store: one schema on SQLite (the desktop's default: one file in the data dir, WAL,
// synchronous=FULL so that every acknowledged write is on disk, owner-only file mode) or on
// PostgreSQL (a team server: many processes and machines on one database). One connection per
// thread (created on first use in that thread). Components bring their own versioned migrations,
// written once: the few differences of the two dialects are handled here (column types in
// migrations, transactions, and the expressions below), not in the services.
class Store {
public:
    // A SQLite file path or a PostgreSQL URL (StoreLocation). Throws ServiceError when the store
    // cannot be opened, with what to do when the PostgreSQL driver is missing.
    explicit Store(const QString& location);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // The SQLite file, or the URL without its password.
    QString path() const { return m_location.describe(); }
    StoreDialect dialect() const { return m_location.dialect; }
    // Other processes (workers, front ends) may share this store: jobs are leased, not owned.
    bool isShared() const { return m_location.dialect == StoreDialect::Postgres; }

    // Dialect pieces for the few statements that need them.
    // A JSON text column's top-level string field (`json_extract` / `->>`).
    QString jsonTextField(const QString& column, const QString& key) const;
    // The space-separated text of a column over the rows of an ordered subquery.
    QString orderedTextAggregate(const QString& column, const QString& orderBy) const;
    // A case-insensitive LIKE.
    QString likeAnyCase() const;
    // Appended to a job claim's inner SELECT: row locks that other claimers skip.
    QString skipLockedSuffix() const;

    // This thread's connection, opened and configured on first use.
    QSqlDatabase connection();

    // Applies every migration of `component` newer than the recorded version, each in its own
    // transaction. Throws ServiceError(Internal) if a step fails (nothing of that step is kept).
    void migrate(const QString& component, const std::vector<Migration>& migrations);
    int schemaVersion(const QString& component);

    // Runs `work` in a write transaction; rolls back if it throws. Write transactions of this
    // process take turns on a mutex (SQLite has one writer anyway), so they queue instead of
    // sleeping in a busy handler. SQLite: BEGIN IMMEDIATE; other processes meet the busy timeout;
    // the calling thread must not hold an unfinished read query (its WAL snapshot could not be
    // upgraded to a write). PostgreSQL: SERIALIZABLE, so that what another process commits
    // meanwhile cannot interleave; a lost connection before `work` runs is met by trying again
    // (a few times, waiting longer each time); once `work` has run, a serialization failure, a
    // deadlock, a unique key another process inserted meanwhile or a lost connection rolls it
    // back and throws ServiceError(Unavailable, "STORE_BUSY"), since what `work` changed in its
    // callers' memory cannot be undone here (http::Router runs the request again).
    // `ReadCommitted` is for work of single statements that lock the rows they change (a job's
    // claim, lease and finish), which SERIALIZABLE would only make conflict; SQLite ignores it.
    enum class Isolation { Serializable, ReadCommitted };
    void write(const std::function<void(QSqlDatabase&)>& work,
               Isolation isolation = Isolation::Serializable);
    // Inside write(): runs `action` once the transaction has committed (not after a rollback).
    // Outside a write: runs it now. For caches of what the transaction changes.
    void afterCommit(std::function<void()> action);

    // Prepares and runs one statement with positional bindings; throws ServiceError on failure.
    QSqlQuery exec(const QString& sql, const QVariantList& bindings = {});

    // Closes and forgets this thread's connection (one found lost); the next use opens another.
    void dropConnectionOfThisThread();

    // While one lives, every statement this thread runs through exec() is appended to it, with
    // its bindings (for audits of what a service asks of the store, such as its query plans).
    struct Statement {
        QString sql;
        QVariantList bindings;
    };
    class StatementRecorder {
    public:
        StatementRecorder();
        ~StatementRecorder();
        StatementRecorder(const StatementRecorder&) = delete;
        StatementRecorder& operator=(const StatementRecorder&) = delete;
        const std::vector<Statement>& statements() const { return m_statements; }

    private:
        friend class Store;
        StatementRecorder* m_outer;
        std::vector<Statement> m_statements;
    };

private:
    QString connectionNameForThisThread() const;
    void configure(QSqlDatabase& db);
    bool writeOnce(const std::function<void(QSqlDatabase&)>& work, Isolation isolation,
                   bool lastAttempt);
    QString dialectDdl(const QString& statement) const;

    StoreLocation m_location;
    QString m_storeId;
    std::mutex m_namesMutex;
    std::mutex m_writeMutex;
    std::vector<QString> m_connectionNames;
};

} // namespace proofdesk::core
