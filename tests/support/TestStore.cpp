#include "TestStore.h"

#include "core/Store.h"

#include <QCoreApplication>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

namespace proofdesk::test {

bool testStoreIsPostgres() {
    return core::StoreLocation::isPostgresUrl(qEnvironmentVariable("PROOFDESK_TEST_STORE"));
}

QString testStoreLocation(const QString& sqlitePath) {
    if (!testStoreIsPostgres()) {
        return sqlitePath;
    }
    static std::mutex mutex;
    static std::map<QString, QString> made; // sqlitePath -> database URL
    std::lock_guard lock(mutex);
    if (auto it = made.find(sqlitePath); it != made.end()) {
        return it->second;
    }
    static std::atomic<int> counter{0};
    core::StoreLocation location =
        core::StoreLocation::parse(qEnvironmentVariable("PROOFDESK_TEST_STORE"));
    const QString database =
        QStringLiteral("t%1_%2").arg(QCoreApplication::applicationPid()).arg(counter.fetch_add(1));
    const QString connectionName = QStringLiteral("test-store-admin-") + database;
    QString failure;
    {
        QSqlDatabase admin = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
        admin.setHostName(location.host);
        admin.setPort(location.port);
        admin.setUserName(location.user);
        admin.setDatabaseName(location.database);
        if (!admin.open()) {
            failure = admin.lastError().text();
        } else {
            QSqlQuery create(admin);
            if (!create.exec(QStringLiteral("CREATE DATABASE ") + database)) {
                failure = create.lastError().text();
            }
        }
        admin.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
    if (!failure.isEmpty()) {
        throw std::runtime_error("cannot create a test database: " + failure.toStdString());
    }
    location.database = database;
    made[sqlitePath] = location.describe();
    return made[sqlitePath];
}

} // namespace proofdesk::test
