#pragma once

#include "server/LocalServer.h"
#include "ui/LocalServerControl.h"

#include <functional>
#include <memory>

// The Local profile's embedded server behind the console's LocalServerControl: started on
// loopback (a busy port falls back to a free one, so side-by-side instances work), stopped and
// started again from the Local server page. `onStarted` runs after every start, so the app can
// point its clients at the (possibly new) URLs and attach the request log. Its admin key is the
// console's own: the "Console" project's, minted once and reused (the console runs this server;
// its Local server page reads the server's status with it).
// The console's prover choice applied to the server's prover settings (the rest kept).
proofdesk::proof::ProverSettings withProverChoice(proofdesk::proof::ProverSettings settings,
                                                  const proofdesk::ui::ProverChoice& choice);

class EmbeddedServer : public proofdesk::ui::LocalServerControl {
    Q_OBJECT
public:
    EmbeddedServer(proofdesk::server::ServerOptions options,
                   std::function<void(EmbeddedServer&)> onStarted, QObject* parent = nullptr);
    ~EmbeddedServer() override;

    bool isRunning() const override { return m_server != nullptr; }
    bool start(QString* error) override;
    void stop() override;
    proofdesk::ui::ServerEndpoints endpoints() const override;
    QString proverSummary() const override;
    void setChainRpcUrls(const std::map<QString, QString>& urls) override;
    bool setProvers(const proofdesk::ui::ProverChoice& provers, QString* error) override;
    QString adminKey() const override { return m_adminKey; }
    proofdesk::server::LocalServer* server() { return m_server.get(); }
    // Runs before each stop: the app closes its clients' idle keep-alive connections there, so
    // the server's workers need not wait out the keep-alive timeout.
    void setBeforeStop(std::function<void()> beforeStop) { m_beforeStop = std::move(beforeStop); }

private:
    proofdesk::server::ServerOptions m_options;
    std::function<void(EmbeddedServer&)> m_onStarted;
    std::function<void()> m_beforeStop;
    std::unique_ptr<proofdesk::server::LocalServer> m_server;
    proofdesk::ui::ServerEndpoints m_last;
    QString m_adminKey;
};
