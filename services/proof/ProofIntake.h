#pragma once

#include "ArtifactCollector.h"
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

#include <optional>
#include <string>

namespace proofdesk::proof {

// A submission becomes a query and its first stage's job (POST /core-query and the /v1
// submissions), or a program is registered by hash (POST /v1/submit-program). The options are
// checked first (checkRequest), the files are read in one sandboxed child, the uploads are stored
// (pinned), and then the program's registration, the credit, the bucket place, the query and its
// job are written in one transaction: all or nothing. A refused submission leaves nothing stored,
// its uploads included.
class ProofIntake {
public:
    ProofIntake(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                ArtifactStore& artifacts, ArtifactCollector& collector,
                const ProverSettings& provers, SandboxedWork& sandbox, ProjectCredits& credits,
                ProgramRegistry& programs, ProofQueries& queries, BucketAggregation& buckets);

    // Returns the new query's id.
    std::string submit(const Caller& caller, const CoreQueryRequest& request);
    // Registers a compiled Cairo 0 program in the caller's project; returns its program hash.
    // 409 PROGRAM_HASH_CONFLICT when the project registered another file under that hash.
    std::string submitProgram(const Caller& caller, const UploadedFile& programFile,
                              const std::string& cairoVersion);

private:
    class StagedUploads;
    // What the sandbox read from the files and the program they name.
    struct InspectedSources {
        tasks::InspectResult facts;
        std::optional<std::string> programHash;
        std::optional<std::string> programDigest; // of a programFile
    };
    InspectedSources inspectSources(const Caller& caller, const CoreQueryRequest& in);
    // 413 PROJECT_STORAGE_QUOTA_EXCEEDED when `adding` more bytes would pass the project's quota.
    void checkStorage(const Caller& caller, std::uint64_t adding);
    // The query's source in its inputs (a program, a stored PIE or proof), its steps and its
    // layout; stores the uploads (no row yet).
    void planSource(const CoreQueryRequest& in, const InspectedSources& sources,
                    CheckedRequest& checked, StagedUploads& uploads);
    // Within the submission's write: the credit, the dedup check, the program's registration or
    // the file a hash names, the bucket place, the query's row and its first job.
    void recordIn(QSqlDatabase& db, const Caller& caller, const CoreQueryRequest& in,
                  const InspectedSources& sources, CheckedRequest& checked);

    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    ArtifactStore& m_artifacts;
    ArtifactCollector& m_collector;
    const ProverSettings& m_provers;
    SandboxedWork& m_sandbox;
    ProjectCredits& m_credits;
    ProgramRegistry& m_programs;
    ProofQueries& m_queries;
    BucketAggregation& m_buckets;
};

} // namespace proofdesk::proof
