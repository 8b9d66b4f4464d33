#include "ProgramRegistry.h"

#include "core/QtText.h"

#include <QSqlQuery>

namespace proofdesk::proof {

ProgramRegistry::ProgramRegistry(core::Store& store, const core::Clock& clock,
                                 ArtifactStore& artifacts)
    : m_store(store), m_clock(clock), m_artifacts(artifacts) {}

void ProgramRegistry::add(const std::string& programHash, const std::string& digest,
                          const std::string& cairoVersion, std::uint64_t size) {
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("INSERT OR IGNORE INTO proof_programs (program_hash, sha256, "
                                    "cairo_version, size, created_at) VALUES (?, ?, ?, ?, ?)"),
                     {core::qstr(programHash), core::qstr(digest), core::qstr(cairoVersion),
                      qlonglong(size), core::toIsoTimestamp(m_clock.now())});
    });
}

std::optional<std::string> ProgramRegistry::hashOfFile(const std::string& digest) {
    QSqlQuery known =
        m_store.exec(QStringLiteral("SELECT program_hash FROM proof_programs WHERE sha256 = ?"),
                     {core::qstr(digest)});
    if (known.next() && m_artifacts.contains(digest)) {
        return core::str(known.value(0));
    }
    return std::nullopt;
}

std::optional<std::string> ProgramRegistry::fileOf(const std::string& programHash) {
    QSqlQuery known =
        m_store.exec(QStringLiteral("SELECT sha256 FROM proof_programs WHERE program_hash = ?"),
                     {core::qstr(programHash)});
    return known.next() ? std::optional<std::string>(core::str(known.value(0))) : std::nullopt;
}

} // namespace proofdesk::proof
