#include "ArtifactStore.h"

#include "core/ServiceError.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSqlQuery>

#include <set>

namespace proofdesk::proof {

namespace {

[[noreturn]] void storeFailure(const std::string& what) {
    throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR", what);
}

} // namespace

ArtifactStore::ArtifactStore(QString directory, core::Store* shared)
    : m_directory(std::move(directory)), m_shared(shared && shared->isShared() ? shared : nullptr) {
    QDir().mkpath(m_directory);
    QFile::setPermissions(m_directory,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (m_shared) {
        m_shared->migrate(
            QStringLiteral("artifacts"),
            {{1,
              QStringLiteral("files every machine of a team store can read, in chunks"),
              {QStringLiteral("CREATE TABLE artifact_blobs (sha256 TEXT PRIMARY KEY, size INTEGER "
                              "NOT NULL, created_ms INTEGER NOT NULL)"),
               QStringLiteral("CREATE TABLE artifact_chunks (sha256 TEXT NOT NULL, idx INTEGER "
                              "NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (sha256, idx))")}}});
    }
}

bool ArtifactStore::inShared(const std::string& sha256) const {
    return m_shared && m_shared
                           ->exec(QStringLiteral("SELECT 1 FROM artifact_blobs WHERE sha256 = ?"),
                                  {QString::fromStdString(sha256)})
                           .next();
}

void ArtifactStore::publish(const std::string& sha256) const {
    if (!m_shared || inShared(sha256)) {
        return;
    }
    const QString digest = QString::fromStdString(sha256);
    QFile file(pathOf(sha256));
    if (!file.open(QIODevice::ReadOnly)) {
        storeFailure("cannot read artifact " + sha256 + " to share it");
    }
    // Each chunk is its own statement (a large file does not hold the store's write turn); the
    // blob row, written last, is what makes the file exist for the other machines. Chunks of an
    // upload cut short are written again, identical, by the next one.
    for (qint64 index = 0;; ++index) {
        const QByteArray chunk = file.read(kChunkBytes);
        if (chunk.isEmpty() && index > 0) {
            break;
        }
        m_shared->exec(QStringLiteral("INSERT INTO artifact_chunks (sha256, idx, bytes) VALUES "
                                      "(?, ?, ?) ON CONFLICT DO NOTHING"),
                       {digest, index, chunk});
        if (chunk.size() < kChunkBytes) {
            break;
        }
    }
    m_shared->exec(QStringLiteral("INSERT INTO artifact_blobs (sha256, size, created_ms) VALUES "
                                  "(?, ?, ?) ON CONFLICT DO NOTHING"),
                   {digest, file.size(), QDateTime::currentMSecsSinceEpoch()});
}

int ArtifactStore::publishAll() {
    int files = 0;
    for (const QString& name : QDir(m_directory).entryList(QDir::Files | QDir::Hidden)) {
        if (name.size() != 64) {
            continue;
        }
        const std::string digest = name.toStdString();
        if (sha256OfFile(pathOf(digest).toStdString()) != digest) {
            storeFailure("artifact " + digest + " does not match its digest; not copied");
        }
        publish(digest);
        ++files;
    }
    return files;
}

bool ArtifactStore::fetch(const std::string& sha256) const {
    const QString digest = QString::fromStdString(sha256);
    QSqlQuery blob = m_shared->exec(
        QStringLiteral("SELECT size FROM artifact_blobs WHERE sha256 = ?"), {digest});
    if (!blob.next()) {
        return false;
    }
    const qint64 size = blob.value(0).toLongLong();
    blob.finish();
    QSaveFile out(pathOf(sha256));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!out.open(QIODevice::WriteOnly)) {
        storeFailure("cannot write artifact " + sha256 + ": " + out.errorString().toStdString());
    }
    qint64 written = 0;
    for (qint64 index = 0; written < size || index == 0; ++index) {
        QSqlQuery chunk = m_shared->exec(
            QStringLiteral("SELECT bytes FROM artifact_chunks WHERE sha256 = ? AND idx = ?"),
            {digest, index});
        if (!chunk.next()) {
            storeFailure("artifact " + sha256 + " is incomplete in the team store (chunk " +
                         std::to_string(index) + " is missing)");
        }
        const QByteArray bytes = chunk.value(0).toByteArray();
        hash.addData(bytes);
        if (out.write(bytes) != bytes.size()) {
            storeFailure("cannot write artifact " + sha256);
        }
        written += bytes.size();
        if (bytes.isEmpty()) {
            break;
        }
    }
    // What another machine wrote is checked, not trusted: a wrong file never lands under a digest.
    if (written != size || hash.result().toHex().toStdString() != sha256) {
        out.cancelWriting();
        storeFailure("artifact " + sha256 + " in the team store does not match its digest");
    }
    if (!out.commit()) {
        storeFailure("cannot write artifact " + sha256 + ": " + out.errorString().toStdString());
    }
    QFile::setPermissions(pathOf(sha256), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
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
    if (QFile::exists(pathOf(sha256))) {
        return true;
    }
    return m_shared && fetch(sha256);
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
    if (m_shared) {
        // The blob row first: from then on no machine starts fetching it. In the caller's
        // transaction when there is one (the collector decides and removes in one).
        const QString digest = QString::fromStdString(sha256);
        m_shared->exec(QStringLiteral("DELETE FROM artifact_blobs WHERE sha256 = ?"), {digest});
        m_shared->exec(QStringLiteral("DELETE FROM artifact_chunks WHERE sha256 = ?"), {digest});
    }
    return QFile::remove(pathOf(sha256)) || !QFile::exists(pathOf(sha256));
}

std::vector<ArtifactStore::Stored> ArtifactStore::list() const {
    std::vector<Stored> out;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    std::set<std::string> listed;
    if (m_shared) {
        QSqlQuery blobs =
            m_shared->exec(QStringLiteral("SELECT sha256, size, created_ms FROM artifact_blobs"));
        while (blobs.next()) {
            const std::string digest = blobs.value(0).toString().toStdString();
            out.push_back({digest, blobs.value(1).toLongLong(),
                           (now.toMSecsSinceEpoch() - blobs.value(2).toLongLong()) / 1000});
            listed.insert(digest);
        }
    }
    const QFileInfoList files =
        QDir(m_directory).entryInfoList(QDir::Files | QDir::NoDotAndDotDot | QDir::Hidden);
    for (const QFileInfo& file : files) {
        if (file.fileName().size() != 64 || listed.count(file.fileName().toStdString()) != 0) {
            continue; // a temporary file of a store in progress, or listed from the store
        }
        out.push_back(
            {file.fileName().toStdString(), file.size(), file.lastModified().secsTo(now)});
    }
    return out;
}

bool ArtifactStore::put(const std::string& bytes, const std::string& digest) {
    if (QFile::exists(pathOf(digest))) {
        publish(digest);
        return false;
    }
    const bool known = inShared(digest);
    // QSaveFile writes a temporary file, fsyncs it on commit and renames it into place.
    QSaveFile file(pathOf(digest));
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) || !file.commit()) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 "cannot write artifact " + digest + ": " +
                                     file.errorString().toStdString());
    }
    QFile::setPermissions(pathOf(digest), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    publish(digest);
    return !known;
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
    if (QFile::exists(pathOf(digest))) {
        publish(digest);
        return false;
    }
    const bool known = inShared(digest);
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
    publish(digest);
    return !known;
}

std::optional<std::string> ArtifactStore::get(const std::string& sha256) const {
    if (!contains(sha256)) {
        return std::nullopt;
    }
    QFile file(pathOf(sha256));
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    return bytes.toStdString();
}

} // namespace proofdesk::proof
