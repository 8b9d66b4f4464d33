#include "ProvenData.h"

#include "core/QtText.h"

#include <nlohmann/json.hpp>

#include <QSqlQuery>

namespace proofdesk::request {

using nlohmann::json;

std::pair<std::vector<api::ProvenValue>, int> ProvenData::values(const ProvenValueFilter& filter) {
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

std::vector<MmrStateView> ProvenData::mmrStates(const std::optional<std::string>& chainId) {
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
