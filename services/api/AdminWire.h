#pragma once

// Ours, beside the three APIs: what GET /admin/status answers (docs/api.md, "Administration"),
// and what `proofdesk store status --json` prints. Not part of the request, proof or sign-in API.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::api {

// A job worker whose heartbeat the store saw lately: a `proofdesk worker`, or the job threads of
// a server that runs its own jobs.
struct WorkerStatus {
    std::string name;
    std::string host;
    std::int64_t pid = 0;
    int threads = 0;
    std::int64_t lastHeartbeatMsAgo = 0;
    std::string runningJob; // one of its running jobs; empty when idle
};

// Unfinished jobs of one kind of work (trace, prove, verify, aggregate, request) of one project.
struct QueueDepth {
    std::string kind;
    std::string project; // the job's lane: a project id, or "request:<query id>"
    int queued = 0;
    int running = 0;
    std::string oldestQueuedAt; // ISO time of the oldest waiting job; empty when none waits
};

struct ServerStatus {
    std::string store;   // where the records are: a file path, or a PostgreSQL URL without secrets
    bool shared = false; // a team store (PostgreSQL) shared with other processes
    std::vector<WorkerStatus> workers;
    std::vector<QueueDepth> queue;
};

nlohmann::json toJson(const ServerStatus& status);
// Throws nlohmann::json::exception when a member is missing or of the wrong type.
ServerStatus serverStatusFromJson(const nlohmann::json& json);

} // namespace proofdesk::api
