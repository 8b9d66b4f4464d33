#include "Store.h"

#include "ServiceError.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDriver>
#include <QSqlError>
#include <QThread>
#include <QUrl>
#include <QUrlQuery>

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace proofdesk::core {
namespace {

std::atomic<int> g_storeCounter{0};

[[noreturn]] void throwSql(const QString& what, const QSqlError& error) {
    throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                       QString(what + QStringLiteral(": ") + error.text()).toStdString());
}

void restrictToOwner(const QString& path) {
    if (QFileInfo::exists(path)) {
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
}

QString nowIsoMs() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

// PostgreSQL failures after which the whole transaction may simply run again: another
// transaction won (serialization failure, deadlock), or the connection went away (the server
// restarted, the network was cut) before the commit, so nothing of it was kept.
// A rival transaction won: serialization, a deadlock, or a row with the same unique key that
// another process inserted since this transaction checked for one (PostgreSQL reports that as a
// unique violation when the check ran outside the transaction).
bool isConflict(const QString& text) {
    return text.contains(QLatin1String("could not serialize access")) ||
           text.contains(QLatin1String("deadlock detected")) ||
           text.contains(QLatin1String("duplicate key value violates unique constraint"));
}

bool isLostConnection(const QString& text) {
    for (const char* sign :
         {"server closed the connection", "no connection to the server", "terminating connection",
          "connection to server", "could not receive data from server", "SSL SYSCALL error"}) {
        if (text.contains(QLatin1String(sign))) {
            return true;
        }
    }
    return false;
}

// The advisory lock every process takes to migrate a PostgreSQL store, so that two starting at
// once do not both create the same table.
constexpr qint64 kMigrationLock = 0x70726f6f66; // "proof"

} // namespace

bool StoreLocation::isPostgresUrl(const QString& text) {
    return text.startsWith(QLatin1String("postgresql://")) ||
           text.startsWith(QLatin1String("postgres://"));
}

StoreLocation StoreLocation::parse(const QString& text) {
    StoreLocation location;
    if (!isPostgresUrl(text)) {
        location.sqlitePath = text;
        return location;
    }
    const QUrl url(text, QUrl::StrictMode);
    const QString database = url.path().mid(1);
    if (!url.isValid() || url.host().isEmpty() || database.isEmpty() ||
        database.contains(QLatin1Char('/'))) {
        throw ServiceError(ErrorKind::BadRequest, "INVALID_STORE",
                           "a PostgreSQL store is named postgresql://USER@HOST:PORT/DATABASE");
    }
    location.dialect = StoreDialect::Postgres;
    location.host = url.host();
    location.port = url.port(5432);
    location.user = url.userName();
    location.password = url.password();
    location.database = database;
    // libpq's own spelling for a Unix socket directory: ?host=/run/postgresql
    const QString socketDir = QUrlQuery(url).queryItemValue(QStringLiteral("host"));
    if (socketDir.startsWith(QLatin1Char('/'))) {
        location.host = socketDir;
    }
    return location;
}

QString StoreLocation::describe() const {
    if (dialect == StoreDialect::Sqlite) {
        return sqlitePath;
    }
    QUrl url;
    url.setScheme(QStringLiteral("postgresql"));
    url.setUserName(user);
    if (host.startsWith(QLatin1Char('/'))) {
        url.setHost(QStringLiteral("localhost"));
        url.setQuery(QStringLiteral("host=") + host);
    } else {
        url.setHost(host);
        url.setPort(port);
    }
    url.setPath(QLatin1Char('/') + database);
    return url.toString();
}

Store::Store(const QString& location)
    : m_location(StoreLocation::parse(location)),
      m_storeId(QString::number(g_storeCounter.fetch_add(1))) {
    if (m_location.dialect == StoreDialect::Postgres) {
        write([&](QSqlDatabase& db) {
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kMigrationLock)) ||
                !q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_migrations ("
                                       " component TEXT NOT NULL, version BIGINT NOT NULL,"
                                       " description TEXT NOT NULL, applied_at TEXT NOT NULL,"
                                       " PRIMARY KEY (component, version))"))) {
                throwSql(QStringLiteral("preparing ") + path(), q.lastError());
            }
        });
        return;
    }
    // SQLite's memory statistics put one process-wide mutex around every allocation it makes;
    // with many serving threads that mutex was the hottest lock of a read. Turned off before
    // SQLite initialises (the Qt driver uses the same shared libsqlite3). If SQLite was already
    // initialised in this process the call is refused, which is harmless.
    static std::once_flag configured;
    std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
    QSqlDatabase db = connection();
    QSqlQuery mode(db);
    if (!mode.exec(QStringLiteral("PRAGMA journal_mode=WAL"))) {
        throwSql(QStringLiteral("enabling WAL"), mode.lastError());
    }
    exec(QStringLiteral("CREATE TABLE IF NOT EXISTS schema_migrations ("
                        " component TEXT NOT NULL, version INTEGER NOT NULL,"
                        " description TEXT NOT NULL, applied_at TEXT NOT NULL,"
                        " PRIMARY KEY (component, version))"));
    for (const char* suffix : {"", "-wal", "-shm"}) {
        restrictToOwner(m_location.sqlitePath + QLatin1String(suffix));
    }
}

