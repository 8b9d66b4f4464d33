#pragma once

#include "HttpNames.h"

namespace proofdesk::routes {

// GET /is-alive -> {"message":"Alive!"} (request service, docs/api.md).
void addHealthRoutes(Router& router);

} // namespace proofdesk::routes
