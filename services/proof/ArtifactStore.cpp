#include "ArtifactStore.h"

#include "core/ServiceError.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
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

ArtifactStore::Pin ArtifactStore::pin(const std::string& sha256) {
    {
        std::lock_guard lock(m_pinsMutex);
        ++m_pins[sha256];
    }
    return {this, [this, sha256](const void*) {
                std::lock_guard lock(m_pinsMutex);
                if (auto it = m_pins.find(sha256); it != m_pins.end() && --it->second == 0) {
                    m_pins.erase(it);
                }
            }};
}

bool ArtifactStore::removeUnlessPinned(const std::string& sha256) {
    std::lock_guard lock(m_pinsMutex);
    if (m_pins.count(sha256) != 0) {
        return false;
    }
    return QFile::remove(pathOf(sha256)) || !contains(sha256);
}

std::vector<ArtifactStore::Stored> ArtifactStore::list() const {
    std::vector<Stored> out;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QFileInfoList files =
        QDir(m_directory).entryInfoList(QDir::Files | QDir::NoDotAndDotDot | QDir::Hidden);
    for (const QFileInfo& file : files) {
        if (file.fileName().size() != 64) {
            continue; // a temporary file of a store in progress
        }
        out.push_back(
            {file.fileName().toStdString(), file.size(), file.lastModified().secsTo(now)});
    }
    return out;
}

bool ArtifactStore::put(const std::string& bytes, const std::string& digest) {
    if (contains(digest)) {
        return false;
    }
    // QSaveFile writes a temporary file, fsyncs it on commit and renames it into place.
    QSaveFile file(pathOf(digest));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) || !file.commit()) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 "cannot write artifact " + digest + ": " +
                                     file.errorString().toStdString());
    }
    QFile::setPermissions(pathOf(digest), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

std::string ArtifactStore::sha256OfFile(const std::string& path) {
    QFile file(QString::fromStdString(path));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file)) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 "cannot read " + path);
    }
    return hash.result().toHex().toStdString();
}

bool ArtifactStore::putFile(const std::string& path, const std::string& digest) {
    if (contains(digest)) {
        return false;
    }
    QFile in(QString::fromStdString(path));
    QSaveFile out(pathOf(digest));
    bool ok = in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly);
    char buffer[1 << 16];
    while (ok) {
        const qint64 n = in.read(buffer, sizeof buffer);
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        ok = out.write(buffer, n) == n;
    }
    if (!ok || !out.commit()) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 "cannot write artifact " + digest + " from " + path);
    }
    QFile::setPermissions(pathOf(digest), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
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
