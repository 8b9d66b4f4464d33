#include "AuthSchema.h"

namespace proofdesk::auth {

std::vector<core::Migration> authMigrations() {
    return {
        {1,
         QStringLiteral("users, projects, api keys, challenges, sessions, tokens"),
         {
             QStringLiteral("CREATE TABLE users (id TEXT PRIMARY KEY, wallet TEXT UNIQUE,"
                            " created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT NOT NULL,"
                            " owner_user_id TEXT REFERENCES users(id), created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX projects_by_name ON projects(name)"),
             QStringLiteral("CREATE TABLE project_members (project_id TEXT NOT NULL REFERENCES "
                            "projects(id), user_id TEXT NOT NULL REFERENCES users(id),"
                            " role TEXT NOT NULL, PRIMARY KEY (project_id, user_id))"),
             QStringLiteral("CREATE TABLE api_keys (id TEXT PRIMARY KEY, project_id TEXT NOT NULL"
                            " REFERENCES projects(id), key_hash TEXT NOT NULL UNIQUE,"
                            " api_key TEXT NOT NULL, name TEXT NOT NULL, color TEXT NOT NULL,"
                            " active INTEGER NOT NULL, created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX api_keys_by_project ON api_keys(project_id, id)"),
             QStringLiteral("CREATE TABLE challenges (token_hash TEXT PRIMARY KEY,"
                            " wallet TEXT NOT NULL, typed_data TEXT NOT NULL,"
                            " expires_at_ms INTEGER NOT NULL, used_at TEXT,"
                            " created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX challenges_by_expiry ON challenges(expires_at_ms)"),
             QStringLiteral("CREATE INDEX challenges_by_wallet ON challenges(wallet, used_at)"),
             QStringLiteral("CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL"
                            " REFERENCES users(id), channel TEXT NOT NULL,"
                            " selected_project TEXT NOT NULL, revoked_at TEXT, revoked_reason "
                            "TEXT, created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE TABLE tokens (token_hash TEXT PRIMARY KEY, session_id TEXT "
                            "NOT NULL REFERENCES sessions(id), kind TEXT NOT NULL,"
                            " expires_at_ms INTEGER NOT NULL, state TEXT NOT NULL,"
                            " created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX tokens_by_session ON tokens(session_id)"),
         }},
        // SQLite's rowid ordered a wallet's challenges issued in the same millisecond; a column
        // does it on both backends. Challenges stored before have 0 and expire within minutes.
        {2,
         QStringLiteral("challenges numbered per wallet in the order they were issued"),
         {QStringLiteral("ALTER TABLE challenges ADD COLUMN seq INTEGER NOT NULL DEFAULT 0")}},
        // Keys before were project keys.
        {3,
         QStringLiteral("admin keys, which also read the server's status"),
         {QStringLiteral("ALTER TABLE api_keys ADD COLUMN admin INTEGER NOT NULL DEFAULT 0")}},
    };
}

} // namespace proofdesk::auth
