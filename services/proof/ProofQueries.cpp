#include "ProofQueries.h"

#include "core/QtText.h"
#include "core/ServiceError.h"

#include <QFileInfo>
#include <QSqlQuery>
#include <QStringList>

#include <algorithm>

namespace proofdesk::proof {

ProofQueries::ProofQueries(core::Store& store, ArtifactStore& artifacts)
    : m_store(store), m_artifacts(artifacts) {}

// --- writes -----------------------------------------------------------------------------------

void ProofQueries::recordFilesIn(const std::string& queryId,
                                 const std::vector<std::string>& digests) {
    m_store.exec(QStringLiteral("DELETE FROM proof_query_files WHERE query_id = ?"),
                 {core::qstr(queryId)});
    for (const std::string& digest : digests) {
        const qint64 size = QFileInfo(m_artifacts.pathOf(digest)).size();
        m_store.exec(QStringLiteral("INSERT INTO proof_query_files (query_id, sha256, size) VALUES "
                                    "(?, ?, ?) ON CONFLICT DO NOTHING"),
                     {core::qstr(queryId), core::qstr(digest), size});
    }
}

void ProofQueries::insertIn(const api::ProofQuery& query, const QueryInputs& inputs) {
    m_store.exec(QStringLiteral("INSERT INTO proof_queries (id, project_id, dedup_id, "
                                "external_id, status, bucket_id, bucket_job_index, "
                                "created_at, doc, inputs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                "?)"),
                 {core::qstr(query.id), core::qstr(query.projectId),
                  query.dedupId ? QVariant(core::qstr(*query.dedupId)) : QVariant(),
                  core::qstr(query.externalId), core::qstr(query.status),
                  query.bucketId ? QVariant(core::qstr(*query.bucketId)) : QVariant(),
                  query.bucketJobIndex ? QVariant(*query.bucketJobIndex) : QVariant(),
                  core::qstr(query.createdAt), core::qstr(api::toJson(query).dump()),
                  core::qstr(nlohmann::json(inputs).dump())});
    recordFilesIn(query.id, inputs.digests());
}

void ProofQueries::saveIn(WorkingQuery& working) {
    m_bodies.invalidate(working.query.id);
    m_store.afterCommit([this, id = working.query.id] { m_bodies.invalidate(id); });
    m_store.exec(QStringLiteral("UPDATE proof_queries SET status = ?, doc = ?, inputs = ? WHERE "
                                "id = ?"),
                 {core::qstr(working.query.status), core::qstr(api::toJson(working.query).dump()),
                  core::qstr(nlohmann::json(working.inputs).dump()), core::qstr(working.query.id)});
    std::vector<std::string> digests = working.inputs.digests();
    if (digests != working.storedDigests) {
        recordFilesIn(working.query.id, digests);
        for (const std::string& digest : working.storedDigests) {
            if (std::find(digests.begin(), digests.end(), digest) == digests.end()) {
                working.released.push_back(digest);
            }
        }
        working.storedDigests = std::move(digests);
    }
}

void ProofQueries::recordArtifactsIn(const std::string& queryId,
                                     const std::vector<NewArtifact>& artifacts) {
    for (const NewArtifact& artifact : artifacts) {
        m_store.exec(QStringLiteral("INSERT INTO proof_artifacts (query_id, name, sha256, size, "
                                    "position) VALUES (?, ?, ?, ?, (SELECT COUNT(*) FROM "
                                    "proof_artifacts WHERE query_id = ?)) ON CONFLICT (query_id, "
                                    "name) DO UPDATE SET sha256 = excluded.sha256, size = "
                                    "excluded.size"),
                     {core::qstr(queryId), core::qstr(artifact.name), core::qstr(artifact.sha256),
                      qlonglong(artifact.size), core::qstr(queryId)});
    }
}

// --- the pipeline's reads ---------------------------------------------------------------------

std::optional<WorkingQuery> ProofQueries::load(const std::string& id) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT doc, inputs FROM proof_queries WHERE id = ?"), {core::qstr(id)});
    if (!row.next()) {
        return std::nullopt;
    }
    WorkingQuery working;
    working.query = api::proofQueryFromJson(nlohmann::json::parse(core::str(row.value(0))));
    working.inputs = nlohmann::json::parse(core::str(row.value(1))).get<QueryInputs>();
    working.storedDigests = working.inputs.digests();
    return working;
}

