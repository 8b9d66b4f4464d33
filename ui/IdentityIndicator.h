#pragma once

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QMenu;
class QToolButton;

namespace proofdesk::client {
class ProofClient;
class WalletSession;
} // namespace proofdesk::client

namespace proofdesk::ui {

// Who the console acts as, always in view (the status bar): the profile, the project of the API
// key in use (asked of the proof service whenever the key changes), the key's last characters and
// the signed-in wallet. Its menu switches between the keys used in this run and leads to pasting
// a key, signing in, and the keys page.
class IdentityIndicator : public QWidget {
    Q_OBJECT
public:
    IdentityIndicator(const QString& profile, client::ProofClient* proofs,
                      client::WalletSession* session, QWidget* parent = nullptr);

    // What the label says, e.g. "Local · project …9C3F2A · key …a1b2".
    QString summary() const;
    // The project of the key in use, once the proof service has said it.
    const QString& projectId() const { return m_projectId; }

signals:
    void useKeyRequested(const QString& apiKey);
    void pasteKeyRequested();
    void signInRequested();
    void manageKeysRequested();

private:
    void keyChanged();
    void showIdentity();
    void rebuildMenu();

    QString m_profile;
    client::ProofClient* m_proofs;
    client::WalletSession* m_session;
    QLabel* m_label;
    QToolButton* m_switch;
    QMenu* m_menu;
    QString m_projectId;
    bool m_asking = false;
    struct UsedKey {
        QString apiKey;
        QString projectId;
    };
    std::vector<UsedKey> m_used; // most recent first
};

} // namespace proofdesk::ui
