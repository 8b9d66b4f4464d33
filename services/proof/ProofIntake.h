#pragma once

#include "ArtifactStore.h"
#include "BucketAggregation.h"
#include "CoreQueryRequest.h"
#include "ProgramRegistry.h"
#include "ProjectCredits.h"
#include "ProofQueries.h"
#include "Provers.h"
#include "SandboxedWork.h"
#include "StageRecorder.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace proofdesk::proof {

// A submission becomes a query and its first stage's job (POST /core-query and the /v1
// submissions), or a program is registered by hash (POST /v1/submit-program). The options are
// checked first (checkRequest), the files are read in one sandboxed child, and the uploads,
// the credit, the bucket place, the query and its job are written all or nothing.
class ProofIntake {
public:
    ProofIntake(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                ArtifactStore& artifacts, const ProverSettings& provers, SandboxedWork& sandbox,
                ProjectCredits& credits, ProgramRegistry& programs, ProofQueries& queries,
                BucketAggregation& buckets);

    // Returns the new query's id.
    std::string submit(const Caller& caller, const CoreQueryRequest& request);
    // Registers a compiled Cairo 0 program; returns its program hash.
    std::string submitProgram(const UploadedFile& programFile, const std::string& cairoVersion);

private:
    // What the sandbox read from the files and the program they name.
    struct InspectedSources {
        nlohmann::json facts;
        std::optional<std::string> programHash;
        std::optional<std::string> programDigest; // of a programFile
    };
    InspectedSources inspectSources(const CoreQueryRequest& in);
    // The query's source in its inputs (a registered program, a stored PIE or proof), its steps
    // and its layout.
    void planSource(const CoreQueryRequest& in, const InspectedSources& sources,
                    CheckedRequest& checked);
    // Within the submission's write: the dedup check, the program a hash names, the bucket place,
    // the query's row and its first job.
    void recordIn(QSqlDatabase& db, const Caller& caller, const CoreQueryRequest& in,
                  const InspectedSources& sources, CheckedRequest& checked);
    // Stores an upload as an artifact; returns its digest.
    std::string storeUpload(const UploadedFile& file);
    std::string storeUpload(const UploadedFile& file, const std::string& digest);
    // Stores a program file and registers it under its hash; returns its digest.
    std::string registerProgram(const UploadedFile& file, const std::string& digest,
                                const std::string& programHash, const std::string& cairoVersion);

    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    ArtifactStore& m_artifacts;
    const ProverSettings& m_provers;
    SandboxedWork& m_sandbox;
    ProjectCredits& m_credits;
    ProgramRegistry& m_programs;
    ProofQueries& m_queries;
    BucketAggregation& m_buckets;
};

} // namespace proofdesk::proof
