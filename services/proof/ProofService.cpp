#include "ProofService.h"

#include "ProofInternal.h"
#include "ProofSchema.h"
#include "api/Identifiers.h"
#include "cairo/python/PythonHints.h"
#include "cairo/vm/Layout.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"
#include "crypto/Hex.h"

#include <QByteArray>
#include <QSqlQuery>

#include <algorithm>
#include <limits>

namespace proofdesk::proof {
namespace {

using detail::kAggregateJob;
using detail::kStageJob;
using detail::qstr;
using detail::str;

[[noreturn]] void badRequest(const char* code, const std::string& detail = {}) {
    throw ServiceError(ErrorKind::BadRequest, code, detail);
}

std::string chainFor(const std::string& result) {
    const std::string prefix = "PROOF_VERIFICATION_ON_";
    if (result.rfind(prefix, 0) == 0) {
        return result.substr(prefix.size());
    }
    return "OFFCHAIN";
}

} // namespace

namespace detail {

std::string bytes32Hex(const crypto::Felt& value) {
    return "0x" + crypto::toBytes32(value).toHex().toStdString();
}

void setJobSize(api::ProofQuery& query, std::uint64_t steps) {
    const std::string size = steps < (std::uint64_t{1} << 20) ? "XS"
                             : steps <= 13'000'000            ? "S"
                             : steps <= 30'000'000            ? "M"
                                                              : "L";
    const auto rank = [](const std::string& name) {
        const auto& sizes = api::proof_enums::kJobSizes;
        return std::find(sizes.begin(), sizes.end(), name) - sizes.begin();
    };
    query.jobSize = size;
    query.isJobSizeValid = rank(size) <= rank(query.declaredJobSize);
}

} // namespace detail

ProofService::ProofService(Store& store, const Clock& clock, JobEngine& jobs,
                           const QString& dataDir, ProverSettings provers)
    : m_store(store), m_clock(clock), m_jobs(jobs),
      m_artifacts(dataDir + QStringLiteral("/artifacts")),
      m_workDir(dataDir + QStringLiteral("/work")), m_provers(std::move(provers)),
      m_sandbox(m_provers, QString(m_workDir + QStringLiteral("/sandbox")).toStdString()),
      m_credits(store), // applies the proof service's migrations (its tables are theirs)
      m_facts(store, clock) {
    m_jobs.registerHandler(kStageJob, [this](const JobRecord& job, JobContext& context) {
        return runStage(job, context);
    });
    m_jobs.registerHandler(kAggregateJob, [this](const JobRecord& job, JobContext& context) {
        return runAggregation(job, context);
    });
}

std::vector<Migration> ProofService::migrations() {
    return proofMigrations();
}

void ProofService::setPublicUrl(const QString& proofUrl) {
    m_publicUrl = proofUrl.toStdString();
}

// --- programs ---------------------------------------------------------------------------------

std::optional<std::string> ProofService::registeredHash(const std::string& digest) {
    QSqlQuery known = m_store.exec(
        QStringLiteral("SELECT program_hash FROM proof_programs WHERE sha256 = ?"), {qstr(digest)});
    if (known.next() && m_artifacts.contains(digest)) {
        return str(known.value(0));
    }
    return std::nullopt;
}

std::string ProofService::digestOf(const UploadedFile& file) {
    return file.onDisk() ? ArtifactStore::sha256OfFile(file.path)
                         : ArtifactStore::sha256Of(file.content);
}

std::string ProofService::storeUpload(const UploadedFile& file, const std::string& digest) {
    if (file.onDisk()) {
        m_artifacts.putFile(file.path, digest);
    } else {
        m_artifacts.put(file.content, digest);
    }
    return digest;
}

std::string ProofService::storeUpload(const UploadedFile& file) {
    return storeUpload(file, digestOf(file));
}

ProofService::RegisteredProgram ProofService::registerProgram(const UploadedFile& text,
                                                              const std::string& digest,
                                                              const std::string& programHash,
                                                              const std::string& cairoVersion) {
    storeUpload(text, digest);
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("INSERT OR IGNORE INTO proof_programs (program_hash, sha256, "
                                    "cairo_version, size, created_at) VALUES (?, ?, ?, ?, ?)"),
                     {qstr(programHash), qstr(digest), qstr(cairoVersion),
                      qlonglong(text.byteCount()), toIsoTimestamp(m_clock.now())});
    });
    return {programHash, digest};
}

