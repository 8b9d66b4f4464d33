#include "AuthRoutes.h"

#include "HttpNames.h"
#include "core/ServiceError.h"

#include <QDateTime>

namespace proofdesk::routes {
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
    throw core::ServiceError(core::ErrorKind::Unauthenticated, "MissingToken");
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

// What a sign-in route's handler works with.
struct AuthRouteServices {
    auth::SignInService& signIn;
};
using Services = AuthRouteServices;

HttpResponse getChallenge(const Services& services, const HttpRequest& request) {
    const auto wallet = request.queryParam("wallet");
    if (!wallet || wallet->empty()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, "MissingField", "wallet");
    }
    return HttpResponse::json(
        200, services.signIn.issueChallenge(QString::fromStdString(*wallet),
                                            QString::fromStdString(request.remoteAddress)));
}

HttpResponse postSession(const Services& services, const HttpRequest& request) {
    const nlohmann::json body = parseJsonObject(request);
    api::SessionRequest session;
    session.wallet = requireString(body, "wallet");
    session.challengeToken = requireString(body, "challengeToken");
    session.signature = requireString(body, "signature");
    if (body.contains("channel") && !body["channel"].is_null()) {
        session.channel = requireString(body, "channel");
    }
    return sessionResponse(services.signIn.createSession(session));
}

HttpResponse refreshToken(const Services& services, const HttpRequest& request) {
    if (auto bearer = request.bearerToken()) {
        return sessionResponse(
            services.signIn.refresh(QString::fromStdString(*bearer), Channel::Bearer));
    }
    if (auto cookie = request.cookie(kRefreshCookie)) {
        return sessionResponse(
            services.signIn.refresh(QString::fromStdString(*cookie), Channel::Cookie));
    }
    throw core::ServiceError(core::ErrorKind::Unauthenticated, "MissingToken");
}

HttpResponse getApiKeys(const Services& services, const HttpRequest& request) {
    const auth::SessionIdentity who = requireSession(request, services.signIn);
    const int limit = intQueryParam(request, "limit", 50, "InvalidPagination");
    const int offset = intQueryParam(request, "offset", 0, "InvalidPagination");
    const QString projectId = QString::fromStdString(request.queryParam("projectId").value_or(""));
    return HttpResponse::json(200, services.signIn.listApiKeys(who, projectId, limit, offset));
}

HttpResponse postApiKey(const Services& services, const HttpRequest& request) {
    const auth::SessionIdentity who = requireSession(request, services.signIn);
    const nlohmann::json body = parseJsonObject(request);
    api::CreateApiKeyRequest create;
    if (body.contains("projectId") && !body["projectId"].is_null()) {
        create.projectId = requireString(body, "projectId");
    }
    if (!body.contains("type") || !body["type"].is_object()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, "MissingField", "type");
    }
    create.name = requireString(body["type"], "name");
    if (body["type"].contains("color") && !body["type"]["color"].is_null()) {
        create.color = requireString(body["type"], "color");
    }
    return HttpResponse::json(201, services.signIn.createApiKey(who, create));
}

} // namespace

void addAuthRoutes(Router& router, auth::SignInService& signIn) {
    const auto shape = ErrorBody::ErrorField;
    addNamedRoutes<Services>(
        router, RouteGroup::Auth, Services{signIn},
        {// GET, but it stores the challenge: on a worker.
         {"GET", "/auth/web3/challenge", shape, kJsonBodyLimit, getChallenge, Execution::Worker},
         {"POST", "/auth/web3/session", shape, kJsonBodyLimit, postSession},
         {"POST", "/auth/refresh-token", shape, kJsonBodyLimit, refreshToken},
         {"GET", "/api-keys", shape, kJsonBodyLimit, getApiKeys, Execution::Worker},
         {"POST", "/api-keys", shape, kJsonBodyLimit, postApiKey}});
}

} // namespace proofdesk::routes
