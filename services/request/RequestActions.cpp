// The actions that run on what the chain actions proved: accumulate_mmr, check_facts and
// deliver.
#include "ActionExecutor.h"

#include "RequestInternal.h"
#include "chain/BlockHeader.h"
#include "chain/ChainError.h"
#include "chain/MerkleProof.h"
#include "chain/Mmr.h"
#include "chain/Rlp.h"
#include "crypto/Hex.h"

#include <QSqlQuery>

#include <algorithm>
#include <map>
#include <set>

namespace proofdesk::request {

using namespace detail;
using chain::ChainError;
using nlohmann::json;

ActionExecutor::Outcome ActionExecutor::accumulateMmr(const StoredQuery& /*query*/,
                                                      const StoredAction& action,
                                                      const Actions& actions,
                                                      core::JobContext& /*context*/) {
    const json& inputs = action.method.at("inputs");
    Outcome outcome;
    const std::string chainId = inputs.at("chain_id");
    const std::string functionName = inputs.at("hashing_function");
    const chain::HashingFunction function =
        *chain::parseHashingFunction(QString::fromStdString(functionName));
    const json& resolve = actions.at(0).method;
    // Leaves are computed here, outside the write lock; appended in commit.
    auto leaves = std::make_shared<std::vector<std::pair<std::int64_t, chain::MmrHash>>>();
    for (const auto& [start, end] : allBlocks(resolve)) {
        QSqlQuery rows = m_store.exec(
            QStringLiteral("SELECT number, hash, rlp FROM verified_headers WHERE chain_id = ? "
                           "AND number BETWEEN ? AND ? ORDER BY number"),
            {core::qstr(chainId), qlonglong(start), qlonglong(end)});
        while (rows.next()) {
            leaves->emplace_back(rows.value(0).toLongLong(),
                                 chain::Mmr::blockLeaf(function, rows.value(2).toByteArray(),
                                                       rows.value(1).toByteArray()));
        }
    }
    // Newest first: trust flows from the newest verified hash down the parent links.
    std::reverse(leaves->begin(), leaves->end());
    outcome.commit = [this, leaves, chainId, functionName, function](json& results) {
        std::optional<chain::Mmr> mmr;
        QSqlQuery state = m_store.exec(
            QStringLiteral("SELECT leaves, peaks FROM mmr_state WHERE chain_id = ? AND "
                           "hashing_function = ?"),
            {core::qstr(chainId), core::qstr(functionName)});
        if (state.next()) {
            std::vector<chain::MmrHash> peaks;
            for (const json& peak : json::parse(core::str(state.value(1)))) {
                peaks.push_back(*chain::mmrHashFromHex(QString::fromStdString(peak)));
            }
            mmr = chain::Mmr::fromState(function, state.value(0).toULongLong(), peaks);
        }
        if (!mmr) {
            mmr = chain::Mmr::withGenesis(function);
        }
        std::set<std::int64_t> known;
        if (!leaves->empty()) {
            QSqlQuery rows = m_store.exec(
                QStringLiteral("SELECT block_number FROM mmr_blocks WHERE chain_id = ? AND "
                               "hashing_function = ? AND block_number BETWEEN ? AND ?"),
                {core::qstr(chainId), core::qstr(functionName), qlonglong(leaves->back().first),
                 qlonglong(leaves->front().first)});
            while (rows.next()) {
                known.insert(rows.value(0).toLongLong());
            }
        }
        std::int64_t appended = 0;
        for (const auto& [number, leaf] : *leaves) {
            if (known.count(number)) {
                continue;
            }
            const std::uint64_t element = mmr->append(leaf);
            m_store.exec(QStringLiteral("INSERT INTO mmr_blocks (chain_id, hashing_function, "
                                        "block_number, element_index, leaf) VALUES (?, ?, "
                                        "?, ?, ?)"),
                         {core::qstr(chainId), core::qstr(functionName), qlonglong(number),
                          qulonglong(element), chain::toHex(leaf)});
            ++appended;
        }
        json peaks = json::array();
        for (const chain::MmrHash& peak : mmr->peaks()) {
            peaks.push_back(chain::toHex(peak).toStdString());
        }
        const std::string root = chain::toHex(mmr->root()).toStdString();
        m_store.exec(QStringLiteral("INSERT INTO mmr_state (chain_id, hashing_function, "
                                    "leaves, size, root, peaks, updated_at) VALUES (?, ?, ?, "
                                    "?, ?, ?, ?) ON CONFLICT (chain_id, hashing_function) DO "
                                    "UPDATE SET leaves = excluded.leaves, size = excluded.size, "
                                    "root = excluded.root, peaks = excluded.peaks, updated_at "
                                    "= excluded.updated_at"),
                     {core::qstr(chainId), core::qstr(functionName), qulonglong(mmr->leaves()),
                      qulonglong(mmr->size()), core::qstr(root), core::qstr(peaks.dump()),
                      core::toIsoTimestamp(m_clock.now())});
        results = {{"hashing_function", functionName},
                   {"appended", appended},
                   {"already_accumulated", std::int64_t(leaves->size()) - appended},
                   {"mmr_leaves", mmr->leaves()},
                   {"mmr_size", mmr->size()},
                   {"mmr_root", root},
                   {"newest_block", leaves->empty() ? json(nullptr) : json(leaves->front().first)}};
    };
    return outcome;
}

ActionExecutor::Outcome ActionExecutor::checkFacts(const StoredQuery& /*query*/,
                                                   const StoredAction& action,
                                                   const Actions& /*actions*/,
                                                   core::JobContext& /*context*/) {
    const json& inputs = action.method.at("inputs");
    Outcome outcome;
    json facts = json::array();
    for (const json& fact : inputs.at("fact_hashes")) {
        const std::string hash = fact.at("fact_hash");
        const bool mocked = fact.at("is_mocked");
        const std::optional<std::string> entry = m_facts ? m_facts(hash, mocked) : std::nullopt;
        if (!entry) {
            throw ChainError("fact " + hash + " is not in the " + (mocked ? "mocked" : "real") +
                             " fact registry: prove it first (proof service), or set "
                             "is_mocked to match how it was registered");
        }
        facts.push_back({{"fact_hash", hash}, {"is_mocked", mocked}, {"registry_entry", *entry}});
    }
    outcome.results = {{"facts", facts}};
    return outcome;
}

ActionExecutor::Outcome ActionExecutor::deliver(const StoredQuery& query,
                                                const StoredAction& action, const Actions& actions,
                                                core::JobContext& /*context*/) {
    const json& inputs = action.method.at("inputs");
    Outcome outcome;
    const std::string origin = inputs.at("origin_chain_id");
    const std::string destination = inputs.contains("destination_chain_id")
                                        ? inputs["destination_chain_id"].get<std::string>()
                                        : inputs.at("settle_chain_id").get<std::string>();
    auto values = std::make_shared<std::vector<api::ProvenValue>>();
    const std::string now = core::toIsoTimestamp(m_clock.now()).toStdString();
    auto add = [&](std::int64_t block, const std::string& kind, std::optional<std::string> account,
                   const std::string& field, const std::string& value) {
        values->push_back(
            {destination, origin, block, kind, std::move(account), field, value, query.id, now});
    };
    for (int dependency : action.dependsOn) {
        const json& done = actions.at(std::size_t(dependency)).method;
        const std::string doneName = done.at("name");
        const json& results = done.at("results");
        if (doneName == kProveHeaders) {
            for (const auto& [block, entry] : results.at("headers").items()) {
                const json fields = entry.value("fields", json::object());
                for (const auto& [field, value] : fields.items()) {
                    add(std::stoll(block), "header", std::nullopt, field, value);
                }
            }
        } else if (doneName == kProveAccount) {
            const std::string account = results.at("account");
            for (const json& entry : results.at("values")) {
                const std::int64_t block = entry.at("block");
                for (const auto& [field, value] : entry.at("props").items()) {
                    add(block, "account", account, field, value);
                }
                for (const auto& [slot, value] : entry.at("slots").items()) {
                    add(block, "storage", account, slot, value);
                }
            }
        } else if (doneName == kAccumulateMmr && !results.at("newest_block").is_null()) {
            add(results.at("newest_block"), "mmr", std::nullopt, results.at("hashing_function"),
                results.at("mmr_root"));
        }
    }
    outcome.results = {{"destination_chain_id", destination}, {"values_written", values->size()}};
    outcome.commit = [this, values](json&) {
        for (const api::ProvenValue& value : *values) {
            m_store.exec(QStringLiteral("INSERT INTO proven_values (destination_chain_id, "
                                        "origin_chain_id, block_number, kind, account, name, "
                                        "value, query_id, created_at) VALUES (?, ?, ?, ?, ?, "
                                        "?, ?, ?, ?)"),
                         {core::qstr(value.destinationChainId), core::qstr(value.originChainId),
                          qlonglong(value.blockNumber), core::qstr(value.kind),
                          value.account ? QVariant(core::qstr(*value.account)) : QVariant(),
                          core::qstr(value.name), core::qstr(value.value),
                          core::qstr(value.queryId), core::qstr(value.createdAt)});
        }
    };
    return outcome;
}

} // namespace proofdesk::request
