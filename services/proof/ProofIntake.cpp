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

std::string digestOf(const UploadedFile& file) {
    return file.onDisk() ? ArtifactStore::sha256OfFile(file.path)
                         : ArtifactStore::sha256Of(file.content);
}

} // namespace

ProofIntake::ProofIntake(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                         ArtifactStore& artifacts, const ProverSettings& provers,
                         SandboxedWork& sandbox, ProjectCredits& credits, ProgramRegistry& programs,
                         ProofQueries& queries, BucketAggregation& buckets)
    : m_store(store), m_clock(clock), m_jobs(jobs), m_artifacts(artifacts), m_provers(provers),
      m_sandbox(sandbox), m_credits(credits), m_programs(programs), m_queries(queries),
      m_buckets(buckets) {}

// --- uploads and programs ---------------------------------------------------------------------

std::string ProofIntake::storeUpload(const UploadedFile& file, const std::string& digest) {
    if (file.onDisk()) {
        m_artifacts.putFile(file.path, digest);
    } else {
        m_artifacts.put(file.content, digest);
    }
    return digest;
}

std::string ProofIntake::storeUpload(const UploadedFile& file) {
    return storeUpload(file, digestOf(file));
}

std::string ProofIntake::registerProgram(const UploadedFile& file, const std::string& digest,
                                         const std::string& programHash,
                                         const std::string& cairoVersion) {
    storeUpload(file, digest);
    m_programs.add(programHash, digest, cairoVersion, file.byteCount());
    return digest;
}

std::string ProofIntake::submitProgram(const UploadedFile& programFile,
                                       const std::string& cairoVersion) {
    const std::string digest = digestOf(programFile);
    if (const auto known = m_programs.hashOfFile(digest)) {
        return *known;
    }
    const nlohmann::json facts =
        m_sandbox.inspect({programFile.asInput("program")}, false, "INVALID_PROGRAM_FILE");
    const std::string hash = facts.at("program").value("programHash", std::string());
    registerProgram(programFile, digest, hash, cairoVersion);
    return hash;
}

// --- submission -------------------------------------------------------------------------------

std::string ProofIntake::submit(const Caller& caller, const CoreQueryRequest& in) {
    CheckedRequest checked = checkRequest(in, m_provers);
    const InspectedSources sources = inspectSources(in);
    planSource(in, sources, checked);
    api::ProofQuery& query = checked.query;
    const qint64 nowMs = m_clock.nowMs();
    query.id = core::newUlid(nowMs).toStdString();
    query.createdAt = core::toIsoTimestampMs(nowMs).toStdString();
    query.projectId = caller.projectId.toStdString();
    query.submittedByClient = caller.keyId.toStdString();
    query.client.clientId = caller.keyId.toStdString();
    query.client.name = caller.keyName.toStdString();
    query.programHash = sources.programHash;
    m_store.write([&](QSqlDatabase& db) { recordIn(db, caller, in, sources, checked); });
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
    if (in.programHash()) {
        const std::optional<std::string> program = m_programs.fileOf(*sources.programHash);
        if (!program) {
            throw core::ServiceError(core::ErrorKind::BadRequest, "PROGRAM_NOT_FOUND",
                                     "no program with hash " + *sources.programHash +
                                         " is registered: upload its programFile once");
        }
        checked.inputs["program"] = *program;
    }
    if (in.bucketId) {
        // The query takes its job index in an open bucket of the caller's project.
        const BucketPlace place = m_buckets.joinIn(caller, *in.bucketId, in.bucketJobIndex);
        checked.inputs["mockProof"] = place.mockProof;
        query.bucketId = *in.bucketId;
        query.bucketJobIndex = place.jobIndex;
    }
    const QString jobId = m_jobs.enqueueIn(
        db, kStageJob, {{"queryId", query.id}, {"stage", query.steps.front()}}, caller.projectId);
    checked.inputs["job"] = jobId.toStdString();
    m_queries.insertIn(query, checked.inputs);
}

