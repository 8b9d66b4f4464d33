#pragma once

#include "ProofQueries.h"
#include "ProvenStatement.h"
#include "Provers.h"
#include "SandboxedWork.h"
#include "core/JobEngine.h"
#include "crypto/Felt.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::proof {

// What a verified proof lets the server say of a query: the program and output it proves and the
// facts of them, derived by the server from the proof file itself (ProvenStatement), never carried
// over from what a sandboxed run reported.
struct ProvenFacts {
    std::string programHash;
    std::vector<crypto::Felt> output;
    std::string sharpFactHash;     // 0x + 64 hex digits
    std::string integrityFactHash; // 0x + 64 hex digits
    std::string layout;
    std::uint64_t nSteps = 0;
    nlohmann::json verdict; // verification.json
};

// Whether a bootloader's output (every output cell, continuous pages included) carries one task,
// the program `programHash` with output `taskOutput`: the bootloader config's two words, the task
// count 1, then the task's size (2 + its output), program hash and output.
bool bootloaderOutputCarriesTask(const std::vector<crypto::Felt>& outputCells,
                                 const crypto::Felt& programHash,
                                 const std::vector<crypto::Felt>& taskOutput);
// The same over hex felts (a value that is not a felt never matches).
bool bootloaderOutputCarriesTask(const nlohmann::json& outputCells, const std::string& programHash,
                                 const nlohmann::json& taskOutput);

// Checks a query's proof: verifies it (our verifier in a sandboxed child, or Stone's
// cpu_air_verifier) and derives what it proves for that query. Used by PROOF_VERIFICATION and by
// a bucket's aggregation of members that were proven but not yet verified.
class ProofCheck {
public:
    ProofCheck(const ProverSettings& provers, SandboxedWork& sandbox, QString workDir);

    // Throws StageFailure (permanent) naming what failed: the proof does not verify; a program
    // query's proof is not of its program, or proves another output than its trace generation
    // reported; a PIE's proof is not the bootloader's run of that PIE as its one task.
    ProvenFacts check(const WorkingQuery& working, const std::string& proofPath,
                      core::JobContext& context);

private:
    nlohmann::json verifyBuiltin(const std::string& proofPath, const QueryInputs& inputs,
                                 core::JobContext& context) const;
    nlohmann::json verifyWithStoneVerifier(const std::string& proofPath, const std::string& queryId,
                                           core::JobContext& context) const;
    ProvenFacts derive(const WorkingQuery& working, const ProvenStatement& statement);
    // The hashes of the configured bootloader program, computed here from the server's own file:
    // compute_program_hash_chain, and the Cairo verifier's hash of its words (what a statement
    // shows when the proof's layout lacks a builtin the bootloader declares but its one task does
    // not use, so that the public memory cannot name them all).
    struct BootloaderHashes {
        crypto::Felt chain;
        crypto::Felt words;
    };
    BootloaderHashes bootloaderHashes();

    const ProverSettings& m_provers;
    SandboxedWork& m_sandbox;
    QString m_workDir;
    std::mutex m_bootloaderMutex;
    std::optional<std::pair<QString, BootloaderHashes>> m_bootloaderHashes;
};

} // namespace proofdesk::proof
