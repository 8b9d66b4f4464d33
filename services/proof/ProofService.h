#pragma once

#include "ArtifactStore.h"
#include "FactRegistry.h"
#include "ProjectCredits.h"
#include "Provers.h"
#include "QueryBodyCache.h"
#include "SandboxedWork.h"
#include "Submission.h"
#include "api/ProofWire.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/ServiceError.h"
#include "core/Store.h"
#include "crypto/Felt.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace proofdesk::proof {

// POST /buckets and POST /docs/buckets.
struct BucketRequest {
    std::optional<std::string> externalId;
    std::optional<int> nodeWidth;
    std::optional<std::string> aggregatorParams;
    std::optional<std::string> aggregatorVersion;
    bool mockProof = false;
};

struct QueryFilter {
    int limit = 50;
    int offset = 0;
    std::optional<std::string> search; // id, dedupId, or a prefix of externalId
    std::optional<std::string> status;
    std::optional<std::string> network;
};

struct Artifact {
    std::string name;
    std::string contentType;
    std::string bytes; // unless read without them
    std::string path;  // the stored file
};

// The proof service (docs/api.md): submissions become queries whose stages (trace
// generation, proof generation, proof verification) run on the job engine; programs registered by
// hash; buckets with an aggregated fact; the local fact registry; project credits.
class ProofService {
public:
    ProofService(Store& store, const Clock& clock, JobEngine& jobs, const QString& dataDir,
                 ProverSettings provers);

    static std::vector<Migration> migrations();

    // The proof service's own base URL, for metadataUrls. Set before serving.
    void setPublicUrl(const QString& proofUrl);
    // After the job engine has started: fails queries whose job ran out of attempts while the
    // server was down.
    void reconcile();
    const ProverSettings& provers() const { return m_provers; }
    // Which protections a sandboxed run gets on this host (a probe run, made once).
    sandbox::Confinement sandboxReport() const { return m_sandbox.runner().probe(); }

    // Validates, stores the uploads, registers a program file, charges a credit and enqueues the
    // first stage, all or nothing. Returns the new query's id.
    std::string submit(const Caller& caller, const Submission& submission);
    // POST /v1/submit-program: registers a compiled Cairo 0 program; returns its program hash.
    std::string submitProgram(const UploadedFile& programFile, const std::string& cairoVersion);
    bool programExists(const std::string& programHash);
    // The registered program's JSON text, if the hash is known and its artifact present.
    std::optional<std::string> programText(const std::string& programHash);

    api::CoreQueryResponse coreQuery(const std::string& id);
    // The body of GET /core-query/{id}, {"coreQuery": full record, "metadataUrls": [...]}, built
    // from the stored record without parsing it again (the hot read path).
    std::string coreQueryBody(const std::string& id);
    api::CoreQueryResponse coreQueryByDedupId(const std::string& projectId,
                                              const std::string& dedupId);
    std::pair<std::vector<api::ProofQuery>, int> listQueries(const QString& projectId,
                                                             const QueryFilter& filter);

    api::ProofBucket createBucket(const Caller& caller, const BucketRequest& request);
    std::pair<std::vector<api::ProofBucket>, int> listBuckets(const QString& projectId, int limit,
                                                              int offset);
    std::pair<api::ProofBucket, std::vector<api::ProofQuery>> bucket(const std::string& id);
    // Closes `bucketId`, or the caller's newest OPEN bucket when absent.
    api::ProofBucket closeBucket(const Caller& caller, const std::optional<std::string>& bucketId);

    Artifact artifact(const std::string& queryId, const std::string& name, bool withBytes = true);
    // The local fact registry, where verified (and mocked) facts are registered.
    FactRegistry& facts() { return m_facts; }