std::string ProofService::submitProgram(const UploadedFile& programFile,
                                        const std::string& cairoVersion) {
    const std::string digest = digestOf(programFile);
    if (const auto known = registeredHash(digest)) {
        return *known;
    }
    const nlohmann::json facts =
        m_sandbox.inspect({programFile.asInput("program")}, false, "INVALID_PROGRAM_FILE");
    const std::string hash = facts.at("program").value("programHash", std::string());
    return registerProgram(programFile, digest, hash, cairoVersion).programHash;
}

std::optional<std::string> ProofService::programText(const std::string& programHash) {
    QSqlQuery known =
        m_store.exec(QStringLiteral("SELECT sha256 FROM proof_programs WHERE program_hash = ?"),
                     {qstr(programHash)});
    if (!known.next()) {
        return std::nullopt;
    }
    return m_artifacts.get(str(known.value(0)));
}

bool ProofService::programExists(const std::string& programHash) {
    QSqlQuery known = m_store.exec(
        QStringLiteral("SELECT 1 FROM proof_programs WHERE program_hash = ?"), {qstr(programHash)});
    return known.next();
}

// --- submission -------------------------------------------------------------------------------

std::string ProofService::submit(const Caller& caller, const Submission& in) {
    CheckedSubmission checked = checkSubmission(in, m_provers);
    const InspectedSources sources = inspectSources(in, checked);
    planSource(in, sources, checked);
    api::ProofQuery& query = checked.query;
    const qint64 nowMs = m_clock.nowMs();
    query.id = newUlid(nowMs).toStdString();
    query.createdAt = toIsoTimestampMs(nowMs).toStdString();
    query.projectId = caller.projectId.toStdString();
    query.submittedByClient = caller.keyId.toStdString();
    query.client.clientId = caller.keyId.toStdString();
    query.client.name = caller.keyName.toStdString();
    query.programHash = sources.programHash;

    m_store.write([&](QSqlDatabase& db) {
        m_credits.chargeOneIn(caller.projectId, m_publicUrl + "/core-query");
        if (query.dedupId) {
            QSqlQuery existing = m_store.exec(
                QStringLiteral(
                    "SELECT id FROM proof_queries WHERE project_id = ? AND dedup_id = ?"),
                {caller.projectId, qstr(*query.dedupId)});
            if (existing.next()) {
                throw ServiceError(ErrorKind::Conflict, "CORE_QUERY_WITH_DEDUP_ID_ALREADY_EXISTS",
                                   {}, {{"coreQueryId", str(existing.value(0))}});
            }
        }
        if (checked.hasProgramHash) {
            QSqlQuery program = m_store.exec(
                QStringLiteral("SELECT sha256 FROM proof_programs WHERE program_hash = ?"),
                {qstr(*sources.programHash)});
            if (!program.next()) {
                throw ServiceError(ErrorKind::BadRequest, "PROGRAM_NOT_FOUND",
                                   "no program with hash " + *sources.programHash +
                                       " is registered: upload its programFile once");
            }
            checked.inputs["program"] = str(program.value(0));
        }
        if (in.bucketId && !in.bucketId->empty()) {
            joinBucketIn(caller, *in.bucketId, checked);
        }
        insertQueryIn(db, caller, checked);
    });
    m_jobs.wake();
    return query.id;
}

