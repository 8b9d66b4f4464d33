#include "ChainDataStore.h"

#include "chain/ChainError.h"
#include "core/QtText.h"

#include <nlohmann/json.hpp>

#include <QSqlQuery>

namespace proofdesk::request {

using nlohmann::json;

void ChainDataStore::storeVerifiedHeaders(const std::string& chainId,
                                          const std::vector<chain::BlockHeader>& headers) {
    m_store.write([&](QSqlDatabase&) {
        for (const chain::BlockHeader& header : headers) {
            m_store.exec(QStringLiteral("INSERT INTO verified_headers (chain_id, number, hash, "
                                        "rlp) VALUES (?, ?, ?, ?) ON CONFLICT (chain_id, number) "
                                        "DO UPDATE SET hash = excluded.hash, rlp = excluded.rlp"),
                         {core::qstr(chainId), qulonglong(header.number), header.hash, header.rlp});
        }
    });
}

chain::BlockHeader ChainDataStore::verifiedHeader(const std::string& chainId, std::int64_t number) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT rlp FROM verified_headers WHERE chain_id "
                                                "= ? AND number = ?"),
                                 {core::qstr(chainId), qlonglong(number)});
    if (!row.next()) {
        throw chain::ChainError("block " + std::to_string(number) + " of chain " + chainId +
                                " has no verified header");
    }
    return chain::headerFromRlp(row.value(0).toByteArray());
}

void ChainDataStore::forEachVerifiedHeader(
    const std::string& chainId, std::int64_t first, std::int64_t last,
    const std::function<void(std::int64_t, const QByteArray&, const QByteArray&)>& visit) {
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT number, hash, rlp FROM verified_headers WHERE chain_id = ? AND "
                       "number BETWEEN ? AND ? ORDER BY number"),
        {core::qstr(chainId), qlonglong(first), qlonglong(last)});
    while (rows.next()) {
        visit(rows.value(0).toLongLong(), rows.value(1).toByteArray(), rows.value(2).toByteArray());
    }
}

chain::Mmr ChainDataStore::mmrIn(const std::string& chainId, chain::HashingFunction function) {
    QSqlQuery state = m_store.exec(QStringLiteral("SELECT leaves, peaks FROM mmr_state WHERE "
                                                  "chain_id = ? AND hashing_function = ?"),
                                   {core::qstr(chainId), chain::hashingFunctionName(function)});
    if (state.next()) {
        std::vector<chain::MmrHash> peaks;
        for (const json& peak : json::parse(core::str(state.value(1)))) {
            peaks.push_back(*chain::mmrHashFromHex(QString::fromStdString(peak)));
        }
        if (auto mmr = chain::Mmr::fromState(function, state.value(0).toULongLong(), peaks)) {
            return *mmr;
        }
    }
    return chain::Mmr::withGenesis(function);
}

std::set<std::int64_t> ChainDataStore::accumulatedBlocksIn(const std::string& chainId,
                                                           chain::HashingFunction function,
                                                           std::int64_t first, std::int64_t last) {
    std::set<std::int64_t> known;
    QSqlQuery rows =
        m_store.exec(QStringLiteral("SELECT block_number FROM mmr_blocks WHERE chain_id = ? AND "
                                    "hashing_function = ? AND block_number BETWEEN ? AND ?"),
                     {core::qstr(chainId), chain::hashingFunctionName(function), qlonglong(first),
                      qlonglong(last)});
    while (rows.next()) {
        known.insert(rows.value(0).toLongLong());
    }
    return known;
}

void ChainDataStore::recordLeafIn(const std::string& chainId, chain::HashingFunction function,
                                  std::int64_t blockNumber, std::uint64_t element,
                                  const chain::MmrHash& leaf) {
    m_store.exec(QStringLiteral("INSERT INTO mmr_blocks (chain_id, hashing_function, "
                                "block_number, element_index, leaf) VALUES (?, ?, ?, ?, ?)"),
                 {core::qstr(chainId), chain::hashingFunctionName(function), qlonglong(blockNumber),
                  qulonglong(element), chain::toHex(leaf)});
}

void ChainDataStore::saveMmrIn(const std::string& chainId, const chain::Mmr& mmr,
                               const QString& updatedAt) {
    json peaks = json::array();
    for (const chain::MmrHash& peak : mmr.peaks()) {
        peaks.push_back(chain::toHex(peak).toStdString());
    }
    m_store.exec(QStringLiteral("INSERT INTO mmr_state (chain_id, hashing_function, leaves, "
                                "size, root, peaks, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON "
                                "CONFLICT (chain_id, hashing_function) DO UPDATE SET leaves = "
                                "excluded.leaves, size = excluded.size, root = excluded.root, "
                                "peaks = excluded.peaks, updated_at = excluded.updated_at"),
                 {core::qstr(chainId), chain::hashingFunctionName(mmr.function()),
                  qulonglong(mmr.leaves()), qulonglong(mmr.size()), chain::toHex(mmr.root()),
                  core::qstr(peaks.dump()), updatedAt});
}