    // The projects' credits, charged one per submission.
    ProjectCredits& credits() { return m_credits; }

private:
    struct NewArtifact {
        std::string name;
        std::string sha256;
        std::size_t size = 0;
    };
    struct NewFact {
        std::string chain;
        std::string factHash;
        bool mocked = false;
    };
    // A query as the pipeline works on it: the record, its inputs (source, artifact digests,
    // options, the current job), and what the running stage produced, written when it finishes.
    struct Loaded {
        api::ProofQuery query;
        nlohmann::json inputs;
        std::vector<NewArtifact> newArtifacts;
        std::optional<NewFact> newFact;
    };
    std::optional<Loaded> load(const std::string& id);
    void saveIn(const Loaded& loaded);
    JobOutcome runStage(const JobRecord& job, JobContext& context);
    JobOutcome runAggregation(const JobRecord& job, JobContext& context);
    // The program file and input file of a query, for a sandboxed run.
    std::vector<sandbox::SandboxInput> programInputs(const Loaded& loaded) const;
    void traceGeneration(Loaded& loaded, JobContext& context);
    void proofGeneration(Loaded& loaded, JobContext& context);
    void proveWithOurProver(Loaded& loaded, JobContext& context);
    void proofVerification(Loaded& loaded, JobContext& context);
    // Our own verifier, in a sandboxed child: the verdict, or StageFailure (permanent) naming the
    // failed check, a stoneVersion the proof was not made with, or a memoryVerification its
    // public memory does not meet.
    nlohmann::json verifyBuiltin(const std::string& proofPath, const nlohmann::json& parts,
                                 JobContext& context);
    void describeStatement(Loaded& loaded, const std::string& programHash,
                           const std::vector<crypto::Felt>& output, std::uint64_t nSteps,
                           const nlohmann::json& executionResources,
                           const std::vector<std::string>& builtins, const std::string& layout);
    void addArtifact(Loaded& loaded, const std::string& name, const std::string& bytes);
    void writeProducedIn(Loaded& loaded);
    void failIn(Loaded& loaded, const std::string& reason, const char* blockedReason);
    void finishStageIn(Loaded& loaded);
    void maybeAggregateIn(const std::string& bucketId);
    std::vector<std::string> metadataUrls(const std::string& queryId);
    std::string artifactUrl(const std::string& queryId, const std::string& name) const;
    struct RegisteredProgram {
        std::string programHash;
        std::string sha256; // of the program file, its artifact digest
    };
    // Stores a program file the sandbox has inspected (`facts`: its "program" member) or knows.
    RegisteredProgram registerProgram(const UploadedFile& text, const std::string& digest,
                                      const std::string& programHash,
                                      const std::string& cairoVersion);
    static std::string digestOf(const UploadedFile& file);
    // Stores an upload as an artifact; returns its digest.
    std::string storeUpload(const UploadedFile& file);
    std::string storeUpload(const UploadedFile& file, const std::string& digest);
    // The program hash of a stored program file with this digest, if registered.
    std::optional<std::string> registeredHash(const std::string& digest);
    void addStoredArtifact(Loaded& loaded, const std::string& name, const std::string& sha256);
    // The steps of submit(): what the sandbox read from the files and the program they name;
    // the source, steps and layout of the query; its bucket place and its row (in the write).
    struct InspectedSources {
        nlohmann::json facts;
        std::optional<std::string> programHash;
        std::optional<std::string> programDigest; // of a programFile
    };
    InspectedSources inspectSources(const Submission& in, const CheckedSubmission& checked);
    void planSource(const Submission& in, const InspectedSources& sources,
                    CheckedSubmission& checked);
    void joinBucketIn(const Caller& caller, const std::string& bucketId,
                      CheckedSubmission& checked);
    void insertQueryIn(QSqlDatabase& db, const Caller& caller, CheckedSubmission& checked);

    Store& m_store;
    const Clock& m_clock;
    JobEngine& m_jobs;
    ArtifactStore m_artifacts;
    QString m_workDir;
    ProverSettings m_provers;
    SandboxedWork m_sandbox;
    QueryBodyCache m_bodies;
    ProjectCredits m_credits;
    FactRegistry m_facts;
    std::string m_publicUrl;
};

} // namespace proofdesk::proof
