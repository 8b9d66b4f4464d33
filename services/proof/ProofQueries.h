#pragma once

#include "ArtifactStore.h"
#include "QueryBodyCache.h"
#include "QueryInputs.h"
#include "api/ProofWire.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::proof {

// GET /core-query's filters.
struct QueryFilter {
    int limit = 50;
    int offset = 0;
    std::optional<std::string> search; // id, dedupId, or a prefix of externalId
    std::optional<std::string> status;
    std::optional<std::string> network;
};

// One artifact of a query, as GET /artifacts/{id}/{name} serves it.
struct Artifact {
    std::string name;
    std::string contentType;
    std::string bytes; // unless read without them
    std::string path;  // the stored file
};

// What a running stage produced, recorded when the stage ends (StageRecorder).
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

// A query as the pipeline works on it: the record, its inputs (source, artifact digests, options,
// the current job), and what the running stage produced, written when it finishes.
struct WorkingQuery {
    api::ProofQuery query;
    QueryInputs inputs;
    std::vector<NewArtifact> newArtifacts;
    std::optional<NewFact> newFact;
    // The artifacts the stored inputs name (what saveIn last recorded), so that a save rewrites
    // the query's file references only when they change; those a save stopped naming (a proven
    // run's files), for the collector once the write commits.
    std::vector<std::string> storedDigests;
    std::vector<std::string> released;
    // The files the running stage stored, held until the rows naming them commit.
    std::vector<ArtifactStore::Pin> pins;
};

// The stored proof queries and the names of their artifacts: the one unit that holds the SQL of
// `proof_queries`, `proof_artifacts` and `proof_query_files` (the artifacts a query's inputs name,
// so that whether a stored file is still needed is one indexed read). The writes (…In) run inside
// the caller's Store::write; the reads answer the query routes, the hot GET /core-query/{id} from
// a cache of bodies.
class ProofQueries {
public:
    ProofQueries(core::Store& store, ArtifactStore& artifacts);

    // The proof service's base URL, for metadataUrls. Set before serving.
    void setPublicUrl(const std::string& proofUrl) { m_publicUrl = proofUrl; }
    const std::string& publicUrl() const { return m_publicUrl; }

    void insertIn(const api::ProofQuery& query, const QueryInputs& inputs);
    void saveIn(WorkingQuery& working);
    // Adds (or replaces, by name) artifacts of a query, after those it has.
    void recordArtifactsIn(const std::string& queryId, const std::vector<NewArtifact>& artifacts);

    std::optional<WorkingQuery> load(const std::string& id);
    std::optional<std::string> idByDedupId(const QString& projectId, const std::string& dedupId);
    std::optional<std::string> idAtBucketIndex(const std::string& bucketId, int bucketJobIndex);
    // A bucket's queries: its members by bucketJobIndex, then its aggregator.
    std::vector<api::ProofQuery> inBucket(const std::string& bucketId);
    // The statuses of a bucket's queries other than `exceptId`.
    std::vector<std::string> statusesInBucket(const std::string& bucketId,
                                              const std::string& exceptId);
    // The queries a stop may have left RECEIVED or IN_PROGRESS.
    std::vector<std::string> unfinishedIds();

    api::CoreQueryResponse coreQuery(const std::string& id);
    // The body of GET /core-query/{id}, {"coreQuery": full record, "metadataUrls": [...]}, built
    // from the stored record without parsing it again (the hot read path).
    std::string coreQueryBody(const std::string& id);
    api::CoreQueryResponse coreQueryByDedupId(const std::string& projectId,
                                              const std::string& dedupId);
    std::pair<std::vector<api::ProofQuery>, int> list(const QString& projectId,
                                                      const QueryFilter& filter);
    Artifact artifact(const std::string& queryId, const std::string& name, bool withBytes = true);
    // Whether any query names the artifact `sha256`, as an input or as one of its artifacts.
    bool references(const std::string& sha256);
    // The project of a query (empty when there is none).
    std::string projectOf(const std::string& queryId);
    // The bytes of the distinct files a project's queries name (inputs, artifacts, run files)
    // and its programs are.
    std::uint64_t storedBytesOf(const QString& projectId);

private:
    void recordFilesIn(const std::string& queryId, const std::vector<std::string>& digests);
    std::vector<std::string> metadataUrls(const std::string& queryId);
    std::string artifactUrl(const std::string& queryId, const std::string& name) const;

    core::Store& m_store;
    ArtifactStore& m_artifacts;
    QueryBodyCache m_bodies;
    std::string m_publicUrl;
};

} // namespace proofdesk::proof
