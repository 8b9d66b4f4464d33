#include "ProofIntake.h"

#include "api/Identifiers.h"
#include "core/QtText.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"
#include "crypto/Felt.h"

#include <QSqlQuery>

namespace proofdesk::proof {
namespace {

[[noreturn]] void badRequest(const char* code, const std::string& detail = {}) {
    throw core::ServiceError(core::ErrorKind::BadRequest, code, detail);
}

// A program is run as the Cairo it is: the submission's cairoVersion must say so.
void checkCairoVersion(bool programIsCairo1, const std::string& asked) {
    if (programIsCairo1 && asked != "cairo1") {
        badRequest("CAIRO_VERSION_MISMATCH",
                   "the program is a Cairo 1 executable: submit it with cairoVersion=cairo1");
    }
    if (!programIsCairo1 && asked == "cairo1") {
        badRequest("CAIRO_VERSION_MISMATCH",
                   "the program is a compiled Cairo 0 program, not a Cairo 1 executable (Scarb's "
                   "target/<profile>/<name>.executable.json): submit it with cairoVersion=cairo0");
    }
}

std::string digestOf(const UploadedFile& file) {
    return file.onDisk() ? ArtifactStore::sha256OfFile(file.path)
                         : ArtifactStore::sha256Of(file.content);
}

} // namespace

// The uploads of one submission: stored before the rows that name them, pinned until those rows
// commit; if the submission is refused, the files it stored itself are removed again unless
// something else names them.
class ProofIntake::StagedUploads {
public:
    StagedUploads(ArtifactStore& artifacts, ArtifactCollector& collector)
        : m_artifacts(artifacts), m_collector(collector) {}
    StagedUploads(const StagedUploads&) = delete;
    StagedUploads& operator=(const StagedUploads&) = delete;
    ~StagedUploads() {
        m_pins.clear();
        if (m_committed || m_created.empty()) {
            return;
        }
        try {
            m_collector.releaseUnreferenced(m_created);
        } catch (const std::exception&) {
            // collected when the server next starts
        }
    }

    std::string store(const UploadedFile& file, const std::string& digest) {
        m_pins.push_back(m_artifacts.pin(digest));
        const bool created = file.onDisk() ? m_artifacts.putFile(file.path, digest)
                                           : m_artifacts.put(file.content, digest);
        if (created) {
            m_created.push_back(digest);
        }
        return digest;
    }
    std::string store(const UploadedFile& file) { return store(file, digestOf(file)); }
    void committed() { m_committed = true; }

private:
    ArtifactStore& m_artifacts;
    ArtifactCollector& m_collector;
    std::vector<ArtifactStore::Pin> m_pins;
    std::vector<std::string> m_created;
    bool m_committed = false;
};

ProofIntake::ProofIntake(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                         ArtifactStore& artifacts, ArtifactCollector& collector,
                         const ProverSettings& provers, SandboxedWork& sandbox,
                         ProjectCredits& credits, ProgramRegistry& programs, ProofQueries& queries,
                         BucketAggregation& buckets)
    : m_store(store), m_clock(clock), m_jobs(jobs), m_artifacts(artifacts), m_collector(collector),
      m_provers(provers), m_sandbox(sandbox), m_credits(credits), m_programs(programs),
      m_queries(queries), m_buckets(buckets) {}

void ProofIntake::checkStorage(const Caller& caller, std::uint64_t adding) {
    const std::uint64_t quota = m_provers.projectStorageBytes;
    if (quota == 0) {
        return;
    }
    const std::uint64_t used = m_queries.storedBytesOf(caller.projectId);
    if (used + adding > quota) {
        const auto mib = [](std::uint64_t bytes) {
            return std::to_string((bytes + (1 << 19)) >> 20);
        };
        throw core::ServiceError(core::ErrorKind::PayloadTooLarge, "PROJECT_STORAGE_QUOTA_EXCEEDED",
                                 "this project stores " + mib(used) + " MiB of the " + mib(quota) +
                                     " MiB it may; this submission's files (" + mib(adding) +
                                     " MiB) do not fit (the server's --project-storage-mib)");
    }
}

// --- programs ---------------------------------------------------------------------------------

std::string ProofIntake::submitProgram(const Caller& caller, const UploadedFile& programFile,
                                       const std::string& cairoVersion) {
    const std::string digest = digestOf(programFile);
    if (const auto known = m_programs.hashOfFile(caller.projectId, digest)) {
        checkCairoVersion(m_programs.cairoVersionOf(caller.projectId, *known) == "cairo1",
                          cairoVersion);
        return *known;
    }
    const tasks::InspectResult facts =
        m_sandbox.inspect({programFile.asInput(tasks::slot::kProgram)}, {}, "INVALID_PROGRAM_FILE");
    if (!facts.program) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 "the sandboxed inspection did not read the program");
    }
    checkCairoVersion(facts.program->cairo1, cairoVersion);
    const std::string hash = facts.program->programHash.toHex();
    checkStorage(caller, programFile.byteCount());
    StagedUploads uploads(m_artifacts, m_collector);
    uploads.store(programFile, digest);
    m_store.write([&](QSqlDatabase&) {
        if (m_programs.addIn(caller.projectId, hash, digest, cairoVersion,
                             programFile.byteCount()) == ProgramRegistry::Added::Conflict) {
            throw core::ServiceError(
                core::ErrorKind::Conflict, "PROGRAM_HASH_CONFLICT",
                "this project registered another file under program hash " + hash +
                    " (the hash covers the bytecode, not the hints): queries with that "
                    "programHash run the first file; submit this one as programFile instead",
                {{"programHash", hash}});
        }
    });
    uploads.committed();
    return hash;
}

