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
// start; after a sign-in, a key outside the project gives way to the project's first key.
class KeysPage : public QWidget {
    Q_OBJECT
public:
    KeysPage(client::WalletSession* session, client::ProofClient* proofs,
             client::SecretStore* secrets, QWidget* parent = nullptr);

    void reloadKeys();

protected:
    void showEvent(QShowEvent* event) override; // the list is fresh whenever the page is shown

private:
    void showSession();
    void openSignIn();
    void mint();
    void pickColor();
    void useSelectedKey();
    void useKey(const QString& apiKey);
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
