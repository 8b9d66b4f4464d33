#pragma once

#include "api/AdminWire.h"
#include "auth/ApiKeyRegistry.h"
#include "auth/SignInService.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "proof/ProofService.h"
#include "proof/Provers.h"
#include "request/RequestService.h"

#include <QString>
#include <QStringList>

namespace proofdesk::server {

// What the services are built from.
struct ServiceSettings {
    QString dataDir;    // prepared (core/DataDir): the store, artifacts and work files live here
    int jobWorkers = 3; // a project runs at most 2 at once (JobEngine)
    proof::ProverSettings provers;
    request::RequestSettings requests; // chain RPC URLs, RPC limits, grow-order polling
    // Empty: the SQLite store in dataDir. A postgresql:// URL: a team store shared with other
    // front ends and `proofdesk worker` processes (docs/team.md).
    QString store;
    // False: this process only enqueues; workers elsewhere run the jobs.
    bool runJobs = true;
    // On a team store: how long a claim holds a job without a heartbeat (docs/team.md).
    core::JobLeases jobLeases;
    // The kinds of work this process's job workers take (core/WorkKinds.h); empty: all.
    QStringList workKinds;
};

// The one place the services are wired: it owns the store, the project and key registry, the
// job engine and the three services (sign-in, proof, request), and starts and stops them in
// order. The HTTP binding (server::LocalServer, for `proofdesk serve` and the console's embedded
// server) serves one; the offline commands open only the units they need (app/OfflineStore).
class ServiceSet {
public:
    // Opens the store and builds the services; throws (ServiceError, std::exception) when the
    // store cannot be opened or migrated. Nothing runs until start().
    ServiceSet(const ServiceSettings& settings, const core::Clock& clock);
    ServiceSet(const ServiceSet&) = delete;
    ServiceSet& operator=(const ServiceSet&) = delete;

    // Names the URLs the services write into what they hand out (the sign-in challenge, a
    // query's metadata URLs), then starts the job engine, settles queries a stop interrupted and
    // starts the request service's schedules. Call before any request is served.
    void start(const QString& authUrl, const QString& proofUrl);
    // Stops the request service's schedules and the job engine (running jobs are asked to stop
    // and resume on the next start).
    void stop();

    // The store, its workers alive and its queue (GET /admin/status, `proofdesk store status`).
    api::ServerStatus status();

    core::Store& store() { return m_store; }
    auth::ApiKeyRegistry& keys() { return m_keys; }
    auth::SignInService& signIn() { return m_signIn; }
    core::JobEngine& jobs() { return m_jobs; }
    proof::ProofService& proofs() { return m_proofs; }
    request::RequestService& requests() { return m_requests; }

private:
    const core::Clock& m_clock;
    bool m_runJobs;
    core::Store m_store;
    auth::ApiKeyRegistry m_keys;
    auth::SignInService m_signIn;
    core::JobEngine m_jobs;
    proof::ProofService m_proofs;
    request::RequestService m_requests;
};

} // namespace proofdesk::server
