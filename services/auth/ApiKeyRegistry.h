#pragma once

#include "api/AuthWire.h"
#include "core/Clock.h"
#include "core/Store.h"

#include <QString>

#include <optional>

namespace proofdesk::auth {

// What a key may do besides its project's work.
enum class KeyRole {
    Project, // the request and proof APIs, as its project
    Admin,   // the same, and the server's own status (GET /admin/status, docs/api.md)
};

// Who an API key speaks for.
struct KeyIdentity {
    QString keyId;
    QString projectId;
    QString keyName;
    KeyRole role = KeyRole::Project;
};

// Projects, their members and their API keys. Also the one place that checks an API key for the
// request and proof services (authenticate()).
class ApiKeyRegistry {
public:
    ApiKeyRegistry(core::Store& store, const core::Clock& clock);

    // Throws ServiceError(Unauthenticated, MISSING_API_KEY / INVALID_API_KEY).
    KeyIdentity authenticate(const QString& apiKey);

    // Called inside a Store::write transaction (this thread's connection): a project owned by
    // `ownerUserId` (may be empty for admin projects), its owner membership; returns its id.
    QString createProjectIn(const QString& name, const QString& ownerUserId);
    api::ApiKeyRecord mintKeyIn(const QString& projectId, const QString& name, const QString& color,
                                KeyRole role = KeyRole::Project);

    api::ApiKeyRecord mintKey(const QString& projectId, const QString& name, const QString& color,
                              KeyRole role = KeyRole::Project);
    // Offline admin: makes an existing key an admin key (the console's key of its own server).
    void grantAdmin(const QString& keyId);
    api::ApiKeyPage listKeys(const QString& projectId, int limit, int offset);

    bool isMember(const QString& userId, const QString& projectId);
    bool projectExists(const QString& projectId);
    // Offline admin: the project with this name that no wallet owns, created if absent.
    QString adminProjectNamed(const QString& name);
    // Offline admin: a project given by id, or else by name (the oldest of that name).
    std::optional<QString> findProject(const QString& idOrName);

private:
    core::Store& m_store;
    const core::Clock& m_clock;
};

} // namespace proofdesk::auth
