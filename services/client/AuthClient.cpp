#include "AuthClient.h"

namespace proofdesk::client {
namespace {

Headers bearer(const QString& token) {
    return {{QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + token.toUtf8()}};
}

std::function<void(const nlohmann::json&)>
parseTokens(std::function<void(Result<api::SessionTokens>)> done) {
    return [done = std::move(done)](const nlohmann::json& body) {
        done(body.get<api::SessionTokens>());
    };
}

} // namespace

void AuthClient::challenge(const QString& wallet, QObject* context,
                           std::function<void(Result<api::ChallengeResponse>)> done) {
    handle(
        get(QStringLiteral("/auth/web3/challenge"), {{QStringLiteral("wallet"), wallet}}, {}),
        context, [done](const nlohmann::json& body) { done(body.get<api::ChallengeResponse>()); },
        failWith(done));
}

void AuthClient::session(const QString& wallet, const QString& challengeToken,
                         const QString& signature, QObject* context,
                         std::function<void(Result<api::SessionTokens>)> done) {
    const api::SessionRequest request{wallet.toStdString(), challengeToken.toStdString(),
                                      signature.toStdString(), std::string("bearer")};
    handle(postJson(QStringLiteral("/auth/web3/session"), request, {}), context, parseTokens(done),
           failWith(done));
}

void AuthClient::refresh(const QString& refreshToken, QObject* context,
                         std::function<void(Result<api::SessionTokens>)> done) {
    handle(postJson(QStringLiteral("/auth/refresh-token"), nlohmann::json::object(),
                    bearer(refreshToken)),
           context, parseTokens(done), failWith(done));
}

void AuthClient::listKeys(const QString& accessToken, const QString& projectId, QObject* context,
                          std::function<void(Result<api::ApiKeyPage>)> done) {
    handle(
        get(QStringLiteral("/api-keys"),
            {{QStringLiteral("projectId"), projectId},
             {QStringLiteral("limit"), QStringLiteral("100")},
             {QStringLiteral("offset"), QStringLiteral("0")}},
            bearer(accessToken)),
        context, [done](const nlohmann::json& body) { done(body.get<api::ApiKeyPage>()); },
        failWith(done));
}

void AuthClient::mintKey(const QString& accessToken, const api::CreateApiKeyRequest& request,
                         QObject* context, std::function<void(Result<api::ApiKeyRecord>)> done) {
    handle(
        postJson(QStringLiteral("/api-keys"), request, bearer(accessToken)), context,
        [done](const nlohmann::json& body) { done(body.get<api::ApiKeyRecord>()); },
        failWith(done));
}

} // namespace proofdesk::client