// Every file is read in one sandboxed child: the program (hash, native hints), the input (JSON),
// the PIE or the proof (what it states).
ProofIntake::InspectedSources ProofIntake::inspectSources(const CoreQueryRequest& in) {
    InspectedSources sources;
    std::vector<sandbox::SandboxInput> toInspect;
    const char* fallbackCode = "INVALID_PROGRAM_FILE";
    const bool checkNativeHints = in.inputFile() && in.cairoVm == api::CairoVm::Rust;
    if (in.runsProgram()) {
        if (in.cairoVersion != api::CairoVersion::Cairo0) {
            badRequest("CAIRO1_PROGRAMS_NOT_SUPPORTED",
                       "this server runs Cairo 0 programs; for Cairo 1 submit the run's pieFile");
        }
        if (const UploadedFile* input = in.inputFile()) {
            toInspect.push_back(input->asInput("input"));
        }
        if (const UploadedFile* program = in.programFile()) {
            sources.programDigest = digestOf(*program);
            sources.programHash = m_programs.hashOfFile(*sources.programDigest);
            if (!sources.programHash || checkNativeHints) {
                toInspect.push_back(program->asInput("program"));
            }
        } else {
            const auto felt = crypto::Felt::parse(*in.programHash());
            if (!felt) {
                badRequest("INVALID_PROGRAM_HASH", "programHash is not a field element");
            }
            sources.programHash = felt->toHex();
            const std::optional<std::string> stored = m_programs.fileOf(*sources.programHash);
            if (checkNativeHints && stored) {
                toInspect.push_back({"program", m_artifacts.pathOf(*stored).toStdString()});
            }
        }
    } else if (const UploadedFile* pie = in.pieFile()) {
        toInspect.push_back(pie->asInput("pie"));
        fallbackCode = "INVALID_PIE_FILE";
    } else {
        toInspect.push_back(in.proofFile()->asInput("proof"));
        fallbackCode = "INVALID_PROOF_FILE";
    }
    sources.facts = toInspect.empty()
                        ? nlohmann::json::object()
                        : m_sandbox.inspect(toInspect, checkNativeHints, fallbackCode);
    if (checkNativeHints && sources.facts.contains("program") &&
        sources.facts.at("program").contains("firstPythonOnlyHintPc")) {
        badRequest("INPUT_FILE_NEEDS_CAIRO_VM_PYTHON",
                   "with an inputFile the program's hints read it, and the hint at pc " +
                       sources.facts.at("program").at("firstPythonOnlyHintPc").dump() +
                       " has no native implementation: submit with cairoVm=python to run it as "
                       "Python");
    }
    if (in.programFile() && !sources.programHash) {
        sources.programHash = sources.facts.at("program").value("programHash", std::string());
    }
    return sources;
}

void ProofIntake::planSource(const CoreQueryRequest& in, const InspectedSources& sources,
                             CheckedRequest& checked) {
    api::ProofQuery& query = checked.query;
    nlohmann::json& inputs = checked.inputs;
    if (in.runsProgram()) {
        inputs["source"] = "program";
        if (const UploadedFile* program = in.programFile()) {
            inputs["program"] = registerProgram(*program, *sources.programDigest,
                                                *sources.programHash, query.cairoVersion);
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
        inputs["source"] = "pie";
        inputs["pie"] = storeUpload(*pie);
        query.steps = {api::nameOf(api::Stage::ProofGeneration)};
    } else {
        if (api::chainOf(in.result) == "OFFCHAIN") {
            badRequest("INVALID_RESULT_FOR_PROOF_FILE",
                       "a proofFile is verified: ask for a PROOF_VERIFICATION_ON_* result");
        }
        const std::string statedLayout = sources.facts.at("proof").value("layout", std::string());
        inputs["source"] = "proof";
        inputs["proof"] = storeUpload(*in.proofFile());
        inputs["layout"] = statedLayout;
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
    if (const UploadedFile* input = in.inputFile()) {
        inputs["input"] = storeUpload(*input);
    }
    query.step = query.steps.front();
    query.layout =
        checked.layout == "auto" ? std::nullopt : std::optional<std::string>(checked.layout);
}

} // namespace proofdesk::proof
