#include "ArtifactCollector.h"

namespace proofdesk::proof {

ArtifactCollector::ArtifactCollector(core::Store& store, ArtifactStore& artifacts,
                                     ProofQueries& queries, ProgramRegistry& programs)
    : m_store(store), m_artifacts(artifacts), m_queries(queries), m_programs(programs) {}

bool ArtifactCollector::referenced(const std::string& sha256) {
    return m_queries.references(sha256) || m_programs.references(sha256);
}

void ArtifactCollector::releaseUnreferenced(const std::vector<std::string>& digests) {
    // In a write transaction: no reference can be committed between the check and the removal
    // (a writer that is about to name the file pinned it first).
    m_store.write([&](QSqlDatabase&) {
        for (const std::string& digest : digests) {
            if (!digest.empty() && !referenced(digest)) {
                m_artifacts.removeUnlessPinned(digest);
            }
        }
    });
}

ArtifactCollector::Collected ArtifactCollector::collect(std::int64_t minAgeSeconds) {
    Collected collected;
    for (const ArtifactStore::Stored& stored : m_artifacts.list()) {
        if (stored.ageSeconds < minAgeSeconds) {
            continue;
        }
        bool removed = false;
        m_store.write([&](QSqlDatabase&) {
            removed = !referenced(stored.sha256) && m_artifacts.removeUnlessPinned(stored.sha256);
        });
        if (removed) {
            ++collected.files;
            collected.bytes += stored.size;
        }
    }
    return collected;
}

} // namespace proofdesk::proof