Store::~Store() {
    std::vector<QString> names;
    {
        std::lock_guard lock(m_namesMutex);
        names.swap(m_connectionNames);
    }
    // Threads that used the store have finished with it by now (servers and workers are joined
    // before the store goes); removing a connection closes it without touching it from here.
    for (const QString& name : names) {
        QSqlDatabase::removeDatabase(name);
    }
}

QString Store::connectionNameForThisThread() const {
    return QStringLiteral("proofdesk-store-") + m_storeId + QLatin1Char('-') +
           QString::number(reinterpret_cast<quintptr>(QThread::currentThreadId()));
}

QSqlDatabase Store::connection() {
    const QString name = connectionNameForThisThread();
    if (QSqlDatabase::contains(name)) {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        if (db.isValid() && db.isOpen()) {
            return db;
        }
        // The connection of an ended thread whose id this thread has been given, or one the
        // server ended that the driver has found dead (PostgreSQL's driver then says "database
        // not open", with no text to tell a lost connection by): a new one.
        db = QSqlDatabase();
        dropConnectionOfThisThread();
    }
    const bool postgres = m_location.dialect == StoreDialect::Postgres;
    QSqlDatabase db = QSqlDatabase::addDatabase(
        postgres ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"), name);
    if (!db.isValid()) {
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        throw ServiceError(ErrorKind::Unavailable, "STORE_DRIVER_MISSING",
                           "a PostgreSQL store needs Qt's PostgreSQL driver (QPSQL); install the "
                           "Debian package libqt6sql6-psql");
    }
    if (postgres) {
        db.setHostName(m_location.host);
        db.setPort(m_location.port);
        db.setUserName(m_location.user);
        if (!m_location.password.isEmpty()) {
            db.setPassword(m_location.password);
        }
        db.setDatabaseName(m_location.database);
        db.setConnectOptions(QStringLiteral("connect_timeout=10;application_name=proofdesk"));
    } else {
        db.setDatabaseName(m_location.sqlitePath);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=15000"));
    }
    if (!db.open()) {
        const QSqlError error = db.lastError();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        if (postgres) {
            throw ServiceError(ErrorKind::Unavailable, "STORE_UNAVAILABLE",
                               QString(QStringLiteral("cannot reach the PostgreSQL store ") +
                                       path() + QStringLiteral(": ") + error.text())
                                   .toStdString());
        }
        throwSql(QStringLiteral("opening ") + path(), error);
    }
    configure(db);
    std::lock_guard lock(m_namesMutex);
    m_connectionNames.push_back(name);
    return db;
}

void Store::dropConnectionOfThisThread() {
    const QString name = connectionNameForThisThread();
    {
        std::lock_guard lock(m_namesMutex);
        std::erase(m_connectionNames, name);
    }
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

void Store::configure(QSqlDatabase& db) {
    QSqlQuery q(db);
    if (m_location.dialect == StoreDialect::Postgres) {
        // Timestamps the store writes are text made by the services; the session's zone only
        // matters to what PostgreSQL itself prints. Notices ("already exists, skipping") are
        // not errors.
        for (const char* setting : {"SET TIME ZONE 'UTC'", "SET client_min_messages = warning"}) {
            if (!q.exec(QLatin1String(setting))) {
                throwSql(QLatin1String(setting), q.lastError());
            }
        }
        return;
    }
    for (const char* pragma : {"PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
                               "PRAGMA busy_timeout=15000", "PRAGMA temp_store=MEMORY"}) {
        if (!q.exec(QLatin1String(pragma))) {
            throwSql(QLatin1String(pragma), q.lastError());
        }
    }
}

namespace {
// The actions waiting for the commit of this thread's write transaction, if one is open.
thread_local std::vector<std::function<void()>>* t_afterCommit = nullptr;
// Lost connections met by this thread's write now being replayed (each waits a little longer).
thread_local int t_lostConnections = 0;
// The recorder of this thread's statements, if one lives (the innermost).
thread_local Store::StatementRecorder* t_statementRecorder = nullptr;
} // namespace

Store::StatementRecorder::StatementRecorder() : m_outer(t_statementRecorder) {
    t_statementRecorder = this;
}

Store::StatementRecorder::~StatementRecorder() {
    t_statementRecorder = m_outer;
}

QSqlQuery Store::exec(const QString& sql, const QVariantList& bindings) {
    if (t_statementRecorder) {
        t_statementRecorder->m_statements.push_back({sql, bindings});
    }
    // Outside a transaction a lost PostgreSQL connection is dropped (the next statement opens a
    // new one), and a read runs again on the new one at once (a read changes nothing; a lone
    // write is not replayed, as it may have committed).
    const bool outsideWrite = m_location.dialect == StoreDialect::Postgres && !t_afterCommit;
    const bool mayRetry = outsideWrite && sql.startsWith(QLatin1String("SELECT"));
    for (int attempt = 1;; ++attempt) {
        QSqlQuery query(connection());
        QSqlError error;
        if (bindings.isEmpty() && m_location.dialect == StoreDialect::Postgres) {
            // PostgreSQL prepares only queries and DML; a statement without bindings (DDL
            // among them) runs as it is.
            if (query.exec(sql)) {
                return query;
            }
            error = query.lastError();
        } else if (!query.prepare(sql)) {
            error = query.lastError();
        } else {
            for (const QVariant& value : bindings) {
                query.addBindValue(value);
            }
            if (query.exec()) {
                return query;
            }
            error = query.lastError();
        }
        if (outsideWrite && isLostConnection(error.text())) {
            query = QSqlQuery();
            dropConnectionOfThisThread();
            if (mayRetry && attempt == 1) {
                continue;
            }
        }
        throwSql(QStringLiteral("running ") + sql, error);
    }
}

QString Store::jsonTextField(const QString& column, const QString& key) const {
    if (m_location.dialect == StoreDialect::Postgres) {
        return QStringLiteral("(%1::jsonb ->> '%2')").arg(column, key);
    }
    return QStringLiteral("json_extract(%1, '$.%2')").arg(column, key);
}

QString Store::orderedTextAggregate(const QString& column, const QString& orderBy) const {
    if (m_location.dialect == StoreDialect::Postgres) {
        return QStringLiteral("string_agg(%1, ' ' ORDER BY %2)").arg(column, orderBy);
    }
    return QStringLiteral("group_concat(%1, ' ')").arg(column); // in the subquery's order
}

QString Store::likeAnyCase() const {
    // SQLite's LIKE already ignores the case of ASCII letters.
    return m_location.dialect == StoreDialect::Postgres ? QStringLiteral("ILIKE")
                                                        : QStringLiteral("LIKE");
}

QString Store::skipLockedSuffix() const {
    return m_location.dialect == StoreDialect::Postgres ? QStringLiteral(" FOR UPDATE SKIP LOCKED")
                                                        : QString();
}

void Store::afterCommit(std::function<void()> action) {
    if (t_afterCommit) {
        t_afterCommit->push_back(std::move(action));
    } else {
        action();
    }
}

void Store::write(const std::function<void(QSqlDatabase&)>& work, Isolation isolation) {
    constexpr int kAttempts = 6;
    t_lostConnections = 0;
    for (int attempt = 1; !writeOnce(work, isolation, attempt == kAttempts); ++attempt) {
    }
}

bool Store::writeOnce(const std::function<void(QSqlDatabase&)>& work, Isolation isolation,
                      bool lastAttempt) {
    const bool postgres = m_location.dialect == StoreDialect::Postgres;
    // Whether a failure met before `work` ran (opening the connection, BEGIN: only a lost
    // connection fails there) may start the transaction again, on a new connection.
    const auto replayable = [&](const QString& text) {
        if (!postgres || lastAttempt || !isLostConnection(text)) {
            return false;
        }
        dropConnectionOfThisThread();
        // The server may be restarting: give it a moment before the next attempt.
        t_lostConnections += 1;
        std::this_thread::sleep_for(std::chrono::milliseconds(250 * t_lostConnections));
        return true;
    };
    const auto throwIfTransient = [&](const QString& text) {
        if (!postgres) {
            return;
        }
        if (isLostConnection(text)) {
            dropConnectionOfThisThread();
        } else if (!isConflict(text)) {
            return;
        }
        throw ServiceError(ErrorKind::Unavailable, "STORE_BUSY",
                           "the store could not take this write now (another writer changed the "
                           "same records, or the connection was lost); nothing of it was kept, "
                           "try again");
    };
    std::lock_guard writeLock(m_writeMutex);
    QSqlDatabase db;
    try {
        db = connection();
    } catch (const ServiceError& error) {
        if (replayable(QString::fromStdString(error.detail()))) {
            return false;
        }
        throw;
    }
    std::vector<std::function<void()>> committed;
    t_afterCommit = &committed;
    struct Reset {
        ~Reset() { t_afterCommit = nullptr; }
    } reset;
    {
        QSqlQuery control(db);
        const QString begin = !postgres ? QStringLiteral("BEGIN IMMEDIATE")
                              : isolation == Isolation::Serializable
                                  ? QStringLiteral("BEGIN ISOLATION LEVEL SERIALIZABLE")
                                  : QStringLiteral("BEGIN ISOLATION LEVEL READ COMMITTED");
        if (!control.exec(begin)) {
            const QSqlError error = control.lastError();
            if (replayable(error.text())) {
                return false;
            }
            throwSql(QStringLiteral("beginning a write"), error);
        }
        // Once `work` has run, what it changed in its callers' memory cannot be undone here, so
        // the transaction is not run again: it is rolled back and the failure, when another
        // writer won or the connection went, is said as such (503 STORE_BUSY: the HTTP router
        // runs the request again, then the client; a job's handler is retried with the state
        // read afresh).
        try {
            work(db);
        } catch (const std::exception& failure) {
            control.exec(QStringLiteral("ROLLBACK"));
            throwIfTransient(QString::fromUtf8(failure.what()));
            throw;
        } catch (...) {
            control.exec(QStringLiteral("ROLLBACK"));
            throw;
        }
        if (!control.exec(QStringLiteral("COMMIT"))) {
            const QSqlError error = control.lastError();
            control.exec(QStringLiteral("ROLLBACK"));
            throwIfTransient(error.text());
            throwSql(QStringLiteral("committing"), error);
        }
    }
    t_afterCommit = nullptr;
    for (auto& action : committed) {
        action();
    }
    return true;
}

QString Store::dialectDdl(const QString& statement) const {
    if (m_location.dialect != StoreDialect::Postgres ||
        !(statement.startsWith(QLatin1String("CREATE TABLE")) ||
          statement.startsWith(QLatin1String("ALTER TABLE")))) {
        return statement;
    }
    // SQLite's INTEGER is 64 bits (timestamps in ms, sizes); PostgreSQL's is 32.
    QString ddl = statement;
    ddl.replace(QLatin1String("INTEGER PRIMARY KEY AUTOINCREMENT"),
                QLatin1String("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"));
    static const QRegularExpression integer(QStringLiteral("\\bINTEGER\\b"));
    static const QRegularExpression blob(QStringLiteral("\\bBLOB\\b"));
    static const QRegularExpression real(QStringLiteral("\\bREAL\\b"));
    ddl.replace(integer, QStringLiteral("BIGINT"));
    ddl.replace(blob, QStringLiteral("BYTEA"));
    ddl.replace(real, QStringLiteral("DOUBLE PRECISION"));
    return ddl;
}

int Store::schemaVersion(const QString& component) {
    QSqlQuery q = exec(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_migrations "
                                      "WHERE component = ?"),
                       {component});
    return q.next() ? q.value(0).toInt() : 0;
}

void Store::migrate(const QString& component, const std::vector<Migration>& migrations) {
    for (const Migration& migration : migrations) {
        write([&](QSqlDatabase& db) {
            if (m_location.dialect == StoreDialect::Postgres) {
                QSqlQuery lock(db);
                if (!lock.exec(
                        QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kMigrationLock))) {
                    throwSql(QStringLiteral("locking the schema"), lock.lastError());
                }
            }
            QSqlQuery check(db);
            check.prepare(QStringLiteral("SELECT 1 FROM schema_migrations WHERE component = ? "
                                         "AND version = ?"));
            check.addBindValue(component);
            check.addBindValue(migration.version);
            if (!check.exec()) {
                throwSql(QStringLiteral("reading schema_migrations"), check.lastError());
            }
            if (check.next()) {
                return;
            }
            for (const QString& statement : migration.statements) {
                QSqlQuery step(db);
                if (!step.exec(dialectDdl(statement))) {
                    throwSql(component + QStringLiteral(" migration ") +
                                 QString::number(migration.version),
                             step.lastError());
                }
            }
            if (migration.backfill) {
                migration.backfill(*this);
            }
            QSqlQuery record(db);
            record.prepare(QStringLiteral("INSERT INTO schema_migrations VALUES (?, ?, ?, ?)"));
            record.addBindValue(component);
            record.addBindValue(migration.version);
            record.addBindValue(migration.description);
            record.addBindValue(nowIsoMs());
            if (!record.exec()) {
                throwSql(QStringLiteral("recording a migration"), record.lastError());
            }
        });
    }
}

} // namespace proofdesk::core
