#include "BucketAggregation.h"

#include "core/QtText.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"
#include "core/WorkKinds.h"
#include "crypto/Keccak.h"

#include <QByteArray>
#include <QSqlQuery>

#include <algorithm>
#include <limits>

namespace proofdesk::proof {
namespace {

// The job kind of a bucket's aggregation (payload: bucketId, queryId).
const QString kAggregateJob = QStringLiteral("proof.aggregate");

QByteArray bytesOfHex(const std::string& hex) {
    return QByteArray::fromHex(QByteArray::fromStdString(hex.substr(2)));
}

} // namespace

BucketAggregation::BucketAggregation(core::Store& store, const core::Clock& clock,
                                     core::JobEngine& jobs, ProofQueries& queries,
                                     StageRecorder& stages, ProofCheck& check)
    : m_store(store), m_clock(clock), m_jobs(jobs), m_queries(queries), m_stages(stages),
      m_check(check) {
    m_jobs.registerHandler(kAggregateJob,
                           [this](const core::JobRecord& job, core::JobContext& context) {
                               return aggregate(job, context);
                           });
}

void BucketAggregation::setStatusIn(api::ProofBucket& bucket, const char* status) {
    bucket.status = status;
    m_store.exec(
        QStringLiteral("UPDATE proof_buckets SET status = ?, doc = ? WHERE id = ?"),
        {core::qstr(bucket.status), core::qstr(api::toJson(bucket).dump()), core::qstr(bucket.id)});
}

api::ProofBucket BucketAggregation::create(const Caller& caller,
                                           const api::BucketCreation& request) {
    api::ProofBucket bucket;
    const qint64 nowMs = m_clock.nowMs();
    bucket.id = core::newUlid(nowMs).toStdString();
    bucket.createdAt = core::toIsoTimestampMs(nowMs).toStdString();
    bucket.externalId = request.externalId;
    bucket.aggregatorParams = request.aggregatorParams;
    if (request.aggregatorVersion) {
        if (!api::proof_enums::contains(api::proof_enums::kAggregatorVersions,
                                        *request.aggregatorVersion)) {
            throw core::ServiceError(core::ErrorKind::BadRequest, "INVALID_AGGREGATOR_VERSION",
                                     "aggregatorVersion is snos_aggregator_0.13.2 or "
                                     "snos_aggregator_0.13.3");
        }
        bucket.aggregatorVersion = *request.aggregatorVersion;
    }
    if (request.nodeWidth) {
        if (*request.nodeWidth < 2) {
            throw core::ServiceError(core::ErrorKind::BadRequest, "INVALID_NODE_WIDTH",
                                     "nodeWidth is the tree's fan-out: an integer of at least 2");
        }
        bucket.nodeWidth = *request.nodeWidth;
    }
    bucket.mockProof = request.mockProof;
    bucket.projectId = caller.projectId.toStdString();
    bucket.createdByClient = caller.keyId.toStdString();
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("INSERT INTO proof_buckets (id, project_id, status, "
                                    "created_at, doc) VALUES (?, ?, ?, ?, ?)"),
                     {core::qstr(bucket.id), caller.projectId, core::qstr(bucket.status),
                      core::qstr(bucket.createdAt), core::qstr(api::toJson(bucket).dump())});
    });
    return bucket;
}

std::pair<std::vector<api::ProofBucket>, int> BucketAggregation::list(const QString& projectId,
                                                                      int limit, int offset) {
    QSqlQuery count = m_store.exec(
        QStringLiteral("SELECT COUNT(*) FROM proof_buckets WHERE project_id = ?"), {projectId});
    count.next();
    const int total = count.value(0).toInt();
    count.finish();
    QSqlQuery rows = m_store.exec(QStringLiteral("SELECT doc FROM proof_buckets WHERE project_id "
                                                 "= ? ORDER BY id DESC LIMIT ? OFFSET ?"),
                                  {projectId, limit, offset});
    std::vector<api::ProofBucket> buckets;
    while (rows.next()) {
        buckets.push_back(
            api::proofBucketFromJson(nlohmann::json::parse(core::str(rows.value(0)))));
    }
    return {buckets, total};
}

