#pragma once

#include <QString>

namespace proofdesk::core {

// The default data dir (QStandardPaths::AppDataLocation).
QString defaultDataDir();

// Creates the dir (owner-only, 0700) if needed; returns false with `error` set if it cannot.
bool prepareDataDir(const QString& dir, QString* error);

// The store file inside a data dir.
QString storePathIn(const QString& dataDir);

} // namespace proofdesk::core
