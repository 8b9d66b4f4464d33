#include "WalletSession.h"

#include "SecretStore.h"

#include <QTimer>

namespace proofdesk::client {
namespace {

const QString kSessionKey = QStringLiteral("session");

} // namespace

WalletSession::WalletSession(AuthClient* auth, SecretStore* secrets, QObject* parent)
    : QObject(parent), m_auth(auth), m_secrets(secrets), m_refreshTimer(new QTimer(this)) {
    m_refreshTimer->setSingleShot(true);
    connect(m_refreshTimer, &QTimer::timeout, this, &WalletSession::refreshNow);
}

void WalletSession::signIn(const Wallet& wallet) {
    m_secrets->write(
        QStringLiteral("wallet/") + wallet.address(), wallet.privateKeyHex(), this,
        [this, wallet](SecretAnswer saved) {
            if (saved.status == SecretStatus::Unavailable) {
                emit failed(saved.error);
                return;
            }
            m_auth->challenge(wallet.address(), this, [this, wallet](auto answer) {
                if (auto* error = std::get_if<ApiError>(&answer)) {
                    emit failed(tr("The challenge was refused: %1").arg(error->message()));
                    return;
                }
                const auto& challenge = std::get<api::ChallengeResponse>(answer);
                startSession(wallet.address(), QString::fromStdString(challenge.challengeToken),
                             wallet.signTypedData(challenge.eip712));
            });
        });
}

void WalletSession::requestChallenge(const QString& address) {
    m_auth->challenge(address.trimmed(), this, [this, address](auto answer) {
        if (auto* error = std::get_if<ApiError>(&answer)) {
            emit failed(tr("The challenge was refused: %1").arg(error->message()));
            return;
        }
        const auto& challenge = std::get<api::ChallengeResponse>(answer);
        m_pendingAddress = address.trimmed();
        m_pendingToken = QString::fromStdString(challenge.challengeToken);
        m_pendingTypedData = challenge.eip712;
        emit challengeReady(challenge.eip712);
    });
}

void WalletSession::completeWithSignature(const QString& signature) {
    if (m_pendingToken.isEmpty()) {
        emit failed(tr("Ask for a challenge first."));
        return;
    }
    QString error;
    const auto signer = recoverTypedDataSigner(m_pendingTypedData, signature, &error);
    if (!signer) {
        emit failed(error);
        return;
    }
    if (signer->compare(m_pendingAddress, Qt::CaseInsensitive) != 0) {
        emit failed(tr("The signature is from %1, not from %2: sign with the wallet the "
                       "challenge was asked for.")
                        .arg(*signer, m_pendingAddress));
        return;
    }
    startSession(m_pendingAddress, m_pendingToken, signature.trimmed());
    m_pendingToken.clear();
}

void WalletSession::startSession(const QString& address, const QString& challengeToken,
                                 const QString& signature) {
    m_auth->session(address, challengeToken, signature, this, [this, address](auto answer) {
        if (auto* error = std::get_if<ApiError>(&answer)) {
            emit failed(tr("Sign-in was refused: %1").arg(error->message()));
            return;
        }
        adopt(std::get<api::SessionTokens>(answer), address);
        emit signedIn();
    });
}

void WalletSession::adopt(const api::SessionTokens& tokens, const QString& address) {
    m_address = address;
    m_accessToken = QString::fromStdString(tokens.accessToken);
    m_refreshToken = QString::fromStdString(tokens.refreshToken);
    m_expiresAt = tokens.expiresAt;
    if (!tokens.selectedProject.empty()) {
        m_projectId = QString::fromStdString(tokens.selectedProject);
    }
    persist();
    scheduleRefresh();
}

void WalletSession::persist() {
    const nlohmann::json stored = {{"address", m_address.toStdString()},
                                   {"projectId", m_projectId.toStdString()},
                                   {"refreshToken", m_refreshToken.toStdString()}};
    m_secrets->write(kSessionKey, QString::fromStdString(stored.dump()), this,
                     [this](SecretAnswer saved) {
                         if (saved.status == SecretStatus::Unavailable) {
                             emit failed(tr("Signed in until Proofdesk quits: the session is "
                                            "not kept for the next start. %1")
                                             .arg(saved.error));
                         }
                     });
}

void WalletSession::scheduleRefresh() {
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const qint64 due = std::max<qint64>(1, m_expiresAt - m_refreshMarginSeconds - now);
    m_refreshTimer->start(static_cast<int>(std::min<qint64>(due, 24 * 3600) * 1000));
}

void WalletSession::restore() {
    m_secrets->read(kSessionKey, this, [this](SecretAnswer stored) {
        if (stored.status == SecretStatus::Unavailable) {
            emit failed(stored.error);
        }
        if (stored.status != SecretStatus::Ok) {
            emit restoreFinished(false);
            return;
        }
        const nlohmann::json session =
            nlohmann::json::parse(stored.value.toStdString(), nullptr, false);
        if (!session.is_object() || !session.contains("refreshToken")) {
            emit restoreFinished(false);
            return;
        }
        m_address = QString::fromStdString(session.value("address", ""));
        m_projectId = QString::fromStdString(session.value("projectId", ""));
        m_refreshToken = QString::fromStdString(session.value("refreshToken", ""));
        m_auth->refresh(m_refreshToken, this, [this](auto answer) {
            if (auto* error = std::get_if<ApiError>(&answer)) {
                forget();
                emit failed(tr("The saved session could not be resumed: %1; sign in again.")
                                .arg(error->message()));
                emit restoreFinished(false);
                return;
            }
            adopt(std::get<api::SessionTokens>(answer), m_address);
            emit signedIn();
            emit restoreFinished(true);
        });
    });
}

void WalletSession::refreshNow() {
    if (m_refreshToken.isEmpty()) {
        return;
    }
    m_auth->refresh(m_refreshToken, this, [this](auto answer) {
        if (auto* error = std::get_if<ApiError>(&answer)) {
            if (error->status == 0) {
                // Unreachable: try again shortly, the access token may still be good.
                m_refreshTimer->start(15000);
                emit failed(tr("The session could not be refreshed: %1").arg(error->message()));
                return;
            }
            forget();
            emit failed(tr("The session ended: %1; sign in again.").arg(error->message()));
            emit signedOut();
            return;
        }
        adopt(std::get<api::SessionTokens>(answer), m_address);
        emit refreshed();
    });
}

void WalletSession::forget() {
    m_refreshTimer->stop();
    m_accessToken.clear();
    m_refreshToken.clear();
    m_expiresAt = 0;
    m_secrets->remove(kSessionKey, this, [](SecretAnswer) {});
}

void WalletSession::signOut() {
    forget();
    m_address.clear();
    m_projectId.clear();
    emit signedOut();
}

void WalletSession::listKeys(QObject* context, std::function<void(Result<api::ApiKeyPage>)> done) {
    if (!isSignedIn()) {
        done(ApiError{401, QStringLiteral("NOT_SIGNED_IN"), tr("sign in with a wallet first")});
        return;
    }
    m_auth->listKeys(m_accessToken, m_projectId, context, std::move(done));
}

void WalletSession::mintKey(const QString& name, const QString& color, QObject* context,
                            std::function<void(Result<api::ApiKeyRecord>)> done) {
    if (!isSignedIn()) {
        done(ApiError{401, QStringLiteral("NOT_SIGNED_IN"), tr("sign in with a wallet first")});
        return;
    }
    m_auth->mintKey(m_accessToken,
                    {m_projectId.toStdString(), name.toStdString(), color.toStdString()}, context,
                    std::move(done));
}

} // namespace proofdesk::client
