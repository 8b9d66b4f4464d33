#pragma once

#include "HttpListener.h"
#include "ListenAddress.h"
#include "RequestLog.h"
#include "Router.h"
#include "proof/Provers.h"
#include "request/RequestService.h"
#include "server/ServiceSet.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace proofdesk::http {

struct ServerOptions {
    QString dataDir;
    ListenAddress listen;                       // all three APIs
    std::optional<ListenAddress> requestListen; // request service only
    std::optional<ListenAddress> requestAliasListen;
    std::optional<ListenAddress> proofListen;
    std::optional<ListenAddress> authListen;
    bool allowRemote = false;
    // Host names (besides loopback ones) this server answers, and whose web pages may change
    // state (serve --allow-host). Anything else is refused (DNS rebinding, docs/security.md).
    QStringList allowedHosts;
    const core::Clock* clock = nullptr; // nullptr: the system clock
    ListenerLimits limits;
    int jobWorkers = 3; // a project runs at most 2 at once (JobEngine)
    proof::ProverSettings provers;
    request::RequestSettings requests; // chain RPC URLs, RPC limits, grow-order polling
    // Empty: the SQLite store in dataDir. A postgresql:// URL: a team store (docs/team.md).
    QString store;
    // False: a front end only; `proofdesk worker` processes run the jobs.
    bool localWorkers = true;
    core::JobLeases jobLeases; // on a team store (docs/team.md)
};

// The three APIs for real, on one or more listeners: `proofdesk serve` and the console's
// embedded server are both this object. It binds the listeners and routes to a ServiceSet
// (services/server), which owns and wires the services themselves.
class LocalServer {
public:
    explicit LocalServer(ServerOptions options);
    ~LocalServer();
    LocalServer(const LocalServer&) = delete;
    LocalServer& operator=(const LocalServer&) = delete;

    // Opens the store, builds the services, binds every listener and starts serving.
    bool start(QString* error);
    void stop();

    // Empty before start() and after stop().
    QString mainUrl() const;
    QString requestUrl() const;
    QString requestAliasUrl() const;
    QString proofUrl() const;
    QString authUrl() const;
    // Warnings worth printing (e.g. listening beyond loopback).
    QStringList warnings() const { return m_warnings; }

    RequestLog& requestLog() { return m_log; }
    core::Store& store();
    auth::ApiKeyRegistry& apiKeys();
    auth::SignInService& signIn();
    core::JobEngine& jobs();
    proof::ProofService& proofs();
    request::RequestService& requests();

private:
    HttpListener* addListener(const ListenAddress& address, std::vector<RouteGroup> groups,
                              QString* error);
    void clearListeners(); // stops them and forgets every listener pointer

    ServerOptions m_options;
    RequestLog m_log;
    Router m_router;
    std::unique_ptr<core::Clock> m_ownClock;
    std::unique_ptr<server::ServiceSet> m_services;
    std::vector<std::unique_ptr<HttpListener>> m_listeners;
    HttpListener* m_main = nullptr;
    HttpListener* m_request = nullptr;
    HttpListener* m_requestAlias = nullptr;
    HttpListener* m_proof = nullptr;
    HttpListener* m_auth = nullptr;
    QStringList m_warnings;
};

} // namespace proofdesk::http
