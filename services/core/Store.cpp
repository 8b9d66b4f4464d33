#include "Store.h"

#include "ServiceError.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QThread>

#include <sqlite3.h>

#include <atomic>
#include <mutex>

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

} // namespace

Store::Store(const QString& databasePath)
    : m_path(databasePath), m_storeId(QString::number(g_storeCounter.fetch_add(1))) {
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
        restrictToOwner(m_path + QLatin1String(suffix));
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
        return QSqlDatabase::database(name, false);
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=15000"));
    if (!db.open()) {
        const QSqlError error = db.lastError();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        throwSql(QStringLiteral("opening ") + m_path, error);
    }
    configure(db);
    std::lock_guard lock(m_namesMutex);
    m_connectionNames.push_back(name);
    return db;
}

void Store::configure(QSqlDatabase& db) {
    QSqlQuery q(db);
    for (const char* pragma : {"PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
                               "PRAGMA busy_timeout=15000", "PRAGMA temp_store=MEMORY"}) {
        if (!q.exec(QLatin1String(pragma))) {
            throwSql(QLatin1String(pragma), q.lastError());
        }
    }
}

QSqlQuery Store::exec(const QString& sql, const QVariantList& bindings) {
    QSqlQuery query(connection());
    if (!query.prepare(sql)) {
        throwSql(QStringLiteral("preparing ") + sql, query.lastError());
    }
    for (const QVariant& value : bindings) {
        query.addBindValue(value);
    }
    if (!query.exec()) {
        throwSql(QStringLiteral("running ") + sql, query.lastError());
    }
    return query;
}

namespace {
// The actions waiting for the commit of this thread's write transaction, if one is open.
thread_local std::vector<std::function<void()>>* t_afterCommit = nullptr;
} // namespace

void Store::afterCommit(std::function<void()> action) {
    if (t_afterCommit) {
        t_afterCommit->push_back(std::move(action));
    } else {
        action();
    }
}

void Store::write(const std::function<void(QSqlDatabase&)>& work) {
    QSqlDatabase db = connection();
    std::lock_guard writeLock(m_writeMutex);
    std::vector<std::function<void()>> committed;
    t_afterCommit = &committed;
    struct Reset {
        ~Reset() { t_afterCommit = nullptr; }
    } reset;
    QSqlQuery control(db);
    if (!control.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        throwSql(QStringLiteral("beginning a write"), control.lastError());
    }
    try {
        work(db);
    } catch (...) {
        control.exec(QStringLiteral("ROLLBACK"));
        throw;
    }
    if (!control.exec(QStringLiteral("COMMIT"))) {
        const QSqlError error = control.lastError();
        control.exec(QStringLiteral("ROLLBACK"));
        throwSql(QStringLiteral("committing"), error);
    }
    t_afterCommit = nullptr;
    for (auto& action : committed) {
        action();
    }
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
                if (!step.exec(statement)) {
                    throwSql(component + QStringLiteral(" migration ") +
                                 QString::number(migration.version),
                             step.lastError());
                }
            }
            if (migration.backfill) {
                migration.backfill(*this);
            }
            QSqlQuery record(db);
            record.prepare(QStringLiteral("INSERT INTO schema_migrations VALUES (?, ?, ?, "
                                          "strftime('%Y-%m-%dT%H:%M:%fZ','now'))"));
            record.addBindValue(component);
            record.addBindValue(migration.version);
            record.addBindValue(migration.description);
            if (!record.exec()) {
                throwSql(QStringLiteral("recording a migration"), record.lastError());
            }
        });
    }
}

} // namespace proofdesk::core
