#pragma once

#include "CoreQueryRequest.h"
#include "ProofCheck.h"
#include "ProofQueries.h"
#include "StageRecorder.h"
#include "api/ProofBodies.h"
#include "api/ProofWire.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::proof {

// POST /buckets and POST /docs/buckets.

// Where a submission joins a bucket: its job index, and whether the bucket's proofs are mocked.
struct BucketPlace {
    int jobIndex = 0;
    bool mockProof = false;
};

// Buckets (docs/api.md): queries grouped while OPEN; closing one creates the aggregator query,
// which runs once every member is DONE (or fails the bucket when one FAILED): it builds the
// aggregation tree of the members' facts and registers its root. A member's leaf is a fact its
// verified proof proves: verified at its PROOF_VERIFICATION, or here (ProofCheck) when it was
// only proven; a member with a mocked proof or fact makes the root a mocked fact. The one unit
// that holds the SQL of `proof_buckets`.
class BucketAggregation {
public:
    BucketAggregation(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                      ProofQueries& queries, StageRecorder& stages, ProofCheck& check);

    api::ProofBucket create(const Caller& caller, const api::BucketCreation& request);
    std::pair<std::vector<api::ProofBucket>, int> list(const QString& projectId, int limit,
                                                       int offset);
    // A bucket and its queries (members by bucketJobIndex, then the aggregator).
    std::pair<api::ProofBucket, std::vector<api::ProofQuery>> bucket(const std::string& id);
    // Closes `bucketId`, or the caller's newest OPEN bucket when absent.
    api::ProofBucket close(const Caller& caller, const std::optional<std::string>& bucketId);

    // Within a submission's write: takes the job index asked for (or the next free one) in the
    // caller's OPEN bucket.
    BucketPlace joinIn(const Caller& caller, const std::string& bucketId,
                       std::optional<int> jobIndex);
    // Within a write, when a member ended: enqueues the aggregation once every member is DONE
    // or one FAILED.
    void maybeAggregateIn(const std::string& bucketId);

private:
    core::JobOutcome aggregate(const core::JobRecord& job, core::JobContext& context);
    void setStatusIn(api::ProofBucket& bucket, const char* status);
    // A member's leaf: its verified fact, or nullopt with `why` when it has none to give.
    std::optional<std::string> verifiedLeaf(const api::ProofQuery& member,
                                            core::JobContext& context, std::string* why);

    core::Store& m_store;
    const core::Clock& m_clock;
    core::JobEngine& m_jobs;
    ProofQueries& m_queries;
    StageRecorder& m_stages;
    ProofCheck& m_check;
};

} // namespace proofdesk::proof