std::pair<api::ProofBucket, std::vector<api::ProofQuery>>
BucketAggregation::bucket(const std::string& id) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT doc FROM proof_buckets WHERE id = ?"),
                                 {core::qstr(id)});
    if (!row.next()) {
        throw core::ServiceError(core::ErrorKind::NotFound, "BUCKET_NOT_FOUND");
    }
    api::ProofBucket bucket =
        api::proofBucketFromJson(nlohmann::json::parse(core::str(row.value(0))));
    row.finish();
    return {bucket, m_queries.inBucket(id)};
}

api::ProofBucket BucketAggregation::close(const Caller& caller,
                                          const std::optional<std::string>& bucketId) {
    api::ProofBucket bucket;
    m_store.write([&](QSqlDatabase&) {
        QSqlQuery row =
            bucketId ? m_store.exec(QStringLiteral("SELECT doc, project_id FROM proof_buckets "
                                                   "WHERE id = ?"),
                                    {core::qstr(*bucketId)})
                     : m_store.exec(QStringLiteral("SELECT doc, project_id FROM proof_buckets "
                                                   "WHERE project_id = ? AND status = 'OPEN' "
                                                   "ORDER BY id DESC LIMIT 1"),
                                    {caller.projectId});
        // Another project's bucket is answered as if it did not exist, as a submission into it
        // is: nothing tells a caller which bucket ids other projects hold.
        if (!row.next() || row.value(1).toString() != caller.projectId) {
            throw core::ServiceError(core::ErrorKind::NotFound, "BUCKET_NOT_FOUND");
        }
        bucket = api::proofBucketFromJson(nlohmann::json::parse(core::str(row.value(0))));
        row.finish();
        if (bucket.status != "OPEN") {
            throw core::ServiceError(core::ErrorKind::Conflict, "BUCKET_NOT_OPEN",
                                     "bucket " + bucket.id + " is already " + bucket.status);
        }
        if (bucket.leaves == 0) {
            setStatusIn(bucket, "DONE"); // nothing to aggregate
        } else {
            api::ProofQuery aggregator;
            const qint64 nowMs = m_clock.nowMs();
            aggregator.id = core::newUlid(nowMs).toStdString();
            aggregator.createdAt = core::toIsoTimestampMs(nowMs).toStdString();
            aggregator.externalId = bucket.externalId.value_or("");
            aggregator.result = "PROOF_VERIFICATION_ON_" + bucket.chain;
            aggregator.chain = bucket.chain;
            aggregator.steps = {"FACT_HASH_REGISTRATION"};
            aggregator.step = "FACT_HASH_REGISTRATION";
            aggregator.projectId = bucket.projectId;
            aggregator.submittedByClient = caller.keyId.toStdString();
            aggregator.client.clientId = caller.keyId.toStdString();
            aggregator.client.name = caller.keyName.toStdString();
            aggregator.bucketId = bucket.id;
            aggregator.bucketJobIndex = -1;
            aggregator.sharpProver.reset();
            m_queries.insertIn(aggregator, QueryInputs{}); // no source: the aggregator
            m_store.exec(QStringLiteral("UPDATE proof_buckets SET aggregator_query_id = ? WHERE "
                                        "id = ?"),
                         {core::qstr(aggregator.id), core::qstr(bucket.id)});
            setStatusIn(bucket, "IN_PROGRESS");
        }
        maybeAggregateIn(bucket.id);
    });
    m_jobs.wake();
    return bucket;
}

BucketPlace BucketAggregation::joinIn(const Caller& caller, const std::string& bucketId,
                                      std::optional<int> jobIndex) {
    QSqlQuery bucket = m_store.exec(
        QStringLiteral("SELECT project_id, status, doc, next_job_index FROM proof_buckets "
                       "WHERE id = ?"),
        {core::qstr(bucketId)});
    if (!bucket.next() || bucket.value(0).toString() != caller.projectId) {
        throw core::ServiceError(core::ErrorKind::NotFound, "BUCKET_NOT_FOUND");
    }
    const std::string status = core::str(bucket.value(1));
    api::ProofBucket record =
        api::proofBucketFromJson(nlohmann::json::parse(core::str(bucket.value(2))));
    int next = bucket.value(3).toInt();
    bucket.finish();
    if (status != "OPEN") {
        throw core::ServiceError(core::ErrorKind::Conflict, "BUCKET_NOT_OPEN",
                                 "bucket " + bucketId + " is " + status);
    }
    if (jobIndex) {
        if (const auto taken = m_queries.idAtBucketIndex(bucketId, *jobIndex)) {
            throw core::ServiceError(core::ErrorKind::Conflict, "BUCKET_JOB_INDEX_TAKEN", {},
                                     {{"coreQueryId", *taken}});
        }
    } else {
        jobIndex = next;
    }
    next = std::max(next, *jobIndex + 1);
    record.leaves += 1;
    m_store.exec(QStringLiteral("UPDATE proof_buckets SET next_job_index = ?, doc = ? "
                                "WHERE id = ?"),
                 {next, core::qstr(api::toJson(record).dump()), core::qstr(record.id)});
    return {*jobIndex, record.mockProof};
}

