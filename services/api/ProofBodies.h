#pragma once

// Request and answer bodies of the proof service that the server and the client both write or
// read: POST /buckets and GET /fact-registry/{chain}/{factHash}.

#include "BodyError.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace proofdesk::api {

// POST /buckets and POST /docs/buckets (/docs requires aggregatorVersion). Absent and null
// fields take the server's defaults.
struct BucketCreation {
    std::optional<std::string> externalId;
    std::optional<int> nodeWidth;
    std::optional<std::string> aggregatorParams; // a string, or any JSON written as text
    std::optional<std::string> aggregatorVersion;
    bool mockProof = false;
    friend bool operator==(const BucketCreation&, const BucketCreation&) = default;
};
nlohmann::json toJson(const BucketCreation& creation);
// Throws BodyError for an unknown field, a field of the wrong type or size, or (docs) a missing
// aggregatorVersion.
BucketCreation bucketCreationFromJson(const nlohmann::json& body, bool docs);

// GET /fact-registry/{chain}/{factHash}?mocked=: whether the fact is registered, and where from.
struct FactRegistryEntry {
    std::string transactionId;
    std::optional<std::string> queryId;
    std::optional<std::string> programHash;
    std::string registeredAt;
    friend bool operator==(const FactRegistryEntry&, const FactRegistryEntry&) = default;
};
struct FactRegistryAnswer {
    std::string chain;
    std::string factHash;
    bool mocked = false;
    bool valid = false; // registered; then `entry` says by which query
    std::optional<FactRegistryEntry> entry;
    friend bool operator==(const FactRegistryAnswer&, const FactRegistryAnswer&) = default;
};
nlohmann::json toJson(const FactRegistryAnswer& answer);
FactRegistryAnswer factRegistryAnswerFromJson(const nlohmann::json& json);

} // namespace proofdesk::api
