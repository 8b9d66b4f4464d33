#pragma once

#include "core/Store.h"

namespace proofdesk::auth {

// Tables of the sign-in service: users, projects and members, API keys, challenges, sessions
// and tokens. Secrets (tokens) are stored only as SHA-256; API keys are kept in full because the
// listing returns them (the store file is owner-only).
std::vector<core::Migration> authMigrations();

} // namespace proofdesk::auth
