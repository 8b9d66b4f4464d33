#pragma once

#include <QDialog>

#include <nlohmann/json.hpp>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace proofdesk::client {
class SecretStore;
class WalletSession;
} // namespace proofdesk::client

namespace proofdesk::ui {

// Wallet sign-in (docs/api.md), three ways: create a new wallet, import a private key, or use an
// external signer (the EIP-712 typed data shown to copy, the signature pasted back). Keys created
// or imported here go to the OS keychain only: without one, the dialog says so as it opens, turns
// those two ways off and offers the external signer (a session for this run) and pasting an API
// key. Errors stay in the dialog's banner; on success the dialog closes.
class SignInDialog : public QDialog {
    Q_OBJECT
public:
    SignInDialog(client::WalletSession* session, client::SecretStore* secrets,
                 QWidget* parent = nullptr);

signals:
    // "Paste an API key instead": the dialog has closed; the keys page takes over.
    void pasteKeyInstead();

private:
    QWidget* buildNewWalletTab();
    QWidget* buildImportTab();
    QWidget* buildExternalSignerTab();
    void createWallet();
    void signInWithNewWallet();
    void importKey();
    void requestChallenge();
    void showChallenge(const nlohmann::json& typedData);
    void submitSignature();
    void setBusy(bool busy);
    void withoutKeychain(const QString& reason);

    client::WalletSession* m_session;
    QTabWidget* m_tabs;
    QLabel* m_banner;
    QLabel* m_keychainNotice;
    QLabel* m_newAddress;
    QLineEdit* m_newKey;
    QPushButton* m_createWallet;
    QPushButton* m_signInNew;
    QString m_newKeyHex;
    QLineEdit* m_importKey;
    QPushButton* m_signInImport;
    QLineEdit* m_externalAddress;
    QPushButton* m_getChallenge;
    QPlainTextEdit* m_typedData;
    QLineEdit* m_signature;
    QPushButton* m_signInExternal;
};

} // namespace proofdesk::ui
