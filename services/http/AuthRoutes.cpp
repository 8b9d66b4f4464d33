#include "AuthRoutes.h"

#include "JsonBody.h"
#include "core/ServiceError.h"

#include <QDateTime>

namespace proofdesk::http {
namespace {

using auth::Channel;

// The session of a request: a bearer token in Authorization, else the cookie-channel cookie.
auth::SessionIdentity requireSession(const HttpRequest& request, auth::SignInService& signIn) {
    if (auto bearer = request.bearerToken()) {
        return signIn.authenticate(QString::fromStdString(*bearer), Channel::Bearer);
    }
    if (auto cookie = request.cookie(kAccessCookie)) {
        return signIn.authenticate(QString::fromStdString(*cookie), Channel::Cookie);
    }
    throw ServiceError(ErrorKind::Unauthenticated, "MissingToken");
}

std::string cookieHeader(const char* name, const std::string& value, const char* path,
                         qint64 maxAgeSeconds) {
    // HttpOnly and SameSite=Strict; no Secure flag because the local server speaks plain HTTP
    // on loopback (documented in docs/api.md).
    return std::string(name) + "=" + value + "; Path=" + path +
           "; Max-Age=" + std::to_string(std::max<qint64>(0, maxAgeSeconds)) +
           "; HttpOnly; SameSite=Strict";
}

HttpResponse sessionResponse(const auth::IssuedSession& issued) {
    if (issued.channel == Channel::Bearer) {
        return HttpResponse::json(200, issued.tokens);
    }
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    HttpResponse response =
        HttpResponse::json(200, {{"expiresAt", issued.tokens.expiresAt},
                                 {"selectedProject", issued.tokens.selectedProject}});
    response.headers.emplace("Set-Cookie", cookieHeader(kAccessCookie, issued.tokens.accessToken,
                                                        "/", issued.tokens.expiresAt - now));
    response.headers.emplace("Set-Cookie", cookieHeader(kRefreshCookie, issued.tokens.refreshToken,
                                                        "/auth", issued.refreshExpiresAt - now));
    return response;
}

} // namespace

void addAuthRoutes(Router& router, auth::SignInService& signIn) {
    const auto group = RouteGroup::Auth;
    const auto shape = ErrorBody::ErrorField;

    router.add({"GET", "/auth/web3/challenge", group, shape, kJsonBodyLimit,
                [&signIn](const HttpRequest& request) {
                    const auto wallet = request.queryParam("wallet");
                    if (!wallet || wallet->empty()) {
                        throw ServiceError(ErrorKind::BadRequest, "MissingField", "wallet");
                    }
                    return HttpResponse::json(
                        200, signIn.issueChallenge(QString::fromStdString(*wallet),
                                                   QString::fromStdString(request.remoteAddress)));
                },
                Execution::Worker}); // stores the challenge

    router.add({"POST", "/auth/web3/session", group, shape, kJsonBodyLimit,
                [&signIn](const HttpRequest& request) {
                    const nlohmann::json body = parseJsonObject(request);
                    api::SessionRequest session;
                    session.wallet = requireString(body, "wallet");
                    session.challengeToken = requireString(body, "challengeToken");
                    session.signature = requireString(body, "signature");
                    if (body.contains("channel") && !body["channel"].is_null()) {
                        session.channel = requireString(body, "channel");
                    }
                    return sessionResponse(signIn.createSession(session));
                }});

    router.add({"POST", "/auth/refresh-token", group, shape, kJsonBodyLimit,
                [&signIn](const HttpRequest& request) {
                    if (auto bearer = request.bearerToken()) {
                        return sessionResponse(
                            signIn.refresh(QString::fromStdString(*bearer), Channel::Bearer));
                    }
                    if (auto cookie = request.cookie(kRefreshCookie)) {
                        return sessionResponse(
                            signIn.refresh(QString::fromStdString(*cookie), Channel::Cookie));
                    }
                    throw ServiceError(ErrorKind::Unauthenticated, "MissingToken");
                }});

    router.add({"GET", "/api-keys", group, shape, kJsonBodyLimit,
                [&signIn](const HttpRequest& request) {
                    const auth::SessionIdentity who = requireSession(request, signIn);
                    const int limit = intQueryParam(request, "limit", 50, "InvalidPagination");
                    const int offset = intQueryParam(request, "offset", 0, "InvalidPagination");
                    const QString projectId =
                        QString::fromStdString(request.queryParam("projectId").value_or(""));
                    return HttpResponse::json(200,
                                              signIn.listApiKeys(who, projectId, limit, offset));
                },
                Execution::Worker});

    router.add(
        {"POST", "/api-keys", group, shape, kJsonBodyLimit, [&signIn](const HttpRequest& request) {
             const auth::SessionIdentity who = requireSession(request, signIn);
             const nlohmann::json body = parseJsonObject(request);
             api::CreateApiKeyRequest create;
             if (body.contains("projectId") && !body["projectId"].is_null()) {
                 create.projectId = requireString(body, "projectId");
             }
             if (!body.contains("type") || !body["type"].is_object()) {
                 throw ServiceError(ErrorKind::BadRequest, "MissingField", "type");
             }
             create.name = requireString(body["type"], "name");
             if (body["type"].contains("color") && !body["type"]["color"].is_null()) {
                 create.color = requireString(body["type"], "color");
             }
             return HttpResponse::json(201, signIn.createApiKey(who, create));
         }});
}

} // namespace proofdesk::http
