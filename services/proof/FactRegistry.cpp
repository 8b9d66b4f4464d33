#include "FactRegistry.h"

#include "core/QtText.h"
#include "core/Ulid.h"

#include <QByteArray>
#include <QSqlQuery>

namespace proofdesk::proof {

FactRegistry::FactRegistry(core::Store& store, const core::Clock& clock)
    : m_store(store), m_clock(clock) {}

std::string FactRegistry::registerIn(const std::string& chain, const std::string& factHash,
                                     bool mocked, const std::string& queryId,
                                     const std::string& programHash) {
    QSqlQuery existing = m_store.exec(QStringLiteral("SELECT id FROM fact_registry WHERE chain = "
                                                     "? AND fact_hash = ? AND mocked = ?"),
                                      {core::qstr(chain), core::qstr(factHash), int(mocked)});
    if (existing.next()) {
        return core::str(existing.value(0));
    }
    existing.finish();
    const std::string id = core::newUlid(m_clock.nowMs()).toStdString();
    m_store.exec(QStringLiteral("INSERT INTO fact_registry (id, chain, fact_hash, mocked, "
                                "query_id, program_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                 {core::qstr(id), core::qstr(chain), core::qstr(factHash), int(mocked),
                  core::qstr(queryId),
                  programHash.empty() ? QVariant() : QVariant(core::qstr(programHash)),
                  core::toIsoTimestamp(m_clock.now())});
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
        {core::qstr(chain), core::qstr(normalized), int(mocked)});
    if (!row.next()) {
        return std::nullopt;
    }
    FactEntry entry;
    entry.id = core::str(row.value(0));
    entry.chain = chain;
    entry.factHash = normalized;
    entry.mocked = mocked;
    if (!row.value(1).isNull()) {
        entry.queryId = core::str(row.value(1));
    }
    if (!row.value(2).isNull()) {
        entry.programHash = core::str(row.value(2));
    }
    entry.createdAt = core::str(row.value(3));
    return entry;
}

std::optional<FactEntry> FactRegistry::findOnAnyChain(const std::string& factHash, bool mocked) {
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT chain FROM fact_registry WHERE fact_hash "
                                                "= ? AND mocked = ? ORDER BY created_at LIMIT 1"),
                                 {core::qstr(factHash), int(mocked)});
    if (!row.next()) {
        return std::nullopt;
    }
    return find(core::str(row.value(0)), factHash, mocked);
}

} // namespace proofdesk::proof
