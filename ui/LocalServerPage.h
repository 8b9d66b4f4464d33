#pragma once

#include "LocalServerControl.h"

#include <QWidget>

class QLabel;
class QTimer;
class QPushButton;

namespace proofdesk::client {
class ProofClient;
}
namespace proofdesk::models {
class RequestLogModel;
}

namespace proofdesk::ui {

// The local server: its state with start/stop, where each service listens, the data dir, the
// prover setting, and the live request log (method, path, status, ms). On the Remote profile
// (no control) it says which deployment the console talks to instead. Both show the credits of
// the project the console's API key belongs to, read when the page is shown, and the server's
// jobs (its store, the workers alive, the queue) when the server reports them to the key.
class LocalServerPage : public QWidget {
    Q_OBJECT
public:
    LocalServerPage(LocalServerControl* server, const ServerEndpoints& remote,
                    models::RequestLogModel* requestLog, client::ProofClient* proofs,
                    QWidget* parent = nullptr);

    void refreshCredits();
    // Asks the server for its job workers and queue (GET /admin/status, with the Local server's
    // admin key or else the console's key); the page does this when shown and every few seconds
    // while it is visible.
    void refreshJobs();
    // The Remote profile's deployment moved (Settings): shows its new URLs.
    void setRemoteEndpoints(const ServerEndpoints& remote);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void showState();
    void toggle();

    LocalServerControl* m_server;
    client::ProofClient* m_proofs;
    QLabel* m_credits;
    QLabel* m_banner;
    QLabel* m_state;
    QPushButton* m_toggle;
    QLabel* m_requestUrl;
    QLabel* m_proofUrl;
    QLabel* m_authUrl;
    QLabel* m_dataDir;
    QLabel* m_prover;
    QLabel* m_jobs;
    QTimer* m_jobsTimer;
};

} // namespace proofdesk::ui
