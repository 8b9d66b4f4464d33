#pragma once

#include "auth/ApiKeyRegistry.h"
#include "core/Clock.h"
#include "core/DataDir.h"
#include "core/Store.h"

#include <QCommandLineOption>
#include <QString>

// What the offline admin commands (`keys`, `credits`) work on: the server's store (the SQLite file
// in its data dir, or a team's PostgreSQL store), opened directly, with the system clock and the
// project and key registry.
struct OfflineStore {
    // Opens the store; throws ServiceError if it cannot. An empty `storeUrl`: the data dir's.
    OfflineStore(const QString& dataDir, const QString& storeUrl)
        : store(storeUrl.isEmpty() ? proofdesk::core::storePathIn(dataDir) : storeUrl),
          keys(store, clock) {}
    proofdesk::core::Store store;
    proofdesk::core::SystemClock clock;
    proofdesk::auth::ApiKeyRegistry keys;
};

// The commands' --data-dir option (default: the server's default data dir).
QCommandLineOption dataDirOption();
// The commands' --store option: a team's PostgreSQL store (postgresql://USER@HOST:PORT/DB);
// default PROOFDESK_STORE, else the console's setting server/store, else empty (the data dir's
// own SQLite store).
QCommandLineOption storeOption();
