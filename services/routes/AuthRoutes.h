#pragma once

#include "HttpNames.h"
#include "auth/SignInService.h"

namespace proofdesk::routes {

// Sign-in service routes (docs/api.md): challenge, session, refresh-token, api-keys.
void addAuthRoutes(Router& router, auth::SignInService& signIn);

// Cookie names of the cookie channel.
inline constexpr const char* kAccessCookie = "pd_access";
inline constexpr const char* kRefreshCookie = "pd_refresh";

} // namespace proofdesk::routes
