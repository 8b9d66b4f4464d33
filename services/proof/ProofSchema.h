#pragma once

#include "core/Store.h"

#include <vector>

namespace proofdesk::proof {

// Tables of the proof service (component "proof"): queries, their artifacts, programs, buckets,
// the local fact registry and project credits.
std::vector<core::Migration> proofMigrations();

} // namespace proofdesk::proof