void BucketAggregation::maybeAggregateIn(const std::string& bucketId) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT status, aggregator_query_id FROM "
                                                "proof_buckets WHERE id = ?"),
                                 {core::qstr(bucketId)});
    if (!row.next() || core::str(row.value(0)) != "IN_PROGRESS" || row.value(1).isNull()) {
        return;
    }
    const std::string aggregatorId = core::str(row.value(1));
    row.finish();
    std::optional<WorkingQuery> aggregator = m_queries.load(aggregatorId);
    if (!aggregator || aggregator->query.status != "RECEIVED" || !aggregator->inputs.job.empty()) {
        return;
    }
    bool anyFailed = false;
    bool allDone = true;
    for (const std::string& status : m_queries.statusesInBucket(bucketId, aggregatorId)) {
        anyFailed = anyFailed || status == "FAILED";
        allDone = allDone && status == "DONE";
    }
    if (!anyFailed && !allDone) {
        return;
    }
    QSqlDatabase db = m_store.connection();
    const QString job =
        m_jobs.enqueueIn(db, kAggregateJob, {{"bucketId", bucketId}, {"queryId", aggregatorId}},
                         core::qstr(aggregator->query.projectId), core::work_kinds::kAggregate);
    aggregator->inputs.job = job.toStdString();
    m_queries.saveIn(*aggregator);
}

std::optional<std::string> BucketAggregation::verifiedLeaf(const api::ProofQuery& member,
                                                           core::JobContext& context,
                                                           std::string* why) {
    if (member.transactionId && !member.isFactMocked && member.sharpFactHash) {
        return member.sharpFactHash; // verified at its PROOF_VERIFICATION, from its proof
    }
    std::optional<WorkingQuery> working = m_queries.load(member.id);
    std::string proofPath;
    try {
        proofPath = m_queries.artifact(member.id, "proof.json", false).path;
    } catch (const core::ServiceError&) {
        *why = "has no proof to aggregate (result " + member.result + ")";
        return std::nullopt;
    }
    try {
        return m_check.check(*working, proofPath, context).sharpFactHash;
    } catch (const StageFailure& failure) {
        *why = std::string("cannot be aggregated: ") + failure.what();
        return std::nullopt;
    }
}

