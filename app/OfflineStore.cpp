#include "OfflineStore.h"

#include "core/DataDir.h"

#include <QSettings>

QCommandLineOption storeOption() {
    QString fallback = qEnvironmentVariable("PROOFDESK_STORE");
    if (fallback.isEmpty()) {
        fallback = QSettings(QStringLiteral("Proofdesk"), QStringLiteral("proofdesk"))
                       .value(QStringLiteral("server/store"))
                       .toString();
    }
    return {QStringLiteral("store"),
            QStringLiteral("A team's PostgreSQL store, postgresql://USER@HOST:PORT/DB (default: "
                           "PROOFDESK_STORE, else the data dir's own SQLite store)."),
            QStringLiteral("url"), fallback};
}

QCommandLineOption dataDirOption() {
    return {QStringLiteral("data-dir"), QStringLiteral("The server's data dir."),
            QStringLiteral("dir"), proofdesk::core::defaultDataDir()};
}