std::optional<std::string> ProofQueries::idByDedupId(const QString& projectId,
                                                     const std::string& dedupId) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT id FROM proof_queries WHERE project_id = ? AND dedup_id = ?"),
        {projectId, core::qstr(dedupId)});
    return row.next() ? std::optional<std::string>(core::str(row.value(0))) : std::nullopt;
}

std::optional<std::string> ProofQueries::idAtBucketIndex(const std::string& bucketId,
                                                         int bucketJobIndex) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT id FROM proof_queries WHERE bucket_id = ? "
                                                "AND bucket_job_index = ?"),
                                 {core::qstr(bucketId), bucketJobIndex});
    return row.next() ? std::optional<std::string>(core::str(row.value(0))) : std::nullopt;
}

std::vector<api::ProofQuery> ProofQueries::inBucket(const std::string& bucketId) {
    // Members by bucketJobIndex, then the aggregator (bucketJobIndex -1).
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT doc FROM proof_queries WHERE bucket_id "
                                                 "= ? ORDER BY bucket_job_index < 0, "
                                                 "bucket_job_index"),
                                  {core::qstr(bucketId)});
    std::vector<api::ProofQuery> queries;
    while (rows.next()) {
        queries.push_back(api::proofQueryFromJson(nlohmann::json::parse(core::str(rows.value(0)))));
    }
    return queries;
}

std::vector<std::string> ProofQueries::statusesInBucket(const std::string& bucketId,
                                                        const std::string& exceptId) {
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT status FROM proof_queries WHERE "
                                                 "bucket_id = ? AND id != ?"),
                                  {core::qstr(bucketId), core::qstr(exceptId)});
    std::vector<std::string> statuses;
    while (rows.next()) {
        statuses.push_back(core::str(rows.value(0)));
    }
    return statuses;
}

std::vector<std::string> ProofQueries::unfinishedIds() {
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT id FROM proof_queries WHERE status IN ('RECEIVED', 'IN_PROGRESS')"));
    std::vector<std::string> ids;
    while (rows.next()) {
        ids.push_back(core::str(rows.value(0)));
    }
    return ids;
}

// --- the routes' reads ------------------------------------------------------------------------

std::string ProofQueries::artifactUrl(const std::string& queryId, const std::string& name) const {
    return m_publicUrl + "/artifacts/" + queryId + "/" + name;
}

std::vector<std::string> ProofQueries::metadataUrls(const std::string& queryId) {
    std::vector<std::string> urls;
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT name FROM proof_artifacts WHERE "
                                                 "query_id = ? ORDER BY position"),
                                  {core::qstr(queryId)});
    while (rows.next()) {
        urls.push_back(artifactUrl(queryId, core::str(rows.value(0))));
    }
    return urls;
}

api::CoreQueryResponse ProofQueries::coreQuery(const std::string& id) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT doc FROM proof_queries WHERE id = ?"),
                                 {core::qstr(id)});
    if (!row.next()) {
        throw core::ServiceError(core::ErrorKind::NotFound, "CORE_QUERY_NOT_FOUND");
    }
    api::CoreQueryResponse response;
    response.coreQuery = api::proofQueryFromJson(nlohmann::json::parse(core::str(row.value(0))));
    row.finish();
    response.metadataUrls = metadataUrls(id);
    return response;
}

