#pragma once

#include "ApiKeyRegistry.h"
#include "RateLimiter.h"
#include "api/AuthWire.h"
#include "core/Clock.h"
#include "core/Store.h"

#include <QString>

namespace proofdesk::auth {

enum class Channel { Bearer, Cookie };

struct SignInSettings {
    QString serverUri = QStringLiteral("http://127.0.0.1:7300");
    qint64 challengeLifetimeSeconds = 5 * 60;
    qint64 accessLifetimeSeconds = 15 * 60;
    qint64 refreshLifetimeSeconds = 30 * 24 * 3600;
    // A wallet keeps its newest challenges only: the next one retires the oldest unused one, so
    // nobody can lock a wallet out by asking for challenges in its name.
    int maxOutstandingChallengesPerWallet = 20;
    // Challenges per client address: a burst, then a rate; beyond it 429 TooManyChallenges.
    // Loopback (this machine's own programs, all of them one address) gets more. And per address
    // and wallet, so that no address can spend a wallet's share for another address.
    int challengeBurstPerAddress = 30;
    int challengesPerMinutePerAddress = 30;
    int challengeBurstPerLoopback = 120;
    int challengesPerMinutePerLoopback = 120;
    int challengeBurstPerWallet = 30;
    int challengesPerMinutePerWallet = 30;
    // All stored challenges together (counted as they are written, not by a scan); beyond it
    // 429 TooManyChallenges.
    int maxLiveChallenges = 100000;
};

// A session as established by an access token.
struct SessionIdentity {
    QString userId;
    QString wallet;
    QString sessionId;
    QString selectedProject;
};

// The issued session with its channel and the refresh token's lifetime (for cookie Max-Age).
struct IssuedSession {
    api::SessionTokens tokens;
    Channel channel = Channel::Bearer;
    qint64 refreshExpiresAt = 0; // Unix seconds
};

// Sign in with Ethereum (EIP-712 challenge), sessions with refresh rotation and channel binding,
// and the session-gated API key routes. Every refusal is a ServiceError whose code is the body.
class SignInService {
public:
    SignInService(core::Store& store, const core::Clock& clock, ApiKeyRegistry& keys,
                  SignInSettings settings);

    // `clientAddress` is the asking client's IP address (rate limits).
    api::ChallengeResponse issueChallenge(const QString& wallet, const QString& clientAddress = {});
    IssuedSession createSession(const api::SessionRequest& request);
    IssuedSession refresh(const QString& refreshToken, Channel presentedVia);
    SessionIdentity authenticate(const QString& accessToken, Channel presentedVia);

    // projectId empty = the session's selected project. limit 1..500, offset >= 0.
    api::ApiKeyPage listApiKeys(const SessionIdentity& who, const QString& projectId, int limit,
                                int offset);
    api::ApiKeyRecord createApiKey(const SessionIdentity& who, const api::CreateApiKeyRequest& req);

    const SignInSettings& settings() const { return m_settings; }
    // The URI that challenges carry; set once at start-up, before requests are served.
    void setServerUri(const QString& uri) { m_settings.serverUri = uri; }

private:
    nlohmann::json typedDataFor(const QString& wallet, const QString& nonce,
                                const QString& issuedAt, const QString& expiresAt,
                                const QString& statement) const;
    IssuedSession issueTokensIn(const QString& sessionId, Channel channel,
                                const QString& selectedProject);
    void requireProjectAccess(const SessionIdentity& who, const QString& projectId);

    core::Store& m_store;
    const core::Clock& m_clock;
    ApiKeyRegistry& m_keys;
    SignInSettings m_settings;
    RateLimiter m_challengeLimiter;
    RateLimiter m_loopbackLimiter;
    RateLimiter m_walletLimiter;
    qint64 m_storedChallenges = -1; // rows of `challenges`, under the store's write lock
};

QString channelName(Channel channel);

} // namespace proofdesk::auth