// Every file is read in one sandboxed child: the program (hash, native hints), the input (JSON),
// the PIE or the proof (what it states).
ProofService::InspectedSources ProofService::inspectSources(const Submission& in,
                                                            const CheckedSubmission& checked) {
    const api::ProofQuery& query = checked.query;
    InspectedSources sources;
    std::vector<sandbox::SandboxInput> toInspect;
    const char* fallbackCode = "INVALID_PROGRAM_FILE";
    const bool checkNativeHints = in.inputFile && query.cairoVm == "rust";
    if (in.programFile || checked.hasProgramHash) {
        if (query.cairoVersion != "cairo0") {
            badRequest("CAIRO1_PROGRAMS_NOT_SUPPORTED",
                       "this server runs Cairo 0 programs; for Cairo 1 submit the run's pieFile");
        }
        if (in.inputFile) {
            toInspect.push_back(in.inputFile->asInput("input"));
        }
        if (in.programFile) {
            sources.programDigest = digestOf(*in.programFile);
            sources.programHash = registeredHash(*sources.programDigest);
            if (!sources.programHash || checkNativeHints) {
                toInspect.push_back(in.programFile->asInput("program"));
            }
        } else {
            const auto felt = crypto::Felt::parse(*in.programHash);
            if (!felt) {
                badRequest("INVALID_PROGRAM_HASH", "programHash is not a field element");
            }
            sources.programHash = felt->toHex();
            QSqlQuery stored = m_store.exec(
                QStringLiteral("SELECT sha256 FROM proof_programs WHERE program_hash = ?"),
                {qstr(*sources.programHash)});
            if (checkNativeHints && stored.next()) {
                toInspect.push_back(
                    {"program", m_artifacts.pathOf(str(stored.value(0))).toStdString()});
            }
        }
    } else if (in.pieFile) {
        toInspect.push_back(in.pieFile->asInput("pie"));
        fallbackCode = "INVALID_PIE_FILE";
    } else {
        toInspect.push_back(in.proofFile->asInput("proof"));
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
    if (in.programFile && !sources.programHash) {
        sources.programHash = sources.facts.at("program").value("programHash", std::string());
    }
    return sources;
}

// The query's source in its inputs (a registered program, a stored PIE or proof), its steps and
// its layout.
void ProofService::planSource(const Submission& in, const InspectedSources& sources,
                              CheckedSubmission& checked) {
    api::ProofQuery& query = checked.query;
    nlohmann::json& inputs = checked.inputs;
    if (in.programFile || checked.hasProgramHash) {
        inputs["source"] = "program";
        if (in.programFile) {
            inputs["program"] = registerProgram(*in.programFile, *sources.programDigest,
                                                *sources.programHash, query.cairoVersion)
                                    .sha256;
        }
        query.steps = {"TRACE_GENERATION"};
        if (query.result != "TRACE_GENERATION") {
            query.steps.push_back("PROOF_GENERATION");
        }
    } else if (in.pieFile) {
        if (query.result == "TRACE_GENERATION") {
            badRequest("INVALID_RESULT_FOR_PIE_FILE",
                       "a pieFile is already a trace: ask for PROOF_GENERATION or a "
                       "PROOF_VERIFICATION_ON_* result");
        }
        inputs["source"] = "pie";
        inputs["pie"] = storeUpload(*in.pieFile);
        query.steps = {"PROOF_GENERATION"};
    } else {
        if (chainFor(query.result) == "OFFCHAIN") {
            badRequest("INVALID_RESULT_FOR_PROOF_FILE",
                       "a proofFile is verified: ask for a PROOF_VERIFICATION_ON_* result");
        }
        const std::string statedLayout = sources.facts.at("proof").value("layout", std::string());
        inputs["source"] = "proof";
        inputs["proof"] = storeUpload(*in.proofFile);
        inputs["layout"] = statedLayout;
        checked.layout = statedLayout;
        query.steps = {};
    }
    query.chain = chainFor(query.result);
    if (query.chain != "OFFCHAIN") {
        query.steps.push_back("PROOF_VERIFICATION");
    }
    if (query.result == "PROOF_VERIFICATION_ON_L2" &&
        (checked.layout == "dynamic" || checked.layout == "all_cairo")) {
        badRequest("INVALID_LAYOUT_FOR_PROOF_VERIFICATION_ON_INTEGRITY_L2",
                   "Integrity cannot verify proofs of layout " + checked.layout);
    }
    if (in.inputFile) {
        inputs["input"] = storeUpload(*in.inputFile);
    }
    query.step = query.steps.front();
    query.layout =
        checked.layout == "auto" ? std::nullopt : std::optional<std::string>(checked.layout);
}

// Within the submission's transaction: the query takes its job index in an open bucket of the
// caller's project (the one asked for, or the next free one).
void ProofService::joinBucketIn(const Caller& caller, const std::string& bucketId,
                                CheckedSubmission& checked) {
    QSqlQuery bucket = m_store.exec(
        QStringLiteral("SELECT project_id, status, doc, next_job_index FROM proof_buckets "
                       "WHERE id = ?"),
        {qstr(bucketId)});
    if (!bucket.next() || bucket.value(0).toString() != caller.projectId) {
        throw ServiceError(ErrorKind::NotFound, "BUCKET_NOT_FOUND");
    }
    const std::string status = str(bucket.value(1));
    api::ProofBucket record = api::proofBucketFromJson(nlohmann::json::parse(str(bucket.value(2))));
    int next = bucket.value(3).toInt();
    bucket.finish();
    if (status != "OPEN") {
        throw ServiceError(ErrorKind::Conflict, "BUCKET_NOT_OPEN",
                           "bucket " + bucketId + " is " + status);
    }
    std::optional<int>& jobIndex = checked.bucketJobIndex;
    if (jobIndex) {
        QSqlQuery taken =
            m_store.exec(QStringLiteral("SELECT id FROM proof_queries WHERE bucket_id = ? AND "
                                        "bucket_job_index = ?"),
                         {qstr(bucketId), *jobIndex});
        if (taken.next()) {
            throw ServiceError(ErrorKind::Conflict, "BUCKET_JOB_INDEX_TAKEN", {},
                               {{"coreQueryId", str(taken.value(0))}});
        }
    } else {
        jobIndex = next;
    }
    next = std::max(next, *jobIndex + 1);
    record.leaves += 1;
    checked.inputs["mockProof"] = record.mockProof;
    m_store.exec(QStringLiteral("UPDATE proof_buckets SET next_job_index = ?, doc = ? "
                                "WHERE id = ?"),
                 {next, qstr(api::toJson(record).dump()), qstr(record.id)});
    checked.query.bucketId = bucketId;
    checked.query.bucketJobIndex = jobIndex;
}

// Within the submission's transaction: the query's row and its first stage's job.
void ProofService::insertQueryIn(QSqlDatabase& db, const Caller& caller,
                                 CheckedSubmission& checked) {
    const api::ProofQuery& query = checked.query;
    const QString jobId = m_jobs.enqueueIn(
        db, kStageJob, {{"queryId", query.id}, {"stage", query.steps.front()}}, caller.projectId);
    checked.inputs["job"] = jobId.toStdString();
    m_store.exec(
        QStringLiteral("INSERT INTO proof_queries (id, project_id, dedup_id, "
                       "external_id, status, bucket_id, bucket_job_index, "
                       "created_at, doc, inputs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                       "?)"),
        {qstr(query.id), caller.projectId,
         query.dedupId ? QVariant(qstr(*query.dedupId)) : QVariant(), qstr(query.externalId),
         qstr(query.status), query.bucketId ? QVariant(qstr(*query.bucketId)) : QVariant(),
         query.bucketJobIndex ? QVariant(*query.bucketJobIndex) : QVariant(), qstr(query.createdAt),
         qstr(api::toJson(query).dump()), qstr(checked.inputs.dump())});
}

// --- reads ------------------------------------------------------------------------------------

std::optional<ProofService::Loaded> ProofService::load(const std::string& id) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT doc, inputs FROM proof_queries WHERE id = ?"), {qstr(id)});
    if (!row.next()) {
        return std::nullopt;
    }
    Loaded loaded;
    loaded.query = api::proofQueryFromJson(nlohmann::json::parse(str(row.value(0))));
    loaded.inputs = nlohmann::json::parse(str(row.value(1)));
    return loaded;
}

