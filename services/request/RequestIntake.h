#pragma once

#include "RequestQueries.h"
#include "api/RequestBodies.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <string>

namespace proofdesk::request {

// POST /submit-request: a data request, as its route read it (api::parseUserRequest, every
// failure a 400 or 422 with a named code), planned as one query per origin chain (the action DAG of
// planChainQuery), and stored with the jobs of the actions that wait for nothing, in one
// transaction.
class RequestIntake {
public:
    RequestIntake(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                  RequestQueries& queries)
        : m_store(store), m_clock(clock), m_jobs(jobs), m_queries(queries) {}

    // Returns the request id.
    std::string submit(const QString& projectId, const api::UserRequest& request);

private:
    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    RequestQueries& m_queries;
};

} // namespace proofdesk::request