core::JobOutcome BucketAggregation::aggregate(const core::JobRecord& job,
                                              core::JobContext& context) {
    const std::string bucketId = job.payload.value("bucketId", "");
    const std::string aggregatorId = job.payload.value("queryId", "");
    std::optional<WorkingQuery> aggregator = m_queries.load(aggregatorId);
    if (!aggregator || api::isTerminalStatus(aggregator->query.status)) {
        return core::JobOutcome::done();
    }
    auto read = this->bucket(bucketId);
    api::ProofBucket& bucket = read.first;
    const std::vector<api::ProofQuery>& queries = read.second;
    std::vector<api::ProofQuery> members;
    for (const api::ProofQuery& query : queries) {
        if (query.id != aggregatorId) {
            members.push_back(query);
        }
    }
    // A failed member fails the bucket (named in the reason), even while others still run.
    const auto failed = std::find_if(members.begin(), members.end(),
                                     [](const api::ProofQuery& m) { return m.status == "FAILED"; });
    const auto unfinished =
        std::find_if(members.begin(), members.end(), [](const api::ProofQuery& m) {
            return m.status != "DONE" || !m.sharpFactHash;
        });
    if (failed != members.end() || unfinished != members.end()) {
        const api::ProofQuery& member = failed != members.end() ? *failed : *unfinished;
        const std::string reason =
            "member query " + member.id + " (bucketJobIndex " +
            std::to_string(member.bucketJobIndex.value_or(0)) + ") " +
            (member.status == "FAILED" ? "failed: " + member.errorReason.value_or("")
                                       : "has no fact hash");
        // Recorded only while this worker still holds the job's lease (docs/team.md).
        m_store.write([&](QSqlDatabase& db) {
            context.confirmHeldIn(db);
            aggregator->query.step = "FACT_HASH_REGISTRATION";
            m_stages.failIn(*aggregator, reason, "NON_RETRIABLE_ERROR");
            setStatusIn(bucket, "FAILED");
        });
        return core::JobOutcome::permanent(core::qstr(reason));
    }

    // The aggregation tree: leaves are the members' SHARP facts in bucketJobIndex order; each
    // node is keccak256 of its (up to nodeWidth) children's 32-byte values; the root is the single
    // node of the top level (a lone leaf is hashed once, so the root is never a member's fact).
    nlohmann::json leaves = nlohmann::json::array();
    std::vector<QByteArray> level;
    bool mocked = bucket.mockProof;
    for (const api::ProofQuery& member : members) {
        mocked = mocked || member.isFactMocked || member.isProofMocked;
    }
    for (const api::ProofQuery& member : members) {
        std::string leaf = *member.sharpFactHash;
        if (!mocked) {
            // A real root is built of facts verified proofs prove, never of a run's report.
            std::string why;
            const std::optional<std::string> verified = verifiedLeaf(member, context, &why);
            if (!verified) {
                if (context.stopRequested()) {
                    return core::JobOutcome::interrupted();
                }
                const std::string reason = "member query " + member.id + " (bucketJobIndex " +
                                           std::to_string(member.bucketJobIndex.value_or(0)) +
                                           ") " + why;
                m_store.write([&](QSqlDatabase& db) {
                    context.confirmHeldIn(db);
                    aggregator->query.step = "FACT_HASH_REGISTRATION";
                    m_stages.failIn(*aggregator, reason, "NON_RETRIABLE_ERROR");
                    setStatusIn(bucket, "FAILED");
                });
                return core::JobOutcome::permanent(core::qstr(reason));
            }
            leaf = *verified;
        }
        level.push_back(bytesOfHex(leaf));
        leaves.push_back({{"queryId", member.id},
                          {"bucketJobIndex", member.bucketJobIndex.value_or(0)},
                          {"factHash", leaf}});
    }
    nlohmann::json levels = nlohmann::json::array();
    const auto hexLevel = [](const std::vector<QByteArray>& nodes) {
        nlohmann::json list = nlohmann::json::array();
        for (const QByteArray& node : nodes) {
            list.push_back("0x" + node.toHex().toStdString());
        }
        return list;
    };
    levels.push_back(hexLevel(level));
    const std::size_t width = std::size_t(bucket.nodeWidth);
    do {
        std::vector<QByteArray> next;
        for (std::size_t i = 0; i < level.size(); i += width) {
            QByteArray children;
            for (std::size_t j = i; j < std::min(level.size(), i + width); ++j) {
                children.append(level[j]);
            }
            next.push_back(crypto::keccak256(children));
        }
        level = std::move(next);
        levels.push_back(hexLevel(level));
    } while (level.size() > 1);
    const std::string root = "0x" + level.front().toHex().toStdString();
    const nlohmann::ordered_json tree = {{"bucketId", bucket.id}, {"nodeWidth", bucket.nodeWidth},
                                         {"hash", "keccak256"},   {"leaves", leaves},
                                         {"levels", levels},      {"root", root},
                                         {"mocked", mocked}};
    m_stages.addArtifact(*aggregator, "tree.json", tree.dump(2));
    m_store.write([&](QSqlDatabase& db) {
        context.confirmHeldIn(db);
        aggregator->query.status = "IN_PROGRESS";
        aggregator->query.sharpFactHash = root;
        aggregator->newFact = NewFact{bucket.chain, root, mocked};
        m_stages.finishStageIn(*aggregator);
        setStatusIn(bucket, "DONE");
    });
    return core::JobOutcome::done();
}

} // namespace proofdesk::proof
