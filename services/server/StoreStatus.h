#pragma once

#include "api/AdminWire.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

namespace proofdesk::server {

// A store as its operator sees it: where it is, the job workers whose heartbeat it saw lately and
// its unfinished jobs per kind of work and project. GET /admin/status and `proofdesk store status`
// both answer this.
api::ServerStatus storeStatus(core::Store& store, core::JobEngine& jobs, const core::Clock& clock);

} // namespace proofdesk::server
