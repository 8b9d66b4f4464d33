#include "TestServer.h"

#include "TestStore.h"
#include "auth/ApiKeyRegistry.h"

namespace proofdesk::test {

TestServer::TestServer(server::ServerOptions options) {
    if (options.dataDir.isEmpty()) {
        options.dataDir = m_dir.path();
    }
    if (options.store.isEmpty() && testStoreIsPostgres()) {
        options.store = testStoreLocation(options.dataDir);
    }
    options.listen = {QStringLiteral("127.0.0.1"), 0};
    options.clock = &m_clock;
    // Real proofs of the tests' tiny programs, at a security level that keeps them quick (8 bits
    // of proof of work instead of 24); tests that need more say so.
    if (options.provers.securityBits == proof::ProverSettings{}.securityBits) {
        options.provers.securityBits = 32;
    }
    m_server = std::make_unique<server::LocalServer>(options);
    m_started = m_server->start(&m_error);
}

QString TestServer::mintKey(const QString& projectName, auth::KeyRole role) {
    auth::ApiKeyRegistry& keys = m_server->apiKeys();
    const QString project = keys.adminProjectNamed(projectName);
    return QString::fromStdString(
        keys.mintKey(project, projectName + QStringLiteral(" key"), QStringLiteral("#000000"), role)
            .apiKey);
}

TestServer::~TestServer() {
    m_server->stop();
}

} // namespace proofdesk::test
