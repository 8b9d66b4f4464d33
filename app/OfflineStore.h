#pragma once

#include "auth/ApiKeyRegistry.h"
#include "core/Clock.h"
#include "core/DataDir.h"
#include "core/Store.h"

#include <QCommandLineOption>
#include <QString>

// What the offline admin commands (`keys`, `credits`) work on: the server's store in its data
// dir, opened directly, with the system clock and the project and key registry.
struct OfflineStore {
    // Opens the store; throws ServiceError if it cannot.
    explicit OfflineStore(const QString& dataDir)
        : store(proofdesk::core::storePathIn(dataDir)), keys(store, clock) {}
    proofdesk::core::Store store;
    proofdesk::core::SystemClock clock;
    proofdesk::auth::ApiKeyRegistry keys;
};

// The commands' --data-dir option (default: the server's default data dir).
QCommandLineOption dataDirOption();
