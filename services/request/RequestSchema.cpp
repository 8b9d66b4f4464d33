#include "RequestService.h"

namespace proofdesk::request {

std::vector<core::Migration> RequestService::migrations() {
    return {
        {1,
         QStringLiteral("requests, queries, actions, grow orders, verified headers, MMRs, "
                        "proven values"),
         {
             QStringLiteral("CREATE TABLE request_requests (id TEXT PRIMARY KEY, project_id TEXT "
                            "NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)"),
             // `typ` is the wire record's typ; `plan` what the actions need beyond their inputs.
             QStringLiteral("CREATE TABLE request_queries (id TEXT PRIMARY KEY, request_id TEXT, "
                            "grow_order_id TEXT, status TEXT NOT NULL, typ TEXT NOT NULL, "
                            "created_at TEXT NOT NULL, completed_at TEXT, deadline_ms INTEGER)"),
             QStringLiteral("CREATE INDEX request_queries_request ON request_queries "
                            "(request_id, id)"),
             // `method` is the wire record's method: {name, inputs, results, error}.
             QStringLiteral("CREATE TABLE request_actions (query_id TEXT NOT NULL, idx INTEGER "
                            "NOT NULL, status TEXT NOT NULL, depends_on TEXT NOT NULL, "
                            "can_trigger TEXT NOT NULL, method TEXT NOT NULL, created_at TEXT NOT "
                            "NULL, completed_at TEXT, tracking_id TEXT, PRIMARY KEY (query_id, "
                            "idx))"),
             QStringLiteral("CREATE TABLE grow_orders (id TEXT PRIMARY KEY, project_id TEXT NOT "
                            "NULL, status TEXT NOT NULL, doc TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX grow_orders_project ON grow_orders (project_id, id)"),
             QStringLiteral("CREATE TABLE verified_headers (chain_id TEXT NOT NULL, number "
                            "INTEGER NOT NULL, hash BLOB NOT NULL, rlp BLOB NOT NULL, PRIMARY KEY "
                            "(chain_id, number))"),
             QStringLiteral("CREATE TABLE mmr_state (chain_id TEXT NOT NULL, hashing_function "
                            "TEXT NOT NULL, leaves INTEGER NOT NULL, size INTEGER NOT NULL, root "
                            "TEXT NOT NULL, peaks TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY "
                            "KEY (chain_id, hashing_function))"),
             QStringLiteral("CREATE TABLE mmr_blocks (chain_id TEXT NOT NULL, hashing_function "
                            "TEXT NOT NULL, block_number INTEGER NOT NULL, element_index INTEGER "
                            "NOT NULL, leaf TEXT NOT NULL, PRIMARY KEY (chain_id, "
                            "hashing_function, block_number))"),
             QStringLiteral("CREATE TABLE proven_values (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
                            "destination_chain_id TEXT NOT NULL, origin_chain_id TEXT NOT NULL, "
                            "block_number INTEGER NOT NULL, kind TEXT NOT NULL, account TEXT, "
                            "name TEXT NOT NULL, value TEXT NOT NULL, query_id TEXT NOT NULL, "
                            "created_at TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX proven_values_destination ON proven_values "
                            "(destination_chain_id, origin_chain_id, block_number)"),
         }},
        {2,
         QStringLiteral("proven values by query"),
         {
             QStringLiteral("CREATE INDEX proven_values_query ON proven_values (query_id)"),
         }},
    };
}

} // namespace proofdesk::request
