#pragma once

#include "cairo/RunSetup.h"
#include "crypto/Felt.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// The boundary between the server and a sandboxed child (docs/security.md), as types: each task's
// request (the server writes it as task.json) and result (the child writes it as result.json),
// with the one JSON form both sides read and write. The files a task reads are open descriptors
// named by slot; the files it writes are named below.
namespace proofdesk::tasks {

enum class Task {
    Inspect, // reads what a submission brought: a program, an input, a PIE, a proof (no hint runs)
    Run,     // runs a program with its hints, or the bootloader over a PIE (the VM)
    Prove,   // proves a proof-mode run's files with our prover (no VM, no hint)
    Verify,  // verifies a proof with our verifier (no hint)
};
const char* taskName(Task task);
std::optional<Task> taskNamed(const std::string& name);

// The names of the descriptors a task reads.
namespace slot {
inline constexpr const char* kProgram = "program";
inline constexpr const char* kInput = "input";
inline constexpr const char* kPie = "pie";
inline constexpr const char* kProof = "proof";
inline constexpr const char* kTrace = "trace";
inline constexpr const char* kMemory = "memory";
inline constexpr const char* kPublicInput = "public_input";
inline constexpr const char* kPrivateInput = "private_input";
} // namespace slot

// The files a task writes in its work directory.
namespace output {
inline constexpr const char* kPie = "pie.zip";     // Run, not in proof mode
inline constexpr const char* kTrace = "trace.bin"; // Run in proof mode: cairo-run's four files
inline constexpr const char* kMemory = "memory.bin";
inline constexpr const char* kPublicInput = "public_input.json";
inline constexpr const char* kPrivateInput = "private_input.json";
inline constexpr const char* kProof = "proof.json"; // Prove
} // namespace output

// --- Inspect ----------------------------------------------------------------------------------
struct InspectRequest {
    bool checkNativeHints = false; // say which program hint, if any, has no native implementation
    std::optional<std::string> memoryVerification; // how a proof's public memory is read
};
struct ProgramFacts {
    crypto::Felt programHash;
    std::vector<std::string> builtins;
    bool proofMode = false; // compiled with --proof_mode (has __start__)
    bool cairo1 = false;    // a Cairo 1 executable (Scarb's), not cairo-compile's JSON
    std::optional<std::uint64_t> firstPythonOnlyHintPc;
};
struct PieFacts {
    crypto::Felt programHash;
    std::vector<crypto::Felt> output;
    std::uint64_t nSteps = 0;
    nlohmann::json resources = nlohmann::json::object(); // execution_resources
    std::vector<std::string> builtins;
    bool cairo1 = false; // its program is a Cairo 1 executable's (the bootloader entry's run)
};
// What a proof states (its public input), as the child read it, not whether it holds. The server
// reads the statement again itself before it registers a fact (proof/ProvenStatement.h); this
// describes a proof at intake and a query whose fact is mocked.
struct ProofFacts {
    std::string layout;
    std::uint64_t nSteps = 0;
    std::string memoryVerification;
    crypto::Felt programHash;
    std::vector<crypto::Felt> output;
    std::string sharpFactHash;
    crypto::Felt integrityFactHash;
};
struct InspectResult {
    std::optional<ProgramFacts> program;
    std::optional<PieFacts> pie;
    std::optional<ProofFacts> proof;
};

// --- Run --------------------------------------------------------------------------------------
// Slots: program, and input (a program's) or pie (the program is then the bootloader).
struct RunRequest {
    // A sandboxed run never gets file access. proofMode: in proof mode if the program was
    // compiled for it (has __start__); a program that was not runs plainly and writes a PIE.
    cairo::RunSetup setup;
    std::optional<crypto::Felt> programHash; // known already (skips computing it)
};
// What a run says of itself. It ran submitted code (hints), so the server trusts none of it: it
// shows it, and a proof's facts come from what the proof proves, compared with this.
struct RunClaims {
    crypto::Felt programHash;
    std::vector<crypto::Felt> output;
    std::uint64_t nSteps = 0;
    nlohmann::json resources = nlohmann::json::object();
    std::vector<std::string> builtins;
    std::string layout;
    bool proofMode = false; // wrote a proof-mode run's files, not a PIE
};

// --- Prove ------------------------------------------------------------------------------------
// Slots: trace, memory, public_input, private_input (a proof-mode run's files).
struct ProveRequest {
    std::string channel = "stone"; // "stone" (keccak) or "integrity" (Poseidon)
    int securityBits = 96;
    std::string optimize = "size"; // "size" or "time" (stark/prover/ParameterChooser.h)
};
struct PhaseTime {
    std::string phase;
    double seconds = 0;
};
struct ProveResult {
    std::uint64_t nSteps = 0;
    std::string layout;
    std::uint64_t traceRows = 0;
    std::uint64_t traceColumns = 0;
    std::uint64_t proofBytes = 0;
    nlohmann::json parameters = nlohmann::json::object();
    int securityBits = 0;
    std::vector<PhaseTime> timings;
    double seconds = 0;
};

// --- Verify -----------------------------------------------------------------------------------
// Slot: proof.
struct VerifyRequest {
    std::optional<std::string> stoneVersion;       // stone5 or stone6; absent: either
    std::optional<std::string> memoryVerification; // strict, relaxed, cairo1; absent: any
};
struct VerifyResult {
    bool valid = false;
    std::string failedStage;
    std::string failedCheck;
    std::string stoneVersion;                  // the serialisation it verified with
    std::optional<std::string> statementError; // the memoryVerification asked for does not hold
    nlohmann::json verdict = nlohmann::json::object(); // the whole verdict (verification.json)
};

// Progress a long task reports (the prover's phases).
struct Progress {
    std::string phase;
    double fraction = 0;
};

void to_json(nlohmann::json& out, const InspectRequest& value);
void from_json(const nlohmann::json& in, InspectRequest& value);
void to_json(nlohmann::json& out, const ProgramFacts& value);
void from_json(const nlohmann::json& in, ProgramFacts& value);
void to_json(nlohmann::json& out, const PieFacts& value);
void from_json(const nlohmann::json& in, PieFacts& value);
void to_json(nlohmann::json& out, const ProofFacts& value);
void from_json(const nlohmann::json& in, ProofFacts& value);
void to_json(nlohmann::json& out, const InspectResult& value);
void from_json(const nlohmann::json& in, InspectResult& value);
void to_json(nlohmann::json& out, const RunRequest& value);
void from_json(const nlohmann::json& in, RunRequest& value);
void to_json(nlohmann::json& out, const RunClaims& value);
void from_json(const nlohmann::json& in, RunClaims& value);
void to_json(nlohmann::json& out, const ProveRequest& value);
void from_json(const nlohmann::json& in, ProveRequest& value);
void to_json(nlohmann::json& out, const PhaseTime& value);
void from_json(const nlohmann::json& in, PhaseTime& value);
void to_json(nlohmann::json& out, const ProveResult& value);
void from_json(const nlohmann::json& in, ProveResult& value);
void to_json(nlohmann::json& out, const VerifyRequest& value);
void from_json(const nlohmann::json& in, VerifyRequest& value);
void to_json(nlohmann::json& out, const VerifyResult& value);
void from_json(const nlohmann::json& in, VerifyResult& value);
void to_json(nlohmann::json& out, const Progress& value);
void from_json(const nlohmann::json& in, Progress& value);

// Reads a value of type T from a task's JSON; throws std::invalid_argument naming what is wrong
// (a missing field, a wrong type, a felt that does not parse).
template <typename T> T readAs(const nlohmann::json& json);

} // namespace proofdesk::tasks
