#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace proofdesk::client {
class ProofClient;
class SecretStore;
class WalletSession;
} // namespace proofdesk::client
namespace proofdesk::models {
class ApiKeyModel;
}

namespace proofdesk::ui {

// Wallet and API keys: who is signed in (address, project, session expiry), sign in and out, the
// project's keys with copy buttons, minting a key (name and colour), and choosing the key the
// console sends to the proof service. The chosen key is kept in the SecretStore and restored at
// start; after a sign-in, a key outside the project gives way to the project's first key, and the
// page says so. A key one already has can be pasted (checked at the service first).
class KeysPage : public QWidget {
    Q_OBJECT
public:
    KeysPage(client::WalletSession* session, client::ProofClient* proofs,
             client::SecretStore* secrets, QWidget* parent = nullptr);

    void reloadKeys();
    // The identity switcher's ways in (the status bar's menu) and the page's own buttons.
    void openSignIn();
    void pasteKey();
    // Makes `apiKey` the console's key, kept in the keychain for the next start.
    void useKey(const QString& apiKey);

signals:
    // Something the user should know happened to the identity (e.g. a sign-in switched keys).
    void notice(const QString& message);

protected:
    void showEvent(QShowEvent* event) override; // the list is fresh whenever the page is shown

private:
    void showSession();
    void mint();
    void pickColor();
    void useSelectedKey();
    QString selectedKey() const;

    client::WalletSession* m_session;
    client::ProofClient* m_proofs;
    client::SecretStore* m_secrets;
    models::ApiKeyModel* m_model;
    QLabel* m_banner;
    QLabel* m_account;
    QPushButton* m_signIn;
    QPushButton* m_signOut;
    QTableView* m_table;
    QPushButton* m_useKey;
    QLineEdit* m_keyName;
    QLineEdit* m_keyColor;
    QPushButton* m_mint;
    bool m_adoptFirstKey = false;
};

} // namespace proofdesk::ui
