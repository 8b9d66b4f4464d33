#include "ProgramRegistry.h"

#include "core/QtText.h"

#include <QSqlQuery>

namespace proofdesk::proof {

ProgramRegistry::ProgramRegistry(core::Store& store, const core::Clock& clock,
                                 ArtifactStore& artifacts)
    : m_store(store), m_clock(clock), m_artifacts(artifacts) {}

ProgramRegistry::Added ProgramRegistry::addIn(const QString& projectId,
                                              const std::string& programHash,
                                              const std::string& digest,
                                              const std::string& cairoVersion, std::uint64_t size) {
    if (const auto known = fileOf(projectId, programHash)) {
        return *known == digest ? Added::Known : Added::Conflict;
    }
    m_store.exec(QStringLiteral("INSERT INTO proof_project_programs (project_id, program_hash, "
                                "sha256, cairo_version, size, created_at) VALUES (?, ?, ?, ?, ?, "
                                "?)"),
                 {projectId, core::qstr(programHash), core::qstr(digest), core::qstr(cairoVersion),
                  qlonglong(size), core::toIsoTimestamp(m_clock.now())});
    return Added::New;
}

std::optional<std::string> ProgramRegistry::hashOfFile(const QString& projectId,
                                                       const std::string& digest) {
    QSqlQuery known = m_store.exec(QStringLiteral("SELECT program_hash FROM proof_project_programs "
                                                  "WHERE project_id = ? AND sha256 = ?"),
                                   {projectId, core::qstr(digest)});
    if (known.next() && m_artifacts.contains(digest)) {
        return core::str(known.value(0));
    }
    return std::nullopt;
}

std::optional<std::string> ProgramRegistry::fileOf(const QString& projectId,
                                                   const std::string& programHash) {
    QSqlQuery known = m_store.exec(QStringLiteral("SELECT sha256 FROM proof_project_programs WHERE "
                                                  "project_id = ? AND program_hash = ?"),
                                   {projectId, core::qstr(programHash)});
    return known.next() ? std::optional<std::string>(core::str(known.value(0))) : std::nullopt;
}

std::optional<std::string> ProgramRegistry::cairoVersionOf(const QString& projectId,
                                                           const std::string& programHash) {
    QSqlQuery known =
        m_store.exec(QStringLiteral("SELECT cairo_version FROM proof_project_programs "
                                    "WHERE project_id = ? AND program_hash = ?"),
                     {projectId, core::qstr(programHash)});
    return known.next() ? std::optional<std::string>(core::str(known.value(0))) : std::nullopt;
}

bool ProgramRegistry::references(const std::string& sha256) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT 1 FROM proof_project_programs WHERE sha256 = ? LIMIT 1"),
        {core::qstr(sha256)});
    return row.next();
}

} // namespace proofdesk::proof
