#include "AuthWire.h"

namespace proofdesk::api {

void to_json(nlohmann::json& j, const ChallengeResponse& v) {
    j = {{"challengeToken", v.challengeToken}, {"nonce", v.nonce},         {"issuedAt", v.issuedAt},
         {"expiresAt", v.expiresAt},           {"statement", v.statement}, {"eip712", v.eip712}};
}

void from_json(const nlohmann::json& j, ChallengeResponse& v) {
    j.at("challengeToken").get_to(v.challengeToken);
    j.at("nonce").get_to(v.nonce);
    j.at("issuedAt").get_to(v.issuedAt);
    j.at("expiresAt").get_to(v.expiresAt);
    j.at("statement").get_to(v.statement);
    v.eip712 = j.at("eip712");
}

void to_json(nlohmann::json& j, const SessionRequest& v) {
    j = {{"wallet", v.wallet}, {"challengeToken", v.challengeToken}, {"signature", v.signature}};
    if (v.channel) {
        j["channel"] = *v.channel;
    }
}

void to_json(nlohmann::json& j, const SessionTokens& v) {
    j = {{"accessToken", v.accessToken},
         {"refreshToken", v.refreshToken},
         {"expiresAt", v.expiresAt},
         {"selectedProject", v.selectedProject}};
}

void from_json(const nlohmann::json& j, SessionTokens& v) {
    j.at("accessToken").get_to(v.accessToken);
    j.at("refreshToken").get_to(v.refreshToken);
    j.at("expiresAt").get_to(v.expiresAt);
    if (j.contains("selectedProject")) {
        j.at("selectedProject").get_to(v.selectedProject);
    }
}

void to_json(nlohmann::json& j, const ApiKeyRecord& v) {
    j = {{"id", v.id},
         {"apiKey", v.apiKey},
         {"name", v.name},
         {"color", v.color},
         {"createdAt", v.createdAt},
         {"active", v.active},
         {"projectId", v.projectId}};
}

void from_json(const nlohmann::json& j, ApiKeyRecord& v) {
    j.at("id").get_to(v.id);
    j.at("apiKey").get_to(v.apiKey);
    j.at("name").get_to(v.name);
    j.at("color").get_to(v.color);
    j.at("createdAt").get_to(v.createdAt);
    j.at("active").get_to(v.active);
    if (j.contains("projectId")) {
        j.at("projectId").get_to(v.projectId);
    }
}

void to_json(nlohmann::json& j, const ApiKeyPage& v) {
    j = {{"data", v.data}, {"total", v.total}};
}

void from_json(const nlohmann::json& j, ApiKeyPage& v) {
    j.at("data").get_to(v.data);
    j.at("total").get_to(v.total);
}

void to_json(nlohmann::json& j, const CreateApiKeyRequest& v) {
    j = {{"projectId", v.projectId}, {"type", {{"name", v.name}, {"color", v.color}}}};
}

} // namespace proofdesk::api
