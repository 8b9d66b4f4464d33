#pragma once

#include "Router.h"

namespace proofdesk::http {

// GET /is-alive -> {"message":"Alive!"} (request service, spec §4.1).
void addHealthRoutes(Router& router);

} // namespace proofdesk::http