std::optional<std::int64_t> ChainDataStore::newestAccumulatedBlock(const std::string& chainId) {
    QSqlQuery row =
        m_store.exec(QStringLiteral("SELECT MAX(block_number) FROM mmr_blocks WHERE chain_id = ?"),
                     {core::qstr(chainId)});
    if (row.next() && !row.value(0).isNull()) {
        return row.value(0).toLongLong();
    }
    return std::nullopt;
}

void ChainDataStore::insertProvenValuesIn(const std::vector<api::ProvenValue>& values) {
    for (const api::ProvenValue& value : values) {
        m_store.exec(QStringLiteral("INSERT INTO proven_values (destination_chain_id, "
                                    "origin_chain_id, block_number, kind, account, name, value, "
                                    "query_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                     {core::qstr(value.destinationChainId), core::qstr(value.originChainId),
                      qlonglong(value.blockNumber), core::qstr(value.kind),
                      value.account ? QVariant(core::qstr(*value.account)) : QVariant(),
                      core::qstr(value.name), core::qstr(value.value), core::qstr(value.queryId),
                      core::qstr(value.createdAt)});
    }
}

std::pair<std::vector<api::ProvenValue>, int>
ChainDataStore::values(const ProvenValueFilter& filter) {
    QString where = QStringLiteral("destination_chain_id = ?");
    QVariantList bindings{core::qstr(filter.destinationChainId)};
    if (filter.originChainId) {
        where += QStringLiteral(" AND origin_chain_id = ?");
        bindings << core::qstr(*filter.originChainId);
    }
    if (filter.blockNumber) {
        where += QStringLiteral(" AND block_number = ?");
        bindings << qlonglong(*filter.blockNumber);
    }
    if (filter.queryId) {
        where += QStringLiteral(" AND query_id = ?");
        bindings << core::qstr(*filter.queryId);
    }
    QSqlQuery count =
        m_store.exec(QStringLiteral("SELECT COUNT(*) FROM proven_values WHERE ") + where, bindings);
    const int total = count.next() ? count.value(0).toInt() : 0;
    QVariantList page = bindings;
    page << filter.limit << filter.offset;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT destination_chain_id, origin_chain_id, block_number, kind, "
                       "account, name, value, query_id, created_at FROM proven_values WHERE ") +
            where + QStringLiteral(" ORDER BY seq DESC LIMIT ? OFFSET ?"),
        page);
    std::vector<api::ProvenValue> out;
    while (rows.next()) {
        api::ProvenValue value;
        value.destinationChainId = core::str(rows.value(0));
        value.originChainId = core::str(rows.value(1));
        value.blockNumber = rows.value(2).toLongLong();
        value.kind = core::str(rows.value(3));
        if (!rows.value(4).isNull()) {
            value.account = core::str(rows.value(4));
        }
        value.name = core::str(rows.value(5));
        value.value = core::str(rows.value(6));
        value.queryId = core::str(rows.value(7));
        value.createdAt = core::str(rows.value(8));
        out.push_back(std::move(value));
    }
    return {out, total};
}

std::vector<MmrStateView> ChainDataStore::mmrStates(const std::optional<std::string>& chainId) {
    std::vector<MmrStateView> out;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT chain_id, hashing_function, leaves, size, root, peaks, updated_at "
                       "FROM mmr_state WHERE CAST(? AS TEXT) IS NULL OR chain_id = ? ORDER BY "
                       "chain_id, hashing_function"),
        {chainId ? QVariant(core::qstr(*chainId)) : QVariant(),
         chainId ? QVariant(core::qstr(*chainId)) : QVariant()});
    while (rows.next()) {
        MmrStateView view;
        view.chainId = core::str(rows.value(0));
        view.hashingFunction = core::str(rows.value(1));
        view.leaves = rows.value(2).toULongLong();
        view.size = rows.value(3).toULongLong();
        view.root = core::str(rows.value(4));
        view.peaks = json::parse(core::str(rows.value(5))).get<std::vector<std::string>>();
        view.updatedAt = core::str(rows.value(6));
        out.push_back(std::move(view));
    }
    return out;
}

} // namespace proofdesk::request
