#include "DataDir.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace proofdesk::core {

QString defaultDataDir() {
    // The application name is set to "proofdesk" in main(), so this is ~/.local/share/proofdesk.
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

bool prepareDataDir(const QString& dir, QString* error) {
    QDir d(dir);
    if (!d.exists() && !d.mkpath(QStringLiteral("."))) {
        if (error) {
            *error = QStringLiteral("cannot create data dir ") + dir;
        }
        return false;
    }
    QFile::setPermissions(dir,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return true;
}

QString storePathIn(const QString& dataDir) {
    return QDir(dataDir).filePath(QStringLiteral("proofdesk.sqlite"));
}

} // namespace proofdesk::core
