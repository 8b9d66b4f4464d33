#pragma once

#include "ArtifactStore.h"
#include "ProgramRegistry.h"
#include "ProofQueries.h"
#include "core/Store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::proof {

// Decides when a stored file is no longer needed: when no query names it (as an input or as one
// of its artifacts) and no project's program is it. A refused submission's uploads, and a proven
// run's files, are released at once; the rest is collected when the server starts.
class ArtifactCollector {
public:
    ArtifactCollector(core::Store& store, ArtifactStore& artifacts, ProofQueries& queries,
                      ProgramRegistry& programs);

    bool referenced(const std::string& sha256);
    // Removes each of `digests` that nothing names and nothing pins. Outside a write.
    void releaseUnreferenced(const std::vector<std::string>& digests);

    struct Collected {
        int files = 0;
        std::int64_t bytes = 0;
    };
    // Every stored file older than `minAgeSeconds` that nothing names (a crash between storing
    // an upload and refusing it, files of an older version). Outside a write.
    Collected collect(std::int64_t minAgeSeconds = 600);

private:
    core::Store& m_store;
    ArtifactStore& m_artifacts;
    ProofQueries& m_queries;
    ProgramRegistry& m_programs;
};

} // namespace proofdesk::proof
