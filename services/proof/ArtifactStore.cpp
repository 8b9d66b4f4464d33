#include "ArtifactStore.h"

#include "core/ServiceError.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSaveFile>

namespace proofdesk::proof {

ArtifactStore::ArtifactStore(QString directory) : m_directory(std::move(directory)) {
    QDir().mkpath(m_directory);
    QFile::setPermissions(m_directory,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

std::string ArtifactStore::sha256Of(const std::string& bytes) {
    return QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

QString ArtifactStore::pathOf(const std::string& sha256) const {
    return m_directory + QLatin1Char('/') + QString::fromStdString(sha256);
}

bool ArtifactStore::contains(const std::string& sha256) const {
    return QFile::exists(pathOf(sha256));
}

std::string ArtifactStore::put(const std::string& bytes) {
    const std::string digest = sha256Of(bytes);
    put(bytes, digest);
    return digest;
}

void ArtifactStore::put(const std::string& bytes, const std::string& digest) {
    if (contains(digest)) {
        return;
    }
    // QSaveFile writes a temporary file, fsyncs it on commit and renames it into place.
    QSaveFile file(pathOf(digest));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) || !file.commit()) {
        throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                           "cannot write artifact " + digest + ": " +
                               file.errorString().toStdString());
    }
    QFile::setPermissions(pathOf(digest), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

std::optional<std::string> ArtifactStore::get(const std::string& sha256) const {
    QFile file(pathOf(sha256));
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    return bytes.toStdString();
}

} // namespace proofdesk::proof