void ProofService::saveIn(const Loaded& loaded) {
    m_bodies.invalidate(loaded.query.id);
    m_store.afterCommit([this, id = loaded.query.id] { m_bodies.invalidate(id); });
    m_store.exec(QStringLiteral("UPDATE proof_queries SET status = ?, doc = ?, inputs = ? WHERE "
                                "id = ?"),
                 {qstr(loaded.query.status), qstr(api::toJson(loaded.query).dump()),
                  qstr(loaded.inputs.dump()), qstr(loaded.query.id)});
}

std::string ProofService::artifactUrl(const std::string& queryId, const std::string& name) const {
    return m_publicUrl + "/artifacts/" + queryId + "/" + name;
}

std::vector<std::string> ProofService::metadataUrls(const std::string& queryId) {
    std::vector<std::string> urls;
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT name FROM proof_artifacts WHERE "
                                                 "query_id = ? ORDER BY position"),
                                  {qstr(queryId)});
    while (rows.next()) {
        urls.push_back(artifactUrl(queryId, str(rows.value(0))));
    }
    return urls;
}

api::CoreQueryResponse ProofService::coreQuery(const std::string& id) {
    QSqlQuery row =
        m_store.exec(QStringLiteral("SELECT doc FROM proof_queries WHERE id = ?"), {qstr(id)});
    if (!row.next()) {
        throw ServiceError(ErrorKind::NotFound, "CORE_QUERY_NOT_FOUND");
    }
    api::CoreQueryResponse response;
    response.coreQuery = api::proofQueryFromJson(nlohmann::json::parse(str(row.value(0))));
    row.finish();
    response.metadataUrls = metadataUrls(id);
    return response;
}

