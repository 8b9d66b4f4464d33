#include "SignInService.h"

#include "api/Identifiers.h"

#include "core/SecureRandom.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"
#include "crypto/Eip712.h"
#include "crypto/Hex.h"
#include "crypto/Secp256k1.h"

namespace proofdesk::auth {
namespace {

const QString kStatement = QStringLiteral(
    "Sign in to Proofdesk. This request proves you own this wallet; it costs nothing and "
    "authorises no transaction.");

[[noreturn]] void refuse(core::ErrorKind kind, const char* code, std::string detail = {}) {
    throw core::ServiceError(kind, code, std::move(detail));
}

QByteArray requireWallet(const QString& wallet) {
    const auto address = crypto::parseAddress(wallet);
    if (!address) {
        refuse(core::ErrorKind::BadRequest, "InvalidWallet",
               "wallet must be 0x followed by 40 hex digits");
    }
    return *address;
}

Channel parseChannel(const std::optional<std::string>& channel) {
    if (!channel || *channel == "cookie") {
        return Channel::Cookie;
    }
    if (*channel == "bearer") {
        return Channel::Bearer;
    }
    refuse(core::ErrorKind::BadRequest, "InvalidChannel", "channel must be bearer or cookie");
}

} // namespace

QString channelName(Channel channel) {
    return channel == Channel::Bearer ? QStringLiteral("bearer") : QStringLiteral("cookie");
}

SignInService::SignInService(core::Store& store, const core::Clock& clock, ApiKeyRegistry& keys,
                             SignInSettings settings)
    : m_store(store), m_clock(clock), m_keys(keys), m_settings(std::move(settings)),
      m_challengeLimiter(m_settings.challengeBurstPerAddress,
                         m_settings.challengesPerMinutePerAddress),
      m_loopbackLimiter(m_settings.challengeBurstPerLoopback,
                        m_settings.challengesPerMinutePerLoopback),
      m_walletLimiter(m_settings.challengeBurstPerWallet, m_settings.challengesPerMinutePerWallet) {
}

nlohmann::json SignInService::typedDataFor(const QString& wallet, const QString& nonce,
                                           const QString& issuedAt, const QString& expiresAt,
                                           const QString& statement) const {
    nlohmann::json types = {{"EIP712Domain",
                             {{{"name", "name"}, {"type", "string"}},
                              {{"name", "version"}, {"type", "string"}},
                              {{"name", "chainId"}, {"type", "uint256"}}}},
                            {"SignIn",
                             {{{"name", "wallet"}, {"type", "address"}},
                              {{"name", "nonce"}, {"type", "string"}},
                              {{"name", "issuedAt"}, {"type", "string"}},
                              {{"name", "expiresAt"}, {"type", "string"}},
                              {{"name", "statement"}, {"type", "string"}},
                              {{"name", "uri"}, {"type", "string"}}}}};
    return {{"domain", {{"name", "Proofdesk"}, {"version", "1"}, {"chainId", 1}}},
            {"types", types},
            {"primaryType", "SignIn"},
            {"message",
             {{"wallet", wallet.toStdString()},
              {"nonce", nonce.toStdString()},
              {"issuedAt", issuedAt.toStdString()},
              {"expiresAt", expiresAt.toStdString()},
              {"statement", statement.toStdString()},
              {"uri", m_settings.serverUri.toStdString()}}}};
}

api::ChallengeResponse SignInService::issueChallenge(const QString& wallet,
                                                     const QString& clientAddress) {
    const QByteArray address = requireWallet(wallet);
    const QString canonicalWallet = crypto::toChecksumAddress(address);
    const qint64 nowMs = m_clock.nowMs();
    const bool loopback = clientAddress.isEmpty() ||
                          clientAddress.startsWith(QLatin1String("127.")) ||
                          clientAddress == QLatin1String("::1") ||
                          clientAddress.startsWith(QLatin1String("::ffff:127."));
    RateLimiter& addressLimiter = loopback ? m_loopbackLimiter : m_challengeLimiter;
    if (!addressLimiter.allow(loopback ? QStringLiteral("loopback") : clientAddress, nowMs) ||
        !m_walletLimiter.allow(clientAddress + QLatin1Char('/') + canonicalWallet, nowMs)) {
        refuse(core::ErrorKind::TooManyRequests, "TooManyChallenges",
               "too many challenges from this address; try again in a minute");
    }
    const qint64 expiresMs = nowMs + m_settings.challengeLifetimeSeconds * 1000;
    const QString token = core::secureRandomToken(QStringLiteral("pdc_"));
    const QString nonce = QString::fromLatin1(core::secureRandomBytes(16).toHex());
    const QString issuedAt = core::toIsoTimestampMs(nowMs);
    const QString expiresAt = core::toIsoTimestampMs(expiresMs);
    const nlohmann::json typedData =
        typedDataFor(canonicalWallet, nonce, issuedAt, expiresAt, kStatement);

    m_store.write([&](QSqlDatabase&) {
        // Each challenge is a durable write. Expired ones go at once; a wallet keeps only its
        // newest unused ones (the oldest is retired, never the new one refused); all live ones
        // together are bounded.
        // The stored count is read once, then kept as rows come and go (a count on every call
        // slowed challenges ten times at 32,000 stored).
        if (m_storedChallenges < 0) {
            QSqlQuery count = m_store.exec(QStringLiteral("SELECT COUNT(*) FROM challenges"));
            m_storedChallenges = count.next() ? count.value(0).toLongLong() : 0;
        }
        qint64 change =
            -m_store
                 .exec(QStringLiteral("DELETE FROM challenges WHERE expires_at_ms <= ?"), {nowMs})
                 .numRowsAffected();
        const QString walletHex = QString::fromLatin1(address.toHex());
        change -=
            m_store
                .exec(QStringLiteral("DELETE FROM challenges WHERE wallet = ? AND used_at IS "
                                     "NULL AND token_hash NOT IN (SELECT token_hash FROM "
                                     "challenges WHERE wallet = ? AND used_at IS NULL ORDER BY "
                                     "expires_at_ms DESC, seq DESC LIMIT ?)"),
                      {walletHex, walletHex, m_settings.maxOutstandingChallengesPerWallet - 1})
                .numRowsAffected();
        if (m_storedChallenges + change >= m_settings.maxLiveChallenges) {
            refuse(core::ErrorKind::TooManyRequests, "TooManyChallenges",
                   "the server holds too many unused challenges; try again in a few minutes");
        }
        m_store.exec(QStringLiteral("INSERT INTO challenges (token_hash, wallet, typed_data, "
                                    "expires_at_ms, created_at, seq) VALUES (?, ?, ?, ?, ?, "
                                    "(SELECT COALESCE(MAX(seq), 0) + 1 FROM challenges WHERE "
                                    "wallet = ?))"),
                     {core::sha256Hex(token), walletHex, QString::fromStdString(typedData.dump()),
                      expiresMs, issuedAt, walletHex});
        // Still under the store's write lock, once the rows are committed.
        m_store.afterCommit([this, change] { m_storedChallenges += change + 1; });
    });

    api::ChallengeResponse response;
    response.challengeToken = token.toStdString();
    response.nonce = nonce.toStdString();
    response.issuedAt = issuedAt.toStdString();
    response.expiresAt = expiresAt.toStdString();
    response.statement = kStatement.toStdString();
    response.eip712 = typedData;
    return response;
}

IssuedSession SignInService::createSession(const api::SessionRequest& request) {
    const QString wallet = QString::fromStdString(request.wallet);
    const QByteArray address = requireWallet(wallet);
    const Channel channel = parseChannel(request.channel);

    const auto rawSignature = crypto::fromHex(QString::fromStdString(request.signature));
    if (!rawSignature) {
        refuse(core::ErrorKind::BadRequest, "InvalidSignature", "signature must be hex");
    }
    crypto::RecoverableSignature signature;
    switch (crypto::parseSignature(*rawSignature, &signature)) {
    case crypto::SignatureProblem::None:
        break;
    case crypto::SignatureProblem::WrongLength:
        refuse(core::ErrorKind::BadRequest, "InvalidSignature", "signature must be 65 bytes");
    case crypto::SignatureProblem::BadRecoveryId:
        refuse(core::ErrorKind::BadRequest, "InvalidSignature", "v must be 0, 1, 27 or 28");
    case crypto::SignatureProblem::HighS:
        refuse(core::ErrorKind::BadRequest, "NonCanonicalSignature", "s must be in the lower half");
    case crypto::SignatureProblem::InvalidEncoding:
        refuse(core::ErrorKind::BadRequest, "InvalidSignature");
    }

    const QString tokenHash = core::sha256Hex(QString::fromStdString(request.challengeToken));
    nlohmann::json typedData;
    {
        QSqlQuery challenge = m_store.exec(
            QStringLiteral("SELECT wallet, typed_data, expires_at_ms, used_at FROM challenges "
                           "WHERE token_hash = ?"),
            {tokenHash});
        if (!challenge.next()) {
            refuse(core::ErrorKind::Unauthenticated, "ChallengeNotFound");
        }
        if (challenge.value(0).toString() != QString::fromLatin1(address.toHex())) {
            refuse(core::ErrorKind::Unauthenticated, "ChallengeWalletMismatch",
                   "the challenge was issued for another wallet");
        }
        if (!challenge.value(3).isNull()) {
            refuse(core::ErrorKind::Unauthenticated, "ChallengeUsed");
        }
        if (challenge.value(2).toLongLong() <= m_clock.nowMs()) {
            refuse(core::ErrorKind::Unauthenticated, "ChallengeExpired");
        }
        typedData = nlohmann::json::parse(challenge.value(1).toString().toStdString());
    } // the read query is finished before the write transaction begins
    const auto signer = crypto::recoverAddress(crypto::eip712::signingDigest(typedData), signature);
    if (!signer || *signer != address) {
        refuse(core::ErrorKind::Unauthenticated, "SignatureMismatch",
               "the signature was not made by this wallet over this challenge");
    }

    IssuedSession issued;
    m_store.write([&](QSqlDatabase&) {
        // Single use, even under concurrent attempts: only one UPDATE can take it.
        QSqlQuery take = m_store.exec(
            QStringLiteral("UPDATE challenges SET used_at = ? WHERE token_hash = ? AND "
                           "used_at IS NULL"),
            {core::toIsoTimestamp(m_clock.now()), tokenHash});
        if (take.numRowsAffected() != 1) {
            refuse(core::ErrorKind::Unauthenticated, "ChallengeUsed");
        }

        const QString walletHex = QStringLiteral("0x") + QString::fromLatin1(address.toHex());
        QString userId;
        QString projectId;
        QSqlQuery user = m_store.exec(QStringLiteral("SELECT u.id, (SELECT p.id FROM projects p "
                                                     "WHERE p.owner_user_id = u.id ORDER BY p.id "
                                                     "LIMIT 1) FROM users u WHERE u.wallet = ?"),
                                      {walletHex});
        if (user.next()) {
            userId = user.value(0).toString();
            projectId = user.value(1).toString();
        } else {
            // First sign-in: the user, a Personal project, and one active API key.
            userId = core::newUlid(m_clock.nowMs());
            m_store.exec(QStringLiteral("INSERT INTO users (id, wallet, created_at) "
                                        "VALUES (?, ?, ?)"),
                         {userId, walletHex, core::toIsoTimestamp(m_clock.now())});
            projectId = m_keys.createProjectIn(QStringLiteral("Personal"), userId);
            m_keys.mintKeyIn(projectId, QStringLiteral("Default"), QStringLiteral("#3b82f6"));
        }

        const QString sessionId = core::newUlid(m_clock.nowMs());
        m_store.exec(QStringLiteral("INSERT INTO sessions (id, user_id, channel, "
                                    "selected_project, created_at) VALUES (?, ?, ?, ?, ?)"),
                     {sessionId, userId, channelName(channel), projectId,
                      core::toIsoTimestamp(m_clock.now())});
        issued = issueTokensIn(sessionId, channel, projectId);
    });
    return issued;
}

IssuedSession SignInService::issueTokensIn(const QString& sessionId, Channel channel,
                                           const QString& selectedProject) {
    const qint64 nowMs = m_clock.nowMs();
    IssuedSession issued;
    issued.channel = channel;
    const QString access = core::secureRandomToken(QStringLiteral("pda_"));
    const QString refresh = core::secureRandomToken(QStringLiteral("pdr_"));
    const qint64 accessExpiresMs = nowMs + m_settings.accessLifetimeSeconds * 1000;
    const qint64 refreshExpiresMs = nowMs + m_settings.refreshLifetimeSeconds * 1000;
    for (const auto& [token, kind, expires] :
         {std::tuple{access, QStringLiteral("access"), accessExpiresMs},
          std::tuple{refresh, QStringLiteral("refresh"), refreshExpiresMs}}) {
        m_store.exec(
            QStringLiteral("INSERT INTO tokens (token_hash, session_id, kind, "
                           "expires_at_ms, state, created_at) VALUES (?, ?, ?, ?, "
                           "'active', ?)"),
            {core::sha256Hex(token), sessionId, kind, expires, core::toIsoTimestampMs(nowMs)});
    }
    issued.tokens.accessToken = access.toStdString();
    issued.tokens.refreshToken = refresh.toStdString();
    issued.tokens.expiresAt = accessExpiresMs / 1000;
    issued.tokens.selectedProject = selectedProject.toStdString();
    issued.refreshExpiresAt = refreshExpiresMs / 1000;
    return issued;
}

IssuedSession SignInService::refresh(const QString& refreshToken, Channel presentedVia) {
    if (refreshToken.isEmpty()) {
        refuse(core::ErrorKind::Unauthenticated, "MissingToken");
    }
    IssuedSession issued;
    bool reused = false;
    m_store.write([&](QSqlDatabase&) {
        QSqlQuery q = m_store.exec(
            QStringLiteral(
                "SELECT t.session_id, t.kind, t.expires_at_ms, t.state, s.channel, s.revoked_at, "
                "s.selected_project FROM tokens t JOIN sessions s ON s.id = t.session_id "
                "WHERE t.token_hash = ?"),
            {core::sha256Hex(refreshToken)});
        if (!q.next() || q.value(1).toString() != QLatin1String("refresh")) {
            refuse(core::ErrorKind::Unauthenticated, "InvalidToken");
        }
        const QString sessionId = q.value(0).toString();
        const Channel channel =
            q.value(4).toString() == QLatin1String("bearer") ? Channel::Bearer : Channel::Cookie;
        if (channel != presentedVia) {
            refuse(core::ErrorKind::Unauthenticated, "ChannelMismatch");
        }
        if (!q.value(5).isNull()) {
            refuse(core::ErrorKind::Unauthenticated, "SessionRevoked");
        }
        if (q.value(3).toString() == QLatin1String("rotated")) {
            // A rotated refresh token came back: someone holds a copy. Revoke the whole family.
            m_store.exec(QStringLiteral("UPDATE sessions SET revoked_at = ?, revoked_reason = "
                                        "'refresh token reused' WHERE id = ?"),
                         {core::toIsoTimestamp(m_clock.now()), sessionId});
            m_store.exec(QStringLiteral("UPDATE tokens SET state = 'revoked' WHERE session_id = ?"),
                         {sessionId});
            reused = true;
            return; // commit the revocation, then refuse
        }
        if (q.value(3).toString() != QLatin1String("active")) {
            refuse(core::ErrorKind::Unauthenticated, "InvalidToken");
        }
        if (q.value(2).toLongLong() <= m_clock.nowMs()) {
            refuse(core::ErrorKind::Unauthenticated, "TokenExpired");
        }
        m_store.exec(QStringLiteral("UPDATE tokens SET state = 'rotated' WHERE token_hash = ?"),
                     {core::sha256Hex(refreshToken)});
        issued = issueTokensIn(sessionId, channel, q.value(6).toString());
    });
    if (reused) {
        refuse(core::ErrorKind::Unauthenticated, "RefreshTokenReused",
               "this refresh token was already rotated; the session is revoked");
    }
    return issued;
}

SessionIdentity SignInService::authenticate(const QString& accessToken, Channel presentedVia) {
    if (accessToken.isEmpty()) {
        refuse(core::ErrorKind::Unauthenticated, "MissingToken");
    }
    QSqlQuery q = m_store.exec(
        QStringLiteral("SELECT t.kind, t.expires_at_ms, t.state, s.channel, s.revoked_at, s.id, "
                       "s.user_id, s.selected_project, u.wallet FROM tokens t "
                       "JOIN sessions s ON s.id = t.session_id JOIN users u ON u.id = s.user_id "
                       "WHERE t.token_hash = ?"),
        {core::sha256Hex(accessToken)});
    if (!q.next() || q.value(0).toString() != QLatin1String("access")) {
        refuse(core::ErrorKind::Unauthenticated, "InvalidToken");
    }
    const Channel channel =
        q.value(3).toString() == QLatin1String("bearer") ? Channel::Bearer : Channel::Cookie;
    if (channel != presentedVia) {
        refuse(core::ErrorKind::Unauthenticated, "ChannelMismatch");
    }
    if (!q.value(4).isNull() || q.value(2).toString() != QLatin1String("active")) {
        refuse(core::ErrorKind::Unauthenticated, "SessionRevoked");
    }
    if (q.value(1).toLongLong() <= m_clock.nowMs()) {
        refuse(core::ErrorKind::Unauthenticated, "TokenExpired");
    }
    return {q.value(6).toString(), q.value(8).toString(), q.value(5).toString(),
            q.value(7).toString()};
}

void SignInService::requireProjectAccess(const SessionIdentity& who, const QString& projectId) {
    // An unknown project and another user's project look the same from outside.
    if (!m_keys.isMember(who.userId, projectId)) {
        refuse(core::ErrorKind::Forbidden, "Forbidden", "no access to this project");
    }
}

api::ApiKeyPage SignInService::listApiKeys(const SessionIdentity& who, const QString& projectId,
                                           int limit, int offset) {
    if (limit < 1 || limit > 500 || offset < 0) {
        refuse(core::ErrorKind::BadRequest, "InvalidPagination",
               "limit must be 1..500 and offset >= 0");
    }
    const QString project = projectId.isEmpty() ? who.selectedProject : projectId;
    requireProjectAccess(who, project);
    return m_keys.listKeys(project, limit, offset);
}

api::ApiKeyRecord SignInService::createApiKey(const SessionIdentity& who,
                                              const api::CreateApiKeyRequest& req) {
    const QString project =
        req.projectId.empty() ? who.selectedProject : QString::fromStdString(req.projectId);
    const QString name = QString::fromStdString(req.name).trimmed();
    if (name.isEmpty() ||
        api::identifierProblem(name.toStdString(), api::kMaxNameLength).has_value()) {
        refuse(core::ErrorKind::BadRequest, "InvalidKeyName",
               "type.name must be 1..100 characters, with no control or bidirectional characters");
    }
    const QString color = QString::fromStdString(req.color);
    if (color.size() > 32) {
        refuse(core::ErrorKind::BadRequest, "InvalidKeyColor",
               "type.color must be at most 32 characters");
    }
    requireProjectAccess(who, project);
    return m_keys.mintKey(project, name, color);
}

} // namespace proofdesk::auth
