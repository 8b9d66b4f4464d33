#include "ProofSchema.h"

#include "QueryInputs.h"
#include "core/QtText.h"

#include <QDateTime>
#include <QSqlQuery>

namespace proofdesk::proof {
namespace {

// Version 2's rows from what version 1 stored: every query's input files, and each program a
// query ran, as its project's (the old registry named no project: a program registered with
// /v1/submit-program and never run must be registered again).
void backfillQueryFilesAndProjectPrograms(core::Store& store) {
    QSqlQuery rows = store.exec(QStringLiteral("SELECT id, project_id, doc, inputs FROM "
                                               "proof_queries"));
    struct Row {
        QString id;
        QString project;
        std::string programHash;
        std::string cairoVersion;
        QueryInputs inputs;
    };
    std::vector<Row> all;
    while (rows.next()) {
        Row row{rows.value(0).toString(), rows.value(1).toString(), {}, "cairo0", {}};
        const nlohmann::json doc = nlohmann::json::parse(core::str(rows.value(2)), nullptr, false);
        if (doc.is_object() && doc.value("programHash", nlohmann::json()).is_string()) {
            row.programHash = doc.at("programHash").get<std::string>();
            row.cairoVersion = doc.value("cairoVersion", std::string("cairo0"));
        }
        const nlohmann::json inputs =
            nlohmann::json::parse(core::str(rows.value(3)), nullptr, false);
        row.inputs = inputs.is_object() ? inputs.get<QueryInputs>() : QueryInputs{};
        all.push_back(std::move(row));
    }
    rows.finish();
    for (const Row& row : all) {
        for (const std::string& digest : row.inputs.digests()) {
            store.exec(QStringLiteral("INSERT INTO proof_query_files (query_id, sha256) VALUES "
                                      "(?, ?) ON CONFLICT DO NOTHING"),
                       {row.id, core::qstr(digest)});
        }
        if (row.inputs.source == SourceKind::Program && !row.inputs.program.empty() &&
            !row.programHash.empty()) {
            store.exec(QStringLiteral("INSERT INTO proof_project_programs (project_id, "
                                      "program_hash, sha256, cairo_version, size, created_at) "
                                      "SELECT ?, ?, ?, ?, COALESCE((SELECT size FROM "
                                      "proof_programs WHERE sha256 = ? LIMIT 1), 0), ? ON "
                                      "CONFLICT DO NOTHING"),
                       {row.project, core::qstr(row.programHash), core::qstr(row.inputs.program),
                        core::qstr(row.cairoVersion), core::qstr(row.inputs.program),
                        QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)});
        }
    }
    store.exec(QStringLiteral("DROP TABLE proof_programs"));
}

} // namespace

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
        {2,
         QStringLiteral("programs per project; the files each query names"),
         {
             QStringLiteral("CREATE TABLE proof_query_files (query_id TEXT NOT NULL, sha256 TEXT "
                            "NOT NULL, size INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (query_id, "
                            "sha256))"),
             QStringLiteral("CREATE INDEX proof_query_files_sha ON proof_query_files (sha256)"),
             QStringLiteral("CREATE INDEX proof_artifacts_sha ON proof_artifacts (sha256)"),
             QStringLiteral("CREATE TABLE proof_project_programs (project_id TEXT NOT NULL, "
                            "program_hash TEXT NOT NULL, sha256 TEXT NOT NULL, cairo_version "
                            "TEXT NOT NULL, size INTEGER NOT NULL, created_at TEXT NOT NULL, "
                            "PRIMARY KEY (project_id, program_hash))"),
             QStringLiteral("CREATE INDEX proof_project_programs_sha ON proof_project_programs "
                            "(sha256, project_id)"),
         },
         backfillQueryFilesAndProjectPrograms},
    };
}

} // namespace proofdesk::proof
