#pragma once

#include "AuthClient.h"
#include "Wallet.h"

#include <QDateTime>
#include <QObject>
#include <QString>

class QTimer;

namespace proofdesk::client {

class SecretStore;

// The console's wallet sign-in (docs/api.md): challenge, signature, bearer session, refresh before
// expiry, and the API keys of the session's project. The session survives restarts: its refresh
// token (with the address and project) lives in the SecretStore, and restore() resumes it by
// refreshing. Wallet keys created or imported here are saved in the SecretStore as well, under
// "wallet/<address>". Sign-out forgets the tokens and deletes the stored session.
class WalletSession : public QObject {
    Q_OBJECT
public:
    WalletSession(AuthClient* auth, SecretStore* secrets, QObject* parent = nullptr);

    bool isSignedIn() const { return !m_accessToken.isEmpty(); }
    const QString& address() const { return m_address; }
    const QString& projectId() const { return m_projectId; }
    QDateTime expiresAt() const { return QDateTime::fromSecsSinceEpoch(m_expiresAt); }
    // Seconds before expiry at which the session refreshes itself (default 60).
    void setRefreshMargin(int seconds) { m_refreshMarginSeconds = seconds; }

    // Signs in with a wallet held here; its key is saved in the SecretStore first (a keychain
    // that refuses it fails the sign-in with the keychain's reason).
    void signIn(const Wallet& wallet);
    // The external-signer path: fetch the challenge (challengeReady carries the EIP-712 typed
    // data to sign elsewhere), then hand back the signature; the signer's address is recovered
    // from it and must be the one the challenge was asked for.
    void requestChallenge(const QString& address);
    void completeWithSignature(const QString& signature);
    // Resumes a stored session, if any (signedIn or restoreFinished(false)).
    void restore();
    void refreshNow();
    void signOut();

    void listKeys(QObject* context, std::function<void(Result<api::ApiKeyPage>)> done);
    void mintKey(const QString& name, const QString& color, QObject* context,
                 std::function<void(Result<api::ApiKeyRecord>)> done);

signals:
    void challengeReady(const nlohmann::json& typedData);
    void signedIn();
    void refreshed();
    void signedOut();
    void restoreFinished(bool resumed);
    // Any step that went wrong, in words for the banner.
    void failed(const QString& message);

private:
    void startSession(const QString& address, const QString& challengeToken,
                      const QString& signature);
    void adopt(const api::SessionTokens& tokens, const QString& address);
    void persist();
    void scheduleRefresh();
    void forget();

    AuthClient* m_auth;
    SecretStore* m_secrets;
    QTimer* m_refreshTimer;
    QString m_address;
    QString m_projectId;
    QString m_accessToken;
    QString m_refreshToken;
    qint64 m_expiresAt = 0;
    int m_refreshMarginSeconds = 60;
    // The pending external-signer challenge.
    QString m_pendingAddress;
    QString m_pendingToken;
    nlohmann::json m_pendingTypedData;
};

} // namespace proofdesk::client
