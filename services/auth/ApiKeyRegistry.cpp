#include "ApiKeyRegistry.h"

#include "AuthSchema.h"

#include "core/SecureRandom.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"

namespace proofdesk::auth {
namespace {

api::ApiKeyRecord keyFromRow(const QSqlQuery& q) {
    api::ApiKeyRecord key;
    key.id = q.value(0).toString().toStdString();
    key.apiKey = q.value(1).toString().toStdString();
    key.name = q.value(2).toString().toStdString();
    key.color = q.value(3).toString().toStdString();
    key.createdAt = q.value(4).toString().toStdString();
    key.active = q.value(5).toBool();
    key.projectId = q.value(6).toString().toStdString();
    return key;
}

} // namespace

ApiKeyRegistry::ApiKeyRegistry(core::Store& store, const core::Clock& clock)
    : m_store(store), m_clock(clock) {
    m_store.migrate(QStringLiteral("auth"), authMigrations());
}

KeyIdentity ApiKeyRegistry::authenticate(const QString& apiKey) {
    if (apiKey.isEmpty()) {
        throw core::ServiceError(core::ErrorKind::Unauthenticated, "MISSING_API_KEY");
    }
    // Looked up by the SHA-256 of the key: the comparison is on a hash index, so its timing says
    // nothing about how much of a guessed key was right.
    QSqlQuery q = m_store.exec(
        QStringLiteral("SELECT id, project_id, name, admin FROM api_keys WHERE key_hash = ? AND "
                       "active = 1"),
        {core::sha256Hex(apiKey)});
    if (!q.next()) {
        throw core::ServiceError(core::ErrorKind::Unauthenticated, "INVALID_API_KEY");
    }
    return {q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toInt() == 1 ? KeyRole::Admin : KeyRole::Project};
}

QString ApiKeyRegistry::createProjectIn(const QString& name, const QString& ownerUserId) {
    const QString id = core::newUlid(m_clock.nowMs());
    const QString now = core::toIsoTimestamp(m_clock.now());
    m_store.exec(QStringLiteral("INSERT INTO projects (id, name, owner_user_id, created_at) "
                                "VALUES (?, ?, ?, ?)"),
                 {id, name, ownerUserId.isEmpty() ? QVariant() : QVariant(ownerUserId), now});
    if (!ownerUserId.isEmpty()) {
        m_store.exec(QStringLiteral("INSERT INTO project_members VALUES (?, ?, 'owner')"),
                     {id, ownerUserId});
    }
    return id;
}

api::ApiKeyRecord ApiKeyRegistry::mintKeyIn(const QString& projectId, const QString& name,
                                            const QString& color, KeyRole role) {
    api::ApiKeyRecord key;
    const QString id = core::newUlid(m_clock.nowMs());
    const QString secret = core::secureRandomToken(QStringLiteral("pdk_"), 24);
    const QString now = core::toIsoTimestamp(m_clock.now());
    m_store.exec(QStringLiteral("INSERT INTO api_keys (id, project_id, key_hash, api_key, name,"
                                " color, active, created_at, admin) VALUES (?, ?, ?, ?, ?, ?, 1, "
                                "?, ?)"),
                 {id, projectId, core::sha256Hex(secret), secret, name, color, now,
                  role == KeyRole::Admin ? 1 : 0});
    key.id = id.toStdString();
    key.apiKey = secret.toStdString();
    key.name = name.toStdString();
    key.color = color.toStdString();
    key.createdAt = now.toStdString();
    key.active = true;
    key.projectId = projectId.toStdString();
    return key;
}

api::ApiKeyRecord ApiKeyRegistry::mintKey(const QString& projectId, const QString& name,
                                          const QString& color, KeyRole role) {
    api::ApiKeyRecord key;
    m_store.write([&](QSqlDatabase&) { key = mintKeyIn(projectId, name, color, role); });
    return key;
}

void ApiKeyRegistry::grantAdmin(const QString& keyId) {
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("UPDATE api_keys SET admin = 1 WHERE id = ?"), {keyId});
    });
}

api::ApiKeyPage ApiKeyRegistry::listKeys(const QString& projectId, int limit, int offset) {
    api::ApiKeyPage page;
    QSqlQuery count = m_store.exec(
        QStringLiteral("SELECT COUNT(*) FROM api_keys WHERE project_id = ?"), {projectId});
    page.total = count.next() ? count.value(0).toLongLong() : 0;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT id, api_key, name, color, created_at, active, project_id "
                       "FROM api_keys WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?"),
        {projectId, limit, offset});
    while (rows.next()) {
        page.data.push_back(keyFromRow(rows));
    }
    return page;
}

bool ApiKeyRegistry::isMember(const QString& userId, const QString& projectId) {
    QSqlQuery q = m_store.exec(
        QStringLiteral("SELECT 1 FROM project_members WHERE project_id = ? AND user_id = ?"),
        {projectId, userId});
    return q.next();
}

bool ApiKeyRegistry::projectExists(const QString& projectId) {
    QSqlQuery q = m_store.exec(QStringLiteral("SELECT 1 FROM projects WHERE id = ?"), {projectId});
    return q.next();
}

QString ApiKeyRegistry::adminProjectNamed(const QString& name) {
    QString id;
    m_store.write([&](QSqlDatabase&) {
        QSqlQuery find =
            m_store.exec(QStringLiteral("SELECT id FROM projects WHERE name = ? AND owner_user_id "
                                        "IS NULL ORDER BY id LIMIT 1"),
                         {name});
        id = find.next() ? find.value(0).toString() : createProjectIn(name, QString());
    });
    return id;
}

std::optional<QString> ApiKeyRegistry::findProject(const QString& idOrName) {
    QSqlQuery find = m_store.exec(QStringLiteral("SELECT id FROM projects WHERE id = ? OR name = ? "
                                                 "ORDER BY id = ? DESC, id LIMIT 1"),
                                  {idOrName, idOrName, idOrName});
    if (!find.next()) {
        return std::nullopt;
    }
    return find.value(0).toString();
}

} // namespace proofdesk::auth
