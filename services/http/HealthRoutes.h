#pragma once

#include "Router.h"

namespace proofdesk::http {

// GET /is-alive -> {"message":"Alive!"} (request service, docs/api.md).
void addHealthRoutes(Router& router);

} // namespace proofdesk::http
