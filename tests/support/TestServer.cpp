#include "TestServer.h"

namespace proofdesk::test {

TestServer::TestServer(http::ServerOptions options) {
    if (options.dataDir.isEmpty()) {
        options.dataDir = m_dir.path();
    }
    options.listen = {QStringLiteral("127.0.0.1"), 0};
    options.clock = &m_clock;
    m_server = std::make_unique<http::LocalServer>(options);
    m_started = m_server->start(&m_error);
}

TestServer::~TestServer() {
    m_server->stop();
}

} // namespace proofdesk::test
