#include "FactRegistry.h"

#include "core/QtText.h"
#include "core/Ulid.h"

#include <QByteArray>
#include <QSqlQuery>

namespace proofdesk::proof {

FactRegistry::FactRegistry(Store& store, const Clock& clock) : m_store(store), m_clock(clock) {}

std::string FactRegistry::registerIn(const std::string& chain, const std::string& factHash,
                                     bool mocked, const std::string& queryId,
                                     const std::string& programHash) {
    QSqlQuery existing = m_store.exec(QStringLiteral("SELECT id FROM fact_registry WHERE chain = "
                                                     "? AND fact_hash = ? AND mocked = ?"),
                                      {qstr(chain), qstr(factHash), int(mocked)});
    if (existing.next()) {
        return str(existing.value(0));
    }
    existing.finish();
    const std::string id = newUlid(m_clock.nowMs()).toStdString();
    m_store.exec(QStringLiteral("INSERT INTO fact_registry (id, chain, fact_hash, mocked, "
                                "query_id, program_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                 {qstr(id), qstr(chain), qstr(factHash), int(mocked), qstr(queryId),
                  programHash.empty() ? QVariant() : QVariant(qstr(programHash)),
                  toIsoTimestamp(m_clock.now())});
    return id;
}

std::optional<FactEntry> FactRegistry::find(const std::string& chain, const std::string& factHash,
                                            bool mocked) {
    // Fact hashes are 32-byte values: compare them as 0x + 64 lower-case hex digits.
    std::string normalized = factHash;
    if (auto felt = QByteArray::fromStdString(factHash).toLower(); felt.startsWith("0x")) {
        QByteArray digits = felt.mid(2);
        if (digits.size() <= 64) {
            normalized =
                "0x" + QByteArray(64 - digits.size(), '0').toStdString() + digits.toStdString();
        }
    }
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT id, query_id, program_hash, created_at FROM fact_registry WHERE "
                       "chain = ? AND fact_hash = ? AND mocked = ?"),
        {qstr(chain), qstr(normalized), int(mocked)});
    if (!row.next()) {
        return std::nullopt;
    }
    FactEntry entry;
    entry.id = str(row.value(0));
    entry.chain = chain;
    entry.factHash = normalized;
    entry.mocked = mocked;
    if (!row.value(1).isNull()) {
        entry.queryId = str(row.value(1));
    }
    if (!row.value(2).isNull()) {
        entry.programHash = str(row.value(2));
    }
    entry.createdAt = str(row.value(3));
    return entry;
}

std::optional<FactEntry> FactRegistry::findOnAnyChain(const std::string& factHash, bool mocked) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT chain FROM fact_registry WHERE fact_hash "
                                                "= ? AND mocked = ? ORDER BY created_at LIMIT 1"),
                                 {qstr(factHash), int(mocked)});
    if (!row.next()) {
        return std::nullopt;
    }
    return find(str(row.value(0)), factHash, mocked);
}

} // namespace proofdesk::proof
