#include "EmbeddedServer.h"

using namespace proofdesk;

proof::ProverSettings withProverChoice(proof::ProverSettings settings,
                                       const ui::ProverChoice& choice) {
    settings.engine = choice.engine;
    settings.verifier = choice.verifier;
    settings.stoneProver = choice.stoneProver;
    settings.stoneVerifier = choice.stoneVerifier;
    settings.bootloaderProgram = choice.bootloaderProgram;
    return settings;
}

namespace {

QString consoleAdminKey(server::LocalServer& server) {
    auth::ApiKeyRegistry& keys = server.apiKeys();
    const QString project = keys.adminProjectNamed(QStringLiteral("Console"));
    const api::ApiKeyPage existing = keys.listKeys(project, 1, 0);
    if (existing.data.empty()) {
        return QString::fromStdString(keys.mintKey(project, QStringLiteral("Console"),
                                                   QStringLiteral("#2563eb"), auth::KeyRole::Admin)
                                          .apiKey);
    }
    keys.grantAdmin(QString::fromStdString(existing.data.front().id)); // minted before admin keys
    return QString::fromStdString(existing.data.front().apiKey);
}

} // namespace

EmbeddedServer::EmbeddedServer(server::ServerOptions options,
                               std::function<void(EmbeddedServer&)> onStarted, QObject* parent)
    : ui::LocalServerControl(parent), m_options(std::move(options)),
      m_onStarted(std::move(onStarted)) {
    m_last.dataDir = m_options.dataDir;
}

EmbeddedServer::~EmbeddedServer() {
    stop();
}

bool EmbeddedServer::start(QString* error) {
    if (m_server) {
        return true;
    }
    auto server = std::make_unique<server::LocalServer>(m_options);
    if (!server->start(error)) {
        // The default port is busy (another instance): any free loopback port will do.
        server::ServerOptions fallback = m_options;
        fallback.listen.port = 0;
        server = std::make_unique<server::LocalServer>(fallback);
        if (!server->start(error)) {
            return false;
        }
    }
    m_server = std::move(server);
    m_last = {m_server->requestUrl(), m_server->proofUrl(), m_server->authUrl(), m_options.dataDir};
    m_adminKey = consoleAdminKey(*m_server);
    if (m_onStarted) {
        m_onStarted(*this);
    }
    emit runningChanged(true);
    return true;
}

void EmbeddedServer::stop() {
    if (!m_server) {
        return;
    }
    if (m_beforeStop) {
        m_beforeStop();
    }
    m_server->requestLog().setSink({});
    m_server->stop();
    m_server.reset();
    m_adminKey.clear();
    emit runningChanged(false);
}

ui::ServerEndpoints EmbeddedServer::endpoints() const {
    return m_last;
}

QString EmbeddedServer::proverSummary() const {
    return m_options.provers.description();
}

void EmbeddedServer::setChainRpcUrls(const std::map<QString, QString>& urls) {
    m_options.requests.chains.replaceAll(urls);
    if (m_server) {
        m_server->requests().setChainRpcUrls(urls);
    }
}

bool EmbeddedServer::setProvers(const ui::ProverChoice& provers, QString* error) {
    m_options.provers = withProverChoice(m_options.provers, provers);
    if (!m_server) {
        return true;
    }
    stop();
    return start(error);
}