std::string ProofQueries::coreQueryBody(const std::string& id) {
    // On a shared store other processes (workers, other front ends) change queries too, and
    // this process would not hear of it: no cache there, every read goes to the store.
    const bool cached = !m_store.isShared();
    if (auto body = cached ? m_bodies.get(id) : std::nullopt) {
        return *body;
    }
    const std::uint64_t readAt = m_bodies.version();
    // The stored doc is api::toJson(query) in the full view: the response's coreQuery as is.
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT doc, (SELECT %1 FROM (SELECT name, position FROM proof_artifacts "
                       "WHERE query_id = q.id ORDER BY position) AS artifact) FROM proof_queries "
                       "q WHERE q.id = ?")
            .arg(m_store.orderedTextAggregate(QStringLiteral("name"), QStringLiteral("position"))),
        {core::qstr(id)});
    if (!row.next()) {
        throw core::ServiceError(core::ErrorKind::NotFound, "CORE_QUERY_NOT_FOUND");
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
    if (cached) {
        m_bodies.put(id, body, readAt);
    }
    return body;
}

api::CoreQueryResponse ProofQueries::coreQueryByDedupId(const std::string& projectId,
                                                        const std::string& dedupId) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT id FROM proof_queries WHERE project_id = ? AND dedup_id = ?"),
        {core::qstr(projectId), core::qstr(dedupId)});
    if (!row.next()) {
        throw core::ServiceError(core::ErrorKind::NotFound, "CORE_QUERY_NOT_FOUND");
    }
    const std::string id = core::str(row.value(0));
    row.finish();
    return coreQuery(id);
}

std::pair<std::vector<api::ProofQuery>, int> ProofQueries::list(const QString& projectId,
                                                                const QueryFilter& filter) {
    QString where = QStringLiteral(" WHERE project_id = ?");
    QVariantList bindings{projectId};
    if (filter.search && !filter.search->empty()) {
        // A prefix of the id (any case: ids are Crockford base 32), the dedup id or the external
        // id, as the console's search field says.
        where += QStringLiteral(" AND (id %1 ? ESCAPE '\\' OR dedup_id %1 ? ESCAPE '\\' "
                                "OR external_id %1 ? ESCAPE '\\')")
                     .arg(m_store.likeAnyCase());
        QString like = core::qstr(*filter.search);
        like.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
        like += QLatin1Char('%');
        bindings << like << like << like;
    }
    if (filter.status) {
        where += QStringLiteral(" AND status = ?");
        bindings << core::qstr(*filter.status);
    }
    if (filter.network) {
        where += QStringLiteral(" AND %1 = ?")
                     .arg(m_store.jsonTextField(QStringLiteral("doc"), QStringLiteral("network")));
        bindings << core::qstr(*filter.network);
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
        queries.push_back(api::proofQueryFromJson(nlohmann::json::parse(core::str(rows.value(0)))));
    }
    return {queries, total};
}

Artifact ProofQueries::artifact(const std::string& queryId, const std::string& name,
                                bool withBytes) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT sha256 FROM proof_artifacts WHERE query_id = ? AND name = ?"),
        {core::qstr(queryId), core::qstr(name)});
    if (!row.next()) {
        throw core::ServiceError(core::ErrorKind::NotFound, "ARTIFACT_NOT_FOUND");
    }
    Artifact artifact;
    artifact.name = name;
    artifact.path = m_artifacts.pathOf(core::str(row.value(0))).toStdString();
    std::optional<std::string> bytes;
    if (withBytes ? !(bytes = m_artifacts.get(core::str(row.value(0))))
                  : !m_artifacts.contains(core::str(row.value(0)))) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
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

bool ProofQueries::references(const std::string& sha256) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT 1 FROM proof_query_files WHERE sha256 = ? UNION ALL SELECT 1 FROM "
                       "proof_artifacts WHERE sha256 = ? LIMIT 1"),
        {core::qstr(sha256), core::qstr(sha256)});
    return row.next();
}

std::uint64_t ProofQueries::storedBytesOf(const QString& projectId) {
    QSqlQuery row = m_store.exec(
        QStringLiteral(
            "SELECT COALESCE(SUM(size), 0) FROM (SELECT f.sha256, f.size FROM "
            "proof_query_files f JOIN proof_queries q ON q.id = f.query_id WHERE "
            "q.project_id = ? UNION SELECT a.sha256, a.size FROM proof_artifacts a "
            "JOIN proof_queries q ON q.id = a.query_id WHERE q.project_id = ? UNION SELECT "
            "sha256, size FROM proof_project_programs WHERE project_id = ?) AS stored"),
        {projectId, projectId, projectId});
    return row.next() ? std::uint64_t(std::max<qlonglong>(0, row.value(0).toLongLong())) : 0;
}

std::string ProofQueries::projectOf(const std::string& queryId) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT project_id FROM proof_queries WHERE id = ?"), {core::qstr(queryId)});
    return row.next() ? core::str(row.value(0)) : std::string();
}

} // namespace proofdesk::proof