// --- submission -------------------------------------------------------------------------------

std::string ProofIntake::submit(const Caller& caller, const CoreQueryRequest& in) {
    CheckedRequest checked = checkRequest(in, m_provers);
    const InspectedSources sources = inspectSources(caller, in);
    std::uint64_t uploading = 0;
    for (const UploadedFile* file :
         {in.programFile(), in.inputFile(), in.pieFile(), in.proofFile()}) {
        uploading += file ? file->byteCount() : 0;
    }
    checkStorage(caller, uploading);
    StagedUploads uploads(m_artifacts, m_collector);
    planSource(in, sources, checked, uploads);
    api::ProofQuery& query = checked.query;
    const qint64 nowMs = m_clock.nowMs();
    query.id = core::newUlid(nowMs).toStdString();
    query.createdAt = core::toIsoTimestampMs(nowMs).toStdString();
    query.projectId = caller.projectId.toStdString();
    query.submittedByClient = caller.keyId.toStdString();
    query.client.clientId = caller.keyId.toStdString();
    query.client.name = caller.keyName.toStdString();
    query.programHash = sources.programHash;
    if (sources.facts.pie && sources.facts.pie->cairo1) {
        query.cairoVersion = "cairo1"; // a Cairo 1 executable's PIE, whatever the client said
    }
    m_store.write([&](QSqlDatabase& db) { recordIn(db, caller, in, sources, checked); });
    uploads.committed();
    m_jobs.wake();
    return query.id;
}

void ProofIntake::recordIn(QSqlDatabase& db, const Caller& caller, const CoreQueryRequest& in,
                           const InspectedSources& sources, CheckedRequest& checked) {
    api::ProofQuery& query = checked.query;
    m_credits.chargeOneIn(caller.projectId, m_queries.publicUrl() + "/core-query");
    if (query.dedupId) {
        if (const auto existing = m_queries.idByDedupId(caller.projectId, *query.dedupId)) {
            throw core::ServiceError(core::ErrorKind::Conflict,
                                     "CORE_QUERY_WITH_DEDUP_ID_ALREADY_EXISTS", {},
                                     {{"coreQueryId", *existing}});
        }
    }
    if (const UploadedFile* program = in.programFile()) {
        // The first file a project registers under a hash stays its program for that hash; a
        // query with another file under it runs its own file.
        m_programs.addIn(caller.projectId, *sources.programHash, *sources.programDigest,
                         query.cairoVersion, program->byteCount());
    } else if (in.programHash()) {
        const std::optional<std::string> program =
            m_programs.fileOf(caller.projectId, *sources.programHash);
        if (!program) {
            throw core::ServiceError(core::ErrorKind::BadRequest, "PROGRAM_NOT_FOUND",
                                     "this project has no program with hash " +
                                         *sources.programHash +
                                         " registered: upload its programFile once");
        }
        checked.inputs.program = *program;
    }
    if (in.bucketId) {
        // The query takes its job index in an open bucket of the caller's project.
        const BucketPlace place = m_buckets.joinIn(caller, *in.bucketId, in.bucketJobIndex);
        checked.inputs.mockProof = place.mockProof;
        query.bucketId = *in.bucketId;
        query.bucketJobIndex = place.jobIndex;
    }
    const QString jobId =
        m_jobs.enqueueIn(db, kStageJob, {{"queryId", query.id}, {"stage", query.steps.front()}},
                         caller.projectId, stageWorkKind(query.steps.front()));
    checked.inputs.job = jobId.toStdString();
    m_queries.insertIn(query, checked.inputs);
}

