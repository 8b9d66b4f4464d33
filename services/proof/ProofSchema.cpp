#include "ProofSchema.h"

namespace proofdesk::proof {

std::vector<core::Migration> proofMigrations() {
    return {
        {1,
         QStringLiteral("queries, artifacts, programs, buckets, fact registry, credits"),
         {
             // `doc` is the wire record (api::ProofQuery, full view); `inputs` what the pipeline
             // needs (artifact digests, options, the current job). The columns beside them are
             // the ones reads filter and sort on.
             QStringLiteral(
                 "CREATE TABLE proof_queries (id TEXT PRIMARY KEY, project_id TEXT NOT "
                 "NULL, dedup_id TEXT, external_id TEXT, status TEXT NOT NULL, bucket_id TEXT, "
                 "bucket_job_index INTEGER, created_at TEXT NOT NULL, doc TEXT NOT "
                 "NULL, inputs TEXT NOT NULL, UNIQUE (project_id, dedup_id))"),
             QStringLiteral("CREATE INDEX proof_queries_project ON proof_queries (project_id, "
                            "id)"),
             QStringLiteral("CREATE INDEX proof_queries_bucket ON proof_queries (bucket_id, "
                            "bucket_job_index)"),
             QStringLiteral("CREATE INDEX proof_queries_open ON proof_queries (status)"),
             QStringLiteral("CREATE TABLE proof_artifacts (query_id TEXT NOT NULL, name TEXT NOT "
                            "NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL, position INTEGER "
                            "NOT NULL, PRIMARY KEY (query_id, name))"),
             QStringLiteral("CREATE TABLE proof_programs (program_hash TEXT PRIMARY KEY, sha256 "
                            "TEXT NOT NULL, cairo_version TEXT NOT NULL, size INTEGER NOT NULL, "
                            "created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX proof_programs_sha ON proof_programs (sha256)"),
             QStringLiteral("CREATE TABLE proof_buckets (id TEXT PRIMARY KEY, project_id TEXT NOT "
                            "NULL, status TEXT NOT NULL, created_at TEXT NOT NULL, doc TEXT NOT "
                            "NULL, next_job_index INTEGER NOT NULL DEFAULT 0, aggregator_query_id "
                            "TEXT)"),
             QStringLiteral("CREATE INDEX proof_buckets_project ON proof_buckets (project_id, "
                            "id)"),
             QStringLiteral("CREATE TABLE fact_registry (id TEXT PRIMARY KEY, chain TEXT NOT "
                            "NULL, fact_hash TEXT NOT NULL, mocked INTEGER NOT NULL, query_id "
                            "TEXT, program_hash TEXT, created_at TEXT NOT NULL, UNIQUE (chain, "
                            "fact_hash, mocked))"),
             QStringLiteral("CREATE TABLE proof_credits (project_id TEXT PRIMARY KEY, balance "
                            "INTEGER)"),
         }},
    };
}

} // namespace proofdesk::proof