std::string ProofService::coreQueryBody(const std::string& id) {
    if (auto cached = m_bodies.get(id)) {
        return *cached;
    }
    const std::uint64_t readAt = m_bodies.version();
    // The stored doc is api::toJson(query) in the full view: the response's coreQuery as is.
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT doc, (SELECT group_concat(name, ' ') FROM (SELECT name FROM "
                       "proof_artifacts WHERE query_id = q.id ORDER BY position)) FROM "
                       "proof_queries q WHERE q.id = ?"),
        {qstr(id)});
    if (!row.next()) {
        throw ServiceError(ErrorKind::NotFound, "CORE_QUERY_NOT_FOUND");
    }
    std::string body = R"({"coreQuery":)";
    body.append(row.value(0).toString().toStdString());
    body.append(R"(,"metadataUrls":[)");
    const QStringList names = row.value(1).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (i > 0) {
            body.push_back(',');
        }
        body.append(nlohmann::json(artifactUrl(id, names[i].toStdString())).dump());
    }
    body.append("]}");
    m_bodies.put(id, body, readAt);
    return body;
}

api::CoreQueryResponse ProofService::coreQueryByDedupId(const std::string& projectId,
                                                        const std::string& dedupId) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT id FROM proof_queries WHERE project_id = ? AND dedup_id = ?"),
        {qstr(projectId), qstr(dedupId)});
    if (!row.next()) {
        throw ServiceError(ErrorKind::NotFound, "CORE_QUERY_NOT_FOUND");
    }
    const std::string id = str(row.value(0));
    row.finish();
    return coreQuery(id);
}

std::pair<std::vector<api::ProofQuery>, int> ProofService::listQueries(const QString& projectId,
                                                                       const QueryFilter& filter) {
    QString where = QStringLiteral(" WHERE project_id = ?");
    QVariantList bindings{projectId};
    if (filter.search && !filter.search->empty()) {
        // A prefix of the id (any case: ids are Crockford base 32), the dedup id or the external
        // id, as the console's search field says.
        where += QStringLiteral(" AND (id LIKE ? ESCAPE '\\' OR dedup_id LIKE ? ESCAPE '\\' "
                                "OR external_id LIKE ? ESCAPE '\\')");
        QString like = qstr(*filter.search);
        like.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
        like += QLatin1Char('%');
        bindings << like << like << like;
    }
    if (filter.status) {
        where += QStringLiteral(" AND status = ?");
        bindings << qstr(*filter.status);
    }
    if (filter.network) {
        where += QStringLiteral(" AND json_extract(doc, '$.network') = ?");
        bindings << qstr(*filter.network);
    }
    QSqlQuery count =
        m_store.exec(QStringLiteral("SELECT COUNT(*) FROM proof_queries") + where, bindings);
    count.next();
    const int total = count.value(0).toInt();
    count.finish();
    QVariantList pageBindings = bindings;
    pageBindings << filter.limit << filter.offset;
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT doc FROM proof_queries") + where +
                                      QStringLiteral(" ORDER BY id DESC LIMIT ? OFFSET ?"),
                                  pageBindings);
    std::vector<api::ProofQuery> queries;
    while (rows.next()) {
        queries.push_back(api::proofQueryFromJson(nlohmann::json::parse(str(rows.value(0)))));
    }
    return {queries, total};
}

Artifact ProofService::artifact(const std::string& queryId, const std::string& name,
                                bool withBytes) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT sha256 FROM proof_artifacts WHERE query_id = ? AND name = ?"),
        {qstr(queryId), qstr(name)});
    if (!row.next()) {
        throw ServiceError(ErrorKind::NotFound, "ARTIFACT_NOT_FOUND");
    }
    Artifact artifact;
    artifact.name = name;
    artifact.path = m_artifacts.pathOf(str(row.value(0))).toStdString();
    std::optional<std::string> bytes;
    if (withBytes ? !(bytes = m_artifacts.get(str(row.value(0))))
                  : !m_artifacts.contains(str(row.value(0)))) {
        throw ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                           "artifact file missing for " + queryId + "/" + name);
    }
    if (bytes) {
        artifact.bytes = std::move(*bytes);
    }
    const auto endsWith = [&name](const char* suffix) {
        const std::string tail(suffix);
        return name.size() >= tail.size() &&
               name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    artifact.contentType = endsWith(".json")  ? "application/json"
                           : endsWith(".zip") ? "application/zip"
                                              : "application/octet-stream";
    return artifact;
}

} // namespace proofdesk::proof
