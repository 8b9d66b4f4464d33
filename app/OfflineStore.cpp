#include "OfflineStore.h"

#include "core/DataDir.h"

QCommandLineOption dataDirOption() {
    return {QStringLiteral("data-dir"), QStringLiteral("The server's data dir."),
            QStringLiteral("dir"), proofdesk::core::defaultDataDir()};
}
