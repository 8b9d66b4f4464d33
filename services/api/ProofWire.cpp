#include "ProofWire.h"

#include "WireJson.h"

#include <algorithm>

namespace proofdesk::api {

const std::vector<std::string> kCoreQueryTextParts = {
    "externalId",         "dedupId",        "sharpProver",     "layout",  "cairoVm",
    "cairoVersion",       "result",         "mockFactHash",    "network", "programHash",
    "bucketId",           "bucketJobIndex", "declaredJobSize", "hints",   "stoneVersion",
    "memoryVerification", "optimize"};
const std::vector<std::string> kCoreQueryFileParts = {"programFile", "inputFile", "pieFile",
                                                      "proofFile"};

namespace v1 {
const V1Route kTraceGeneration{"/v1/trace-generation",
                               {"programFile", "programHash", "inputFile", "cairoVersion"}};
const V1Route kTraceGenerationProofGeneration{
    "/v1/trace-generation-proof-generation",
    {"programFile", "programHash", "inputFile", "cairoVersion", "prover", "layout", "optimize"}};
const V1Route kL1ProofGenerationVerification{"/v1/l1/core-query/proof-generation-verification",
                                             {"pieFile", "mockFactHash"}};
const V1Route kL2ProofVerification{
    "/v1/l2/core-query/proof-verification",
    {"proofFile", "mockFactHash", "stoneVersion", "memoryVerification"}};
const V1Route kSubmitProgram{"/v1/submit-program", {"programFile", "cairoVersion"}};
} // namespace v1

using detail::optionalOf;
using detail::orNull;

namespace {

template <class T> T valueOf(const nlohmann::json& json, const char* name, T fallback) {
    auto it = json.find(name);
    if (it == json.end() || it->is_null()) {
        return fallback;
    }
    return it->get<T>();
}

} // namespace

nlohmann::json toJson(const ProofQuery& q, QueryView view) {
    const bool docs = view == QueryView::Docs;
    nlohmann::json out = nlohmann::json::object();
    out["id"] = q.id;
    out["externalId"] = q.externalId;
    if (!docs) {
        out["dedupId"] = orNull(q.dedupId);
    }
    out["transactionId"] = orNull(q.transactionId);
    out["status"] = q.status;
    out["step"] = orNull(q.step);
    out["programHash"] = orNull(q.programHash);
    out["integrityFactHash"] = orNull(q.integrityFactHash);
    out["sharpFactHash"] = orNull(q.sharpFactHash);
    out["layout"] = orNull(q.layout);
    out["isFactMocked"] = q.isFactMocked;
    if (!docs) {
        out["isProofMocked"] = q.isProofMocked;
    }
    out["chain"] = q.chain;
    out["jobSize"] = orNull(q.jobSize);
    out["declaredJobSize"] = q.declaredJobSize;
    out["cairoVm"] = q.cairoVm;
    out["cairoVersion"] = q.cairoVersion;
    out["steps"] = q.steps;
    out["result"] = q.result;
    out["network"] = q.network;
    out["hints"] = orNull(q.hints);
    if (!docs) {
        out["sharpProver"] = orNull(q.sharpProver);
    }
    out["errorReason"] = orNull(q.errorReason);
    out["submittedByClient"] = q.submittedByClient;
    out["projectId"] = q.projectId;
    if (!docs) {
        out["submittedByWallet"] = orNull(q.submittedByWallet);
    }
    out["bucketId"] = orNull(q.bucketId);
    out["bucketJobIndex"] = orNull(q.bucketJobIndex);
    out["customerName"] = orNull(q.customerName);
    if (!docs) {
        out["isJobSizeValid"] = orNull(q.isJobSizeValid);
        out["retryCount"] = q.retryCount;
    }
    out["createdAt"] = q.createdAt;
    out["completedAt"] = orNull(q.completedAt);
    if (view != QueryView::InBucket) {
        out["client"] = {{"clientId", q.client.clientId},
                         {"name", q.client.name},
                         {"isEmailVerified", q.client.isEmailVerified},
                         {"email", q.client.email},
                         {"image", q.client.image}};
    }
    if (!docs) {
        out["isRetriable"] = q.isRetriable;
        out["retryBlockedReason"] = orNull(q.retryBlockedReason);
        if (q.proofProgress) {
            const ProofProgress& p = *q.proofProgress;
            out["proofProgress"] = {{"phase", p.phase},
                                    {"fraction", p.fraction},
                                    {"elapsedSeconds", p.elapsedSeconds},
                                    {"remainingSeconds", orNull(p.remainingSeconds)}};
        }
    }
    return out;
}

ProofQuery proofQueryFromJson(const nlohmann::json& j) {
    ProofQuery q;
    q.id = j.at("id").get<std::string>();
    q.externalId = valueOf<std::string>(j, "externalId", "");
    q.dedupId = optionalOf<std::string>(j, "dedupId");
    q.transactionId = optionalOf<std::string>(j, "transactionId");
    q.status = j.at("status").get<std::string>();
    q.step = optionalOf<std::string>(j, "step");
    q.programHash = optionalOf<std::string>(j, "programHash");
    q.integrityFactHash = optionalOf<std::string>(j, "integrityFactHash");
    q.sharpFactHash = optionalOf<std::string>(j, "sharpFactHash");
    q.layout = optionalOf<std::string>(j, "layout");
    q.isFactMocked = valueOf<bool>(j, "isFactMocked", false);
    q.isProofMocked = valueOf<bool>(j, "isProofMocked", false);
    q.chain = valueOf<std::string>(j, "chain", "OFFCHAIN");
    q.jobSize = optionalOf<std::string>(j, "jobSize");
    q.declaredJobSize = valueOf<std::string>(j, "declaredJobSize", "S");
    q.cairoVm = valueOf<std::string>(j, "cairoVm", "rust");
    q.cairoVersion = valueOf<std::string>(j, "cairoVersion", "cairo0");
    q.steps = valueOf<std::vector<std::string>>(j, "steps", {});
    q.result = valueOf<std::string>(j, "result", "PROOF_GENERATION");
    q.network = valueOf<std::string>(j, "network", "TESTNET");
    q.hints = optionalOf<std::string>(j, "hints");
    q.sharpProver = optionalOf<std::string>(j, "sharpProver");
    q.errorReason = optionalOf<std::string>(j, "errorReason");
    q.submittedByClient = valueOf<std::string>(j, "submittedByClient", "");
    q.projectId = valueOf<std::string>(j, "projectId", "");
    q.submittedByWallet = optionalOf<std::string>(j, "submittedByWallet");
    q.bucketId = optionalOf<std::string>(j, "bucketId");
    q.bucketJobIndex = optionalOf<int>(j, "bucketJobIndex");
    q.customerName = optionalOf<std::string>(j, "customerName");
    q.isJobSizeValid = optionalOf<bool>(j, "isJobSizeValid");
    q.retryCount = valueOf<int>(j, "retryCount", 0);
    q.createdAt = valueOf<std::string>(j, "createdAt", "");
    q.completedAt = optionalOf<std::string>(j, "completedAt");
    if (auto it = j.find("client"); it != j.end() && it->is_object()) {
        q.client.clientId = valueOf<std::string>(*it, "clientId", "");
        q.client.name = valueOf<std::string>(*it, "name", "");
        q.client.isEmailVerified = valueOf<bool>(*it, "isEmailVerified", false);
        q.client.email = valueOf<std::string>(*it, "email", "");
        q.client.image = valueOf<std::string>(*it, "image", "");
    }
    q.isRetriable = valueOf<bool>(j, "isRetriable", true);
    q.retryBlockedReason = optionalOf<std::string>(j, "retryBlockedReason");
    if (auto it = j.find("proofProgress"); it != j.end() && it->is_object()) {
        ProofProgress p;
        p.phase = valueOf<std::string>(*it, "phase", "");
        p.fraction = valueOf<double>(*it, "fraction", 0);
        p.elapsedSeconds = valueOf<double>(*it, "elapsedSeconds", 0);
        p.remainingSeconds = optionalOf<double>(*it, "remainingSeconds");
        q.proofProgress = p;
    }
    return q;
}

nlohmann::json toJson(const ProofBucket& b, bool docs) {
    nlohmann::json out = nlohmann::json::object();
    out["id"] = b.id;
    out["externalId"] = orNull(b.externalId);
    out["status"] = b.status;
    out["aggregatorVersion"] = b.aggregatorVersion;
    out["aggregatorParams"] = orNull(b.aggregatorParams);
    out["nodeWidth"] = b.nodeWidth;
    out["leaves"] = b.leaves;
    if (!docs) {
        out["chain"] = b.chain;
        out["mockProof"] = b.mockProof;
    }
    out["projectId"] = b.projectId;
    out["createdByClient"] = b.createdByClient;
    out["createdAt"] = b.createdAt;
    return out;
}

ProofBucket proofBucketFromJson(const nlohmann::json& j) {
    ProofBucket b;
    b.id = j.at("id").get<std::string>();
    b.externalId = optionalOf<std::string>(j, "externalId");
    b.status = j.at("status").get<std::string>();
    b.aggregatorVersion = valueOf<std::string>(j, "aggregatorVersion", "snos_aggregator_0.13.3");
    b.aggregatorParams = optionalOf<std::string>(j, "aggregatorParams");
    b.nodeWidth = valueOf<int>(j, "nodeWidth", 4);
    b.leaves = valueOf<int>(j, "leaves", 0);
    b.chain = valueOf<std::string>(j, "chain", "L1");
    b.mockProof = valueOf<bool>(j, "mockProof", false);
    b.projectId = valueOf<std::string>(j, "projectId", "");
    b.createdByClient = valueOf<std::string>(j, "createdByClient", "");
    b.createdAt = valueOf<std::string>(j, "createdAt", "");
    return b;
}

nlohmann::json toJson(const ProjectCredits& credits) {
    return {{"projectId", credits.projectId},
            {"credits", credits.credits ? nlohmann::json(*credits.credits) : nlohmann::json()}};
}

ProjectCredits projectCreditsFromJson(const nlohmann::json& json) {
    ProjectCredits credits;
    credits.projectId = json.at("projectId").get<std::string>();
    const nlohmann::json& balance = json.at("credits");
    if (!balance.is_null()) {
        credits.credits = balance.get<std::int64_t>();
    }
    return credits;
}

} // namespace proofdesk::api
