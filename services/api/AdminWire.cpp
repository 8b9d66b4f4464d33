#include "AdminWire.h"

namespace proofdesk::api {

nlohmann::json toJson(const ServerStatus& status) {
    nlohmann::json workers = nlohmann::json::array();
    for (const WorkerStatus& worker : status.workers) {
        workers.push_back({{"name", worker.name},
                           {"host", worker.host},
                           {"pid", worker.pid},
                           {"threads", worker.threads},
                           {"lastHeartbeatMsAgo", worker.lastHeartbeatMsAgo},
                           {"runningJob", worker.runningJob}});
    }
    nlohmann::json queue = nlohmann::json::array();
    for (const QueueDepth& depth : status.queue) {
        queue.push_back({{"kind", depth.kind},
                         {"project", depth.project},
                         {"queued", depth.queued},
                         {"running", depth.running},
                         {"oldestQueuedAt", depth.oldestQueuedAt}});
    }
    return {{"store", status.store},
            {"shared", status.shared},
            {"workers", std::move(workers)},
            {"queue", std::move(queue)}};
}

ServerStatus serverStatusFromJson(const nlohmann::json& json) {
    ServerStatus status;
    status.store = json.at("store").get<std::string>();
    status.shared = json.at("shared").get<bool>();
    for (const nlohmann::json& worker : json.at("workers")) {
        status.workers.push_back(
            {worker.at("name").get<std::string>(), worker.at("host").get<std::string>(),
             worker.at("pid").get<std::int64_t>(), worker.at("threads").get<int>(),
             worker.at("lastHeartbeatMsAgo").get<std::int64_t>(),
             worker.at("runningJob").get<std::string>()});
    }
    for (const nlohmann::json& depth : json.at("queue")) {
        status.queue.push_back({depth.at("kind").get<std::string>(),
                                depth.at("project").get<std::string>(),
                                depth.at("queued").get<int>(), depth.at("running").get<int>(),
                                depth.at("oldestQueuedAt").get<std::string>()});
    }
    return status;
}

} // namespace proofdesk::api