// Every file is read in one sandboxed child: the program (hash, native hints), the input (JSON),
// the PIE or the proof (what it states).
ProofIntake::InspectedSources ProofIntake::inspectSources(const Caller& caller,
                                                          const CoreQueryRequest& in) {
    InspectedSources sources;
    std::vector<sandbox::SandboxInput> toInspect;
    const char* fallbackCode = "INVALID_PROGRAM_FILE";
    tasks::InspectRequest request;
    request.checkNativeHints = in.inputFile() && in.cairoVm == api::CairoVm::Rust;
    if (in.runsProgram()) {
        if (const UploadedFile* input = in.inputFile()) {
            toInspect.push_back(input->asInput(tasks::slot::kInput));
        }
        if (const UploadedFile* program = in.programFile()) {
            sources.programDigest = digestOf(*program);
            sources.programHash = m_programs.hashOfFile(caller.projectId, *sources.programDigest);
            if (!sources.programHash || request.checkNativeHints) {
                toInspect.push_back(program->asInput(tasks::slot::kProgram));
            }
        } else {
            const auto felt = crypto::Felt::parse(*in.programHash());
            if (!felt) {
                badRequest("INVALID_PROGRAM_HASH", "programHash is not a field element");
            }
            sources.programHash = felt->toHex();
            const std::optional<std::string> stored =
                m_programs.fileOf(caller.projectId, *sources.programHash);
            if (request.checkNativeHints && stored) {
                toInspect.push_back(
                    {tasks::slot::kProgram, m_artifacts.pathOf(*stored).toStdString()});
            }
        }
    } else if (const UploadedFile* pie = in.pieFile()) {
        toInspect.push_back(pie->asInput(tasks::slot::kPie));
        fallbackCode = "INVALID_PIE_FILE";
    } else {
        toInspect.push_back(in.proofFile()->asInput(tasks::slot::kProof));
        fallbackCode = "INVALID_PROOF_FILE";
    }
    if (!toInspect.empty()) {
        sources.facts = m_sandbox.inspect(toInspect, request, fallbackCode);
    }
    if (request.checkNativeHints && sources.facts.program &&
        sources.facts.program->firstPythonOnlyHintPc) {
        badRequest("INPUT_FILE_NEEDS_CAIRO_VM_PYTHON",
                   "with an inputFile the program's hints read it, and the hint at pc " +
                       std::to_string(*sources.facts.program->firstPythonOnlyHintPc) +
                       " has no native implementation: submit with cairoVm=python to run it as "
                       "Python");
    }
    if (in.runsProgram()) {
        // The program's own shape says which Cairo it is; a registered one, its registration.
        const std::optional<std::string> registered =
            sources.facts.program || !sources.programHash
                ? std::nullopt
                : m_programs.cairoVersionOf(caller.projectId, *sources.programHash);
        if (sources.facts.program || registered) {
            checkCairoVersion(sources.facts.program ? sources.facts.program->cairo1
                                                    : *registered == "cairo1",
                              api::nameOf(in.cairoVersion));
        }
    }
    if (in.programFile() && !sources.programHash) {
        if (!sources.facts.program) {
            throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                     "the sandboxed inspection did not read the program");
        }
        sources.programHash = sources.facts.program->programHash.toHex();
    }
    return sources;
}

void ProofIntake::planSource(const CoreQueryRequest& in, const InspectedSources& sources,
                             CheckedRequest& checked, StagedUploads& uploads) {
    api::ProofQuery& query = checked.query;
    QueryInputs& inputs = checked.inputs;
    if (in.runsProgram()) {
        inputs.source = SourceKind::Program;
        if (const UploadedFile* program = in.programFile()) {
            inputs.program = uploads.store(*program, *sources.programDigest);
        }
        query.steps = {api::nameOf(api::Stage::TraceGeneration)};
        if (in.result != api::QueryResult::TraceGeneration) {
            query.steps.push_back(api::nameOf(api::Stage::ProofGeneration));
        }
    } else if (const UploadedFile* pie = in.pieFile()) {
        if (in.result == api::QueryResult::TraceGeneration) {
            badRequest("INVALID_RESULT_FOR_PIE_FILE",
                       "a pieFile is already a trace: ask for PROOF_GENERATION or a "
                       "PROOF_VERIFICATION_ON_* result");
        }
        inputs.source = SourceKind::Pie;
        inputs.pie = uploads.store(*pie);
        query.steps = {api::nameOf(api::Stage::ProofGeneration)};
    } else {
        if (api::chainOf(in.result) == "OFFCHAIN") {
            badRequest("INVALID_RESULT_FOR_PROOF_FILE",
                       "a proofFile is verified: ask for a PROOF_VERIFICATION_ON_* result");
        }
        const std::string statedLayout =
            sources.facts.proof ? sources.facts.proof->layout : std::string();
        inputs.source = SourceKind::Proof;
        inputs.layout = statedLayout;
        checked.layout = statedLayout;
        query.steps = {};
    }
    query.chain = api::chainOf(in.result);
    if (query.chain != "OFFCHAIN") {
        query.steps.push_back(api::nameOf(api::Stage::ProofVerification));
    }
    if (in.result == api::QueryResult::ProofVerificationOnL2 &&
        (checked.layout == "dynamic" || checked.layout == "all_cairo")) {
        badRequest("INVALID_LAYOUT_FOR_PROOF_VERIFICATION_ON_INTEGRITY_L2",
                   "Integrity cannot verify proofs of layout " + checked.layout);
    }
    if (const UploadedFile* proof = in.proofFile()) {
        inputs.proof = uploads.store(*proof);
    }
    if (const UploadedFile* input = in.inputFile()) {
        inputs.input = uploads.store(*input);
    }
    query.step = query.steps.front();
    query.layout =
        checked.layout == "auto" ? std::nullopt : std::optional<std::string>(checked.layout);
}

} // namespace proofdesk::proof
