#pragma once

#include "ArtifactStore.h"
#include "core/Clock.h"
#include "core/Store.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>

namespace proofdesk::proof {

// Programs registered by hash (POST /v1/submit-program, or a query's programFile), each project's
// own: the one unit that holds the SQL of `proof_project_programs`. A program's file is an
// artifact, named by its digest. A hash names one file within a project, and only that project's
// `programHash=` submissions reach it: the hash covers the bytecode, not the hints, so another
// project's file under the same hash would run other hints (docs/security.md).
class ProgramRegistry {
public:
    ProgramRegistry(core::Store& store, const core::Clock& clock, ArtifactStore& artifacts);

    enum class Added { New, Known, Conflict };
    // Inside a write: registers the program file stored as `digest` under its hash in the
    // project. Known when the project has this very file under it; Conflict (nothing written)
    // when the project registered another file under the same hash.
    Added addIn(const QString& projectId, const std::string& programHash, const std::string& digest,
                const std::string& cairoVersion, std::uint64_t size);
    // The hash of the project's program stored as `digest`, if registered and its file present.
    std::optional<std::string> hashOfFile(const QString& projectId, const std::string& digest);
    // The artifact digest of the project's program registered under `programHash`.
    std::optional<std::string> fileOf(const QString& projectId, const std::string& programHash);
    // The cairoVersion (cairo0, cairo1) of the project's program registered under `programHash`.
    std::optional<std::string> cairoVersionOf(const QString& projectId,
                                              const std::string& programHash);
    // Whether any project's program is the file `sha256`.
    bool references(const std::string& sha256);

private:
    core::Store& m_store;
    const core::Clock& m_clock;
    ArtifactStore& m_artifacts;
};

} // namespace proofdesk::proof
