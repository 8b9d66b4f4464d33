#include "StoreStatus.h"

namespace proofdesk::server {

api::ServerStatus storeStatus(core::Store& store, core::JobEngine& jobs, const core::Clock& clock) {
    api::ServerStatus status;
    status.store = store.path().toStdString();
    status.shared = store.isShared();
    const qint64 now = clock.nowMs();
    for (const core::JobWorkerRecord& worker : jobs.liveWorkers()) {
        status.workers.push_back({worker.name.toStdString(), worker.host.toStdString(), worker.pid,
                                  worker.threads, now - worker.heartbeatMs,
                                  worker.runningJob.toStdString()});
    }
    for (const core::JobQueueDepth& depth : jobs.queueDepth()) {
        status.queue.push_back({depth.kind.toStdString(), depth.lane.toStdString(), depth.queued,
                                depth.running, depth.oldestQueuedAt.toStdString()});
    }
    return status;
}

} // namespace proofdesk::server
