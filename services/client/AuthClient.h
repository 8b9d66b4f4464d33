#pragma once

#include "ServiceClient.h"
#include "api/AuthWire.h"

namespace proofdesk::client {

// The sign-in service over HTTP (docs/api.md; its bearer channel).
class AuthClient : public ServiceClient {
    Q_OBJECT
public:
    using ServiceClient::ServiceClient;

    void challenge(const QString& wallet, QObject* context,
                   std::function<void(Result<api::ChallengeResponse>)> done);
    // POST /auth/web3/session with channel "bearer".
    void session(const QString& wallet, const QString& challengeToken, const QString& signature,
                 QObject* context, std::function<void(Result<api::SessionTokens>)> done);
    // POST /auth/refresh-token; the refresh token used becomes invalid.
    void refresh(const QString& refreshToken, QObject* context,
                 std::function<void(Result<api::SessionTokens>)> done);
    void listKeys(const QString& accessToken, const QString& projectId, QObject* context,
                  std::function<void(Result<api::ApiKeyPage>)> done);
    void mintKey(const QString& accessToken, const api::CreateApiKeyRequest& request,
                 QObject* context, std::function<void(Result<api::ApiKeyRecord>)> done);
};

} // namespace proofdesk::client
