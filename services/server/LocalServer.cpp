#include "LocalServer.h"

#include "core/DataDir.h"
#include "routes/AdminRoutes.h"
#include "routes/AuthRoutes.h"
#include "routes/GrowOrderRoutes.h"
#include "routes/HealthRoutes.h"
#include "routes/ProofRoutes.h"
#include "routes/RequestRoutes.h"

#include <QDir>

namespace proofdesk::server {

using http::HttpListener;
using http::ListenAddress;
using http::ListenerLimits;
using http::RouteGroup;

LocalServer::LocalServer(ServerOptions options) : m_options(std::move(options)) {}

LocalServer::~LocalServer() {
    stop();
}

HttpListener* LocalServer::addListener(const ListenAddress& address, std::vector<RouteGroup> groups,
                                       QString* error) {
    if (!http::isLoopbackHost(address.host)) {
        if (!m_options.allowRemote) {
            *error = QStringLiteral("refusing to listen on %1: not a loopback address (pass "
                                    "--allow-remote to serve other machines)")
                         .arg(address.host);
            return nullptr;
        }
        m_warnings << QStringLiteral("listening on %1, reachable from other machines: anyone "
                                     "who can reach it can call the APIs")
                          .arg(address.host);
    }
    ListenerLimits limits = m_options.limits;
    limits.uploadDir = QString(m_options.dataDir + QStringLiteral("/work/uploads")).toStdString();
    QDir().mkpath(QString::fromStdString(limits.uploadDir));
    limits.access.loopbackOnly = !m_options.allowRemote;
    for (const QString& host : m_options.allowedHosts) {
        limits.access.allowedHosts.push_back(host.toStdString());
    }
    auth::ApiKeyRegistry& keys = m_services->keys();
    limits.apiKeyProject = [&keys](const std::string& key) {
        return keys.authenticate(QString::fromStdString(key)).projectId.toStdString();
    };
    auto listener = std::make_unique<HttpListener>(m_router, std::move(groups), m_log, limits);
    if (!listener->bind(address.host, address.port, error)) {
        return nullptr;
    }
    m_listeners.push_back(std::move(listener));
    return m_listeners.back().get();
}

bool LocalServer::start(QString* error) {
    QString problem;
    if (!core::prepareDataDir(m_options.dataDir, &problem)) {
        *error = problem;
        return false;
    }
    const core::Clock* clock = m_options.clock;
    if (!clock) {
        m_ownClock = std::make_unique<core::SystemClock>();
        clock = m_ownClock.get();
    }
    ServiceSettings settings;
    settings.dataDir = m_options.dataDir;
    settings.jobWorkers = m_options.jobWorkers;
    settings.provers = m_options.provers;
    settings.requests = m_options.requests;
    settings.store = m_options.store;
    settings.runJobs = m_options.localWorkers;
    settings.jobLeases = m_options.jobLeases;
    try {
        m_services = std::make_unique<ServiceSet>(settings, *clock);
    } catch (const std::exception& failure) {
        *error = QStringLiteral("cannot open the store %1: %2")
                     .arg(m_options.store.isEmpty() ? QStringLiteral("in ") + m_options.dataDir
                                                    : m_options.store.section(QLatin1Char('@'), -1),
                          QString::fromUtf8(failure.what()));
        return false;
    }

    routes::addHealthRoutes(m_router);
    routes::addAuthRoutes(m_router, m_services->signIn());
    routes::addProofRoutes(m_router, m_services->proofs(), m_services->keys());
    routes::addRequestRoutes(m_router, m_services->requests(), m_services->keys());
    routes::addGrowOrderRoutes(m_router, m_services->requests(), m_services->keys());
    routes::addAdminRoutes(m_router, m_services->keys(),
                           [services = m_services.get()] { return services->status(); });

    const std::vector<RouteGroup> all{RouteGroup::Request, RouteGroup::Proof, RouteGroup::Auth};
    m_main = addListener(m_options.listen, all, error);
    if (!m_main) {
        return false;
    }
    const std::pair<const std::optional<ListenAddress>*, std::pair<HttpListener**, RouteGroup>>
        extra[] = {{&m_options.requestListen, {&m_request, RouteGroup::Request}},
                   {&m_options.requestAliasListen, {&m_requestAlias, RouteGroup::Request}},
                   {&m_options.proofListen, {&m_proof, RouteGroup::Proof}},
                   {&m_options.authListen, {&m_auth, RouteGroup::Auth}}};
    for (const auto& [address, target] : extra) {
        if (*address) {
            *target.first = addListener(**address, {target.second}, error);
            if (!*target.first) {
                clearListeners();
                return false;
            }
        }
    }
    // The challenge names the sign-in service's own URL (it is part of what the wallet signs):
    // set before any listener serves, so no request can see it change.
    m_services->start(authUrl(), proofUrl());
    for (auto& listener : m_listeners) {
        listener->start();
    }
    return true;
}

void LocalServer::clearListeners() {
    for (auto& listener : m_listeners) {
        listener->stop();
    }
    m_listeners.clear();
    m_main = m_request = m_requestAlias = m_proof = m_auth = nullptr;
}

void LocalServer::stop() {
    clearListeners();
    if (m_services) {
        m_services->stop();
    }
}

QString LocalServer::mainUrl() const {
    return m_main ? m_main->baseUrl() : QString();
}
QString LocalServer::requestUrl() const {
    return m_request ? m_request->baseUrl() : mainUrl();
}
QString LocalServer::requestAliasUrl() const {
    return m_requestAlias ? m_requestAlias->baseUrl() : requestUrl();
}
QString LocalServer::proofUrl() const {
    return m_proof ? m_proof->baseUrl() : mainUrl();
}
QString LocalServer::authUrl() const {
    return m_auth ? m_auth->baseUrl() : mainUrl();
}

core::Store& LocalServer::store() {
    return m_services->store();
}
auth::ApiKeyRegistry& LocalServer::apiKeys() {
    return m_services->keys();
}
auth::SignInService& LocalServer::signIn() {
    return m_services->signIn();
}
core::JobEngine& LocalServer::jobs() {
    return m_services->jobs();
}
proof::ProofService& LocalServer::proofs() {
    return m_services->proofs();
}
request::RequestService& LocalServer::requests() {
    return m_services->requests();
}

} // namespace proofdesk::server
