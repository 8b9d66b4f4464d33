#pragma once

// Wire types of the proof service (docs/api.md): one definition, used by the
// server routes and by the Qt client.

#include "ProofEnums.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace proofdesk::api {

// The parts POST /core-query takes: its text parts (externalId .. memoryVerification), then its
// files (programFile, inputFile, pieFile, proofFile).
extern const std::vector<std::string> kCoreQueryTextParts;
extern const std::vector<std::string> kCoreQueryFileParts;

// A /v1 submission route: its path and every part it reads (the routes accept these and no
// others; the client sends from these).
struct V1Route {
    const char* path;
    std::vector<std::string> parts;
};
namespace v1 {
extern const V1Route kTraceGeneration;                // programFile | programHash, inputFile
extern const V1Route kTraceGenerationProofGeneration; // also served unversioned
extern const V1Route kL1ProofGenerationVerification;  // a PIE, proven and verified on L1
extern const V1Route kL2ProofVerification;            // a proof, verified for Integrity on L2
extern const V1Route kSubmitProgram;                  // registers a program by hash
} // namespace v1

struct ProofClient {
    std::string clientId;
    std::string name;
    bool isEmailVerified = false;
    std::string email;
    std::string image;
    friend bool operator==(const ProofClient&, const ProofClient&) = default;
};

// How far our prover is with a query's proof (an extra field of the query record, present once
// PROOF_GENERATION started proving; docs/api.md): the prover's phase, the fraction of the whole
// proof done, seconds since proving started and, once it can be told, seconds left.
struct ProofProgress {
    std::string phase;
    double fraction = 0;
    double elapsedSeconds = 0;
    std::optional<double> remainingSeconds;
    friend bool operator==(const ProofProgress&, const ProofProgress&) = default;
};

// A query's status that no longer changes: DONE or FAILED.
inline bool isTerminalStatus(const std::string& status) {
    return status == "DONE" || status == "FAILED";
}

// The Query record. Optional members are written as null when unset (proofProgress: absent).
struct ProofQuery {
    std::string id;
    std::string externalId;
    std::optional<std::string> dedupId;
    std::optional<std::string> transactionId;
    std::string status = "RECEIVED";
    std::optional<std::string> step;
    std::optional<std::string> programHash;
    std::optional<std::string> integrityFactHash;
    std::optional<std::string> sharpFactHash;
    std::optional<std::string> layout;
    bool isFactMocked = false;
    bool isProofMocked = false;
    std::string chain = "OFFCHAIN";
    std::optional<std::string> jobSize;
    std::string declaredJobSize = "S";
    std::string cairoVm = "rust";
    std::string cairoVersion = "cairo0";
    std::vector<std::string> steps;
    std::string result = "PROOF_GENERATION";
    std::string network = "TESTNET";
    std::optional<std::string> hints;
    std::optional<std::string> sharpProver;
    std::optional<std::string> errorReason;
    std::string submittedByClient;
    std::string projectId;
    std::optional<std::string> submittedByWallet;
    std::optional<std::string> bucketId;
    std::optional<int> bucketJobIndex;
    std::optional<std::string> customerName;
    std::optional<bool> isJobSizeValid;
    int retryCount = 0;
    std::string createdAt;
    std::optional<std::string> completedAt;
    ProofClient client;
    bool isRetriable = true;
    std::optional<std::string> retryBlockedReason;
    std::optional<ProofProgress> proofProgress;
    friend bool operator==(const ProofQuery&, const ProofQuery&) = default;
};

// Which record a read returns: the full one (lists and get-by-id), the one inside a bucket read
// (no client), or the older /docs one (docs/api.md: without dedupId, isProofMocked, sharpProver,
// submittedByWallet, isJobSizeValid, retryCount, isRetriable, retryBlockedReason).
enum class QueryView { Full, InBucket, Docs };

nlohmann::json toJson(const ProofQuery& query, QueryView view = QueryView::Full);
ProofQuery proofQueryFromJson(const nlohmann::json& json); // accepts the Full view

struct ProofBucket {
    std::string id;
    std::optional<std::string> externalId;
    std::string status = "OPEN";
    std::string aggregatorVersion = "snos_aggregator_0.13.3";
    std::optional<std::string> aggregatorParams;
    int nodeWidth = 4;
    int leaves = 0;
    std::string chain = "L1";
    bool mockProof = false;
    std::string projectId;
    std::string createdByClient;
    std::string createdAt;
    friend bool operator==(const ProofBucket&, const ProofBucket&) = default;
};

// `docs`: the older /docs record, without chain and mockProof.
nlohmann::json toJson(const ProofBucket& bucket, bool docs = false);
ProofBucket proofBucketFromJson(const nlohmann::json& json);

// GET /core-query/{id} and GET /core-query-by-dedup-id.
struct CoreQueryResponse {
    ProofQuery coreQuery;
    std::vector<std::string> metadataUrls;
};

// GET /credits (ours): the project an API key belongs to and its credits (nullopt: unlimited).
struct ProjectCredits {
    std::string projectId;
    std::optional<std::int64_t> credits;
};
nlohmann::json toJson(const ProjectCredits& credits);
ProjectCredits projectCreditsFromJson(const nlohmann::json& json);

} // namespace proofdesk::api
