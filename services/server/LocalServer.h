#pragma once

#include "ServiceSet.h"
#include "http/HttpListener.h"
#include "http/ListenAddress.h"
#include "http/RequestLog.h"
#include "http/Router.h"
#include "proof/Provers.h"
#include "request/RequestService.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace proofdesk::server {

struct ServerOptions {
    QString dataDir;
    http::ListenAddress listen;                       // all three APIs
    std::optional<http::ListenAddress> requestListen; // request service only
    std::optional<http::ListenAddress> requestAliasListen;
    std::optional<http::ListenAddress> proofListen;
    std::optional<http::ListenAddress> authListen;
    bool allowRemote = false;
    // Host names (besides loopback ones) this server answers, and whose web pages may change
    // state (serve --allow-host). Anything else is refused (DNS rebinding, docs/security.md).
    QStringList allowedHosts;
    const core::Clock* clock = nullptr; // nullptr: the system clock
    http::ListenerLimits limits;
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
// (ServiceSet.h), which owns and wires the services themselves.
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

    http::RequestLog& requestLog() { return m_log; }
    core::Store& store();
    auth::ApiKeyRegistry& apiKeys();
    auth::SignInService& signIn();
    core::JobEngine& jobs();
    proof::ProofService& proofs();
    request::RequestService& requests();

private:
    http::HttpListener* addListener(const http::ListenAddress& address,
                                    std::vector<http::RouteGroup> groups, QString* error);
    void clearListeners(); // stops them and forgets every listener pointer

    ServerOptions m_options;
    http::RequestLog m_log;
    http::Router m_router;
    std::unique_ptr<core::Clock> m_ownClock;
    std::unique_ptr<ServiceSet> m_services;
    std::vector<std::unique_ptr<http::HttpListener>> m_listeners;
    http::HttpListener* m_main = nullptr;
    http::HttpListener* m_request = nullptr;
    http::HttpListener* m_requestAlias = nullptr;
    http::HttpListener* m_proof = nullptr;
    http::HttpListener* m_auth = nullptr;
    QStringList m_warnings;
};

} // namespace proofdesk::server
