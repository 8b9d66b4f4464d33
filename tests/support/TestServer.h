#pragma once

#include "core/Clock.h"
#include "server/LocalServer.h"

#include <QTemporaryDir>

#include <memory>

namespace proofdesk::test {

// An in-process LocalServer on an ephemeral loopback port, in a temporary data dir (unless the
// options name one), with a manual clock the test can move.
class TestServer {
public:
    explicit TestServer(server::ServerOptions options = {});
    ~TestServer();

    bool ok() const { return m_started; }
    QString error() const { return m_error; }
    server::LocalServer& server() { return *m_server; }
    core::ManualClock& clock() { return m_clock; }
    QString url() const { return m_server->mainUrl(); }
    QString dataDir() const { return m_dir.path(); }
    // A new API key of the admin project `projectName` (created on first use).
    QString mintKey(const QString& projectName, auth::KeyRole role = auth::KeyRole::Project);

private:
    QTemporaryDir m_dir;
    core::ManualClock m_clock;
    std::unique_ptr<server::LocalServer> m_server;
    bool m_started = false;
    QString m_error;
};

} // namespace proofdesk::test
