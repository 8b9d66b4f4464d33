#include "ProofBodies.h"

#include "Identifiers.h"
#include "WireJson.h"

#include <limits>
#include <set>

namespace proofdesk::api {

using detail::optionalOf;
using detail::orNull;

namespace {

std::optional<std::string> optionalString(const nlohmann::json& body, const char* name) {
    auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        return std::nullopt;
    }
    if (!it->is_string()) {
        throw BodyError("INVALID_FIELD", std::string(name) + " is a string or null");
    }
    return it->get<std::string>();
}

void checkIdentifier(const std::optional<std::string>& value, const char* name, std::size_t limit) {
    if (value) {
        if (const auto problem = identifierProblem(*value, limit)) {
            throw BodyError("INVALID_FIELD", std::string(name) + " " + *problem);
        }
    }
}

} // namespace

nlohmann::json toJson(const BucketCreation& creation) {
    nlohmann::json body = {{"externalId", orNull(creation.externalId)},
                           {"nodeWidth", orNull(creation.nodeWidth)},
                           {"aggregatorParams", orNull(creation.aggregatorParams)},
                           {"mockProof", creation.mockProof}};
    if (creation.aggregatorVersion) {
        body["aggregatorVersion"] = *creation.aggregatorVersion;
    }
    return body;
}

BucketCreation bucketCreationFromJson(const nlohmann::json& body, bool docs) {
    static const std::set<std::string> known = {"externalId", "nodeWidth", "aggregatorParams",
                                                "mockProof", "aggregatorVersion"};
    for (const auto& item : body.items()) {
        if (!known.count(item.key())) {
            throw BodyError("UNKNOWN_FIELD", "\"" + item.key() + "\" is not a bucket field");
        }
    }
    BucketCreation out;
    out.externalId = optionalString(body, "externalId");
    out.aggregatorVersion = optionalString(body, "aggregatorVersion");
    if (auto it = body.find("aggregatorParams"); it != body.end() && !it->is_null()) {
        out.aggregatorParams = it->is_string() ? it->get<std::string>() : it->dump();
        if (out.aggregatorParams->size() > kMaxParamsLength) {
            throw BodyError("INVALID_FIELD", "aggregatorParams is longer than 4096 bytes");
        }
    }
    checkIdentifier(out.externalId, "externalId", kMaxIdLength);
    checkIdentifier(out.aggregatorVersion, "aggregatorVersion", kMaxNameLength);
    if (auto it = body.find("nodeWidth"); it != body.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<long long>() > std::numeric_limits<int>::max() ||
            it->get<long long>() < std::numeric_limits<int>::min()) {
            throw BodyError("INVALID_FIELD", "nodeWidth is a 32-bit integer or null");
        }
        out.nodeWidth = it->get<int>();
    }
    if (auto it = body.find("mockProof"); it != body.end() && !it->is_null()) {
        if (!it->is_boolean()) {
            throw BodyError("INVALID_FIELD", "mockProof is a boolean");
        }
        out.mockProof = it->get<bool>();
    }
    if (docs && !out.aggregatorVersion) {
        throw BodyError("MISSING_FIELD", "aggregatorVersion is required");
    }
    return out;
}

nlohmann::json toJson(const FactRegistryAnswer& answer) {
    nlohmann::json body = {{"chain", answer.chain},
                           {"factHash", answer.factHash},
                           {"mocked", answer.mocked},
                           {"valid", answer.valid},
                           {"entry", nullptr}};
    if (answer.entry) {
        const FactRegistryEntry& entry = *answer.entry;
        body["entry"] = {{"transactionId", entry.transactionId},
                         {"queryId", orNull(entry.queryId)},
                         {"programHash", orNull(entry.programHash)},
                         {"registeredAt", entry.registeredAt}};
    }
    return body;
}

FactRegistryAnswer factRegistryAnswerFromJson(const nlohmann::json& json) {
    FactRegistryAnswer answer;
    answer.chain = json.value("chain", std::string());
    answer.factHash = json.value("factHash", std::string());
    answer.mocked = json.value("mocked", false);
    answer.valid = json.at("valid").get<bool>();
    if (auto it = json.find("entry"); it != json.end() && it->is_object()) {
        FactRegistryEntry entry;
        entry.transactionId = it->value("transactionId", std::string());
        entry.queryId = optionalOf<std::string>(*it, "queryId");
        entry.programHash = optionalOf<std::string>(*it, "programHash");
        entry.registeredAt = it->value("registeredAt", std::string());
        answer.entry = entry;
    }
    return answer;
}

} // namespace proofdesk::api
