#pragma once

#include "ArtifactStore.h"
#include "core/Clock.h"
#include "core/Store.h"

#include <cstdint>
#include <optional>
#include <string>

namespace proofdesk::proof {

// Programs registered by hash (POST /v1/submit-program, or a query's programFile): the one unit
// that holds the SQL of `proof_programs`. A program's file is an artifact, named by its digest.
class ProgramRegistry {
public:
    ProgramRegistry(core::Store& store, const core::Clock& clock, ArtifactStore& artifacts);

    // Registers a program file already stored as artifact `digest` (a second registration of the
    // same hash keeps the first file).
    void add(const std::string& programHash, const std::string& digest,
             const std::string& cairoVersion, std::uint64_t size);
    // The hash of the program stored as `digest`, if it is registered and its file present.
    std::optional<std::string> hashOfFile(const std::string& digest);
    // The artifact digest of a registered program's file.
    std::optional<std::string> fileOf(const std::string& programHash);

private:
    core::Store& m_store;
    const core::Clock& m_clock;
    ArtifactStore& m_artifacts;
};

} // namespace proofdesk::proof
