#include "ApiKeyRegistry.h"

#include "AuthSchema.h"

#include "core/SecureRandom.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"

#include <QSqlError>

namespace proofdesk::auth {
namespace {

void execOrThrow(QSqlQuery& query) {
    if (!query.exec()) {
        throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                           query.lastError().text().toStdString());
    }
}

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

ApiKeyRegistry::ApiKeyRegistry(Store& store, const Clock& clock) : m_store(store), m_clock(clock) {
    m_store.migrate(QStringLiteral("auth"), authMigrations());
}

KeyIdentity ApiKeyRegistry::authenticate(const QString& apiKey) {
    if (apiKey.isEmpty()) {
        throw ServiceError(ErrorKind::Unauthenticated, "MISSING_API_KEY");
    }
    // Looked up by the SHA-256 of the key: the comparison is on a hash index, so its timing says
    // nothing about how much of a guessed key was right.
    QSqlQuery q = m_store.exec(
        QStringLiteral("SELECT id, project_id FROM api_keys WHERE key_hash = ? AND active = 1"),
        {sha256Hex(apiKey)});
    if (!q.next()) {
        throw ServiceError(ErrorKind::Unauthenticated, "INVALID_API_KEY");
    }
    return {q.value(0).toString(), q.value(1).toString()};
}

QString ApiKeyRegistry::createProjectIn(QSqlDatabase& db, const QString& name,
                                        const QString& ownerUserId) {
    const QString id = newUlid(m_clock.nowMs());
    const QString now = toIsoTimestamp(m_clock.now());
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO projects (id, name, owner_user_id, created_at) "
                                  "VALUES (?, ?, ?, ?)"));
    insert.addBindValue(id);
    insert.addBindValue(name);
    insert.addBindValue(ownerUserId.isEmpty() ? QVariant() : QVariant(ownerUserId));
    insert.addBindValue(now);
    execOrThrow(insert);
    if (!ownerUserId.isEmpty()) {
        QSqlQuery member(db);
        member.prepare(QStringLiteral("INSERT INTO project_members VALUES (?, ?, 'owner')"));
        member.addBindValue(id);
        member.addBindValue(ownerUserId);
        execOrThrow(member);
    }
    return id;
}

api::ApiKeyRecord ApiKeyRegistry::mintKeyIn(QSqlDatabase& db, const QString& projectId,
                                            const QString& name, const QString& color) {
    api::ApiKeyRecord key;
    const QString id = newUlid(m_clock.nowMs());
    const QString secret = secureRandomToken(QStringLiteral("pdk_"), 24);
    const QString now = toIsoTimestamp(m_clock.now());
    QSqlQuery insert(db);
    insert.prepare(QStringLiteral("INSERT INTO api_keys (id, project_id, key_hash, api_key, name,"
                                  " color, active, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)"));
    insert.addBindValue(id);
    insert.addBindValue(projectId);
    insert.addBindValue(sha256Hex(secret));
    insert.addBindValue(secret);
    insert.addBindValue(name);
    insert.addBindValue(color);
    insert.addBindValue(now);
    execOrThrow(insert);
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
                                          const QString& color) {
    api::ApiKeyRecord key;
    m_store.write([&](QSqlDatabase& db) { key = mintKeyIn(db, projectId, name, color); });
    return key;
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
    m_store.write([&](QSqlDatabase& db) {
        QSqlQuery find(db);
        find.prepare(QStringLiteral("SELECT id FROM projects WHERE name = ? AND owner_user_id "
                                    "IS NULL ORDER BY id LIMIT 1"));
        find.addBindValue(name);
        execOrThrow(find);
        id = find.next() ? find.value(0).toString() : createProjectIn(db, name, QString());
    });
    return id;
}

} // namespace proofdesk::auth
