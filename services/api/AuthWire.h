#pragma once

// Wire types of the sign-in service (docs/api.md): one definition, used by the server
// routes and by the Qt client.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::api {

// GET /auth/web3/challenge
struct ChallengeResponse {
    std::string challengeToken;
    std::string nonce;
    std::string issuedAt;
    std::string expiresAt;
    std::string statement;
    nlohmann::json eip712; // {domain, types, primaryType, message}: sign exactly this
};

// POST /auth/web3/session
struct SessionRequest {
    std::string wallet;
    std::string challengeToken;
    std::string signature;
    std::optional<std::string> channel; // "bearer" | "cookie"; omitted means cookie
};

// Bearer-channel session, and the body of POST /auth/refresh-token.
struct SessionTokens {
    std::string accessToken;
    std::string refreshToken;
    std::int64_t expiresAt = 0; // Unix seconds when the access token expires
    std::string selectedProject;
};

// One entry of GET /api-keys, and the body of POST /api-keys (201).
struct ApiKeyRecord {
    std::string id;
    std::string apiKey;
    std::string name;
    std::string color;
    std::string createdAt;
    bool active = true;
    std::string projectId;
    friend bool operator==(const ApiKeyRecord&, const ApiKeyRecord&) = default;
};

struct ApiKeyPage {
    std::vector<ApiKeyRecord> data;
    std::int64_t total = 0;
};

// POST /api-keys body: {projectId, type: {name, color}}
struct CreateApiKeyRequest {
    std::string projectId;
    std::string name;
    std::string color;
};

void to_json(nlohmann::json& j, const ChallengeResponse& v);
void from_json(const nlohmann::json& j, ChallengeResponse& v);
void to_json(nlohmann::json& j, const SessionRequest& v);
void to_json(nlohmann::json& j, const SessionTokens& v);
void from_json(const nlohmann::json& j, SessionTokens& v);
void to_json(nlohmann::json& j, const ApiKeyRecord& v);
void from_json(const nlohmann::json& j, ApiKeyRecord& v);
void to_json(nlohmann::json& j, const ApiKeyPage& v);
void from_json(const nlohmann::json& j, ApiKeyPage& v);
void to_json(nlohmann::json& j, const CreateApiKeyRequest& v);

} // namespace proofdesk::api
