#pragma once

#include "crypto/Felt.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::proof {

// What a query starts from.
enum class SourceKind { Program, Pie, Proof };

// The artifacts of a proof-mode run (cairo-run's four files), made by trace generation and kept
// until proof generation proves them.
struct RunFiles {
    std::string trace;
    std::string memory;
    std::string publicInput;
    std::string privateInput;
};

// What a query's stages read beside its record: its source and the files it was given (artifact
// digests), the options only the stages use, the job it waits on, and what its trace generation
// produced. Stored as JSON in proof_queries.inputs; a bucket's aggregator has no source.
struct QueryInputs {
    std::optional<SourceKind> source;
    std::string program; // digest of the program file (a run's program)
    std::string input;   // digest of the program's input file, "" when none
    std::string pie;
    std::string proof;
    std::string layout = "auto"; // asked for; a proof's, as it states it
    bool mockFactHash = false;
    bool mockProof = false;              // the bucket's
    std::optional<std::string> optimize; // "time" or "size" as asked; the server's when absent
    std::optional<std::string> stoneVersion;
    std::optional<std::string> memoryVerification;
    std::string job; // the job the query waits on ("" none)
    // What trace generation's run claimed (it ran submitted code: a proof's facts are compared
    // with these, never taken from them).
    std::vector<crypto::Felt> claimedOutput;
    std::uint64_t claimedSteps = 0;
    std::optional<RunFiles> run; // a proof-mode run, until it is proven

    // Every artifact digest named here (the query's references, for collecting the unreferenced).
    std::vector<std::string> digests() const;
};

void to_json(nlohmann::json& out, const QueryInputs& inputs);
// Reads what to_json wrote (and the older untyped form, whose keys are the same); a field of the
// wrong type is left at its default.
void from_json(const nlohmann::json& in, QueryInputs& inputs);

} // namespace proofdesk::proof
