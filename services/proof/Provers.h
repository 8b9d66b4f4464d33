#pragma once

#include "core/JobEngine.h"
#include "core/SettingNames.h"
#include "sandbox/Confinement.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>
#include <string>

namespace proofdesk::proof {

// Which prover PROOF_GENERATION runs: our own STARK prover (`builtin`, the default), Stone's
// cpu_air_prover, the visible `mock` prover, or none (proof requests then fail with a reason
// saying how to configure one).
struct ProverSettings {
    QString engine;        // "builtin", "stone", "mock" or "none"; empty: builtin
    QString stoneProver;   // path of cpu_air_prover
    QString stoneVerifier; // path of cpu_air_verifier
    // Who checks proofs in PROOF_VERIFICATION: our own verifier ("builtin", the default) or
    // Stone's cpu_air_verifier ("stone", which needs stoneVerifier).
    QString verifier;
    int timeoutSeconds = 3600;
    // The VM's step limit for one trace generation (and a Stone proof-mode run): a program that
    // runs longer fails with a reason instead of holding a worker forever.
    std::uint64_t maxSteps = std::uint64_t{1} << 26;
    // cairoVm=python: hints without a native implementation run as Python inside the server.
    // That code is the submitter's, so a server others can reach should leave this off
    // (`proofdesk serve` turns it off with --allow-remote unless --python-hints on).
    bool pythonHints = true;
    std::chrono::milliseconds pythonHintTimeLimit{std::chrono::minutes(5)}; // per run
    // Untrusted work (reading submitted files, trace generation, proof-mode runs) runs in this
    // program, one sandboxed child process per run, within these limits (docs/security.md).
    // Built beside proofdesk as proofdesk-sandbox.
    QString sandboxProgram;
    sandbox::Limits sandboxLimits;
    // Our prover runs in a sandboxed child too, with its own (larger) limits: by default most of
    // the machine's memory, timeoutSeconds of wall time, and CPU time for every core.
    sandbox::Limits proverLimits = defaultProverLimits(3600);
    // What one project may have stored (its uploads, its queries' artifacts and run files, its
    // programs); a submission that would pass it is refused (413 PROJECT_STORAGE_QUOTA_EXCEEDED).
    // 0: no limit.
    std::uint64_t projectStorageBytes = std::uint64_t{10} << 30;
    // The security our prover's parameters are chosen for (bits, as the verifier counts them).
    int securityBits = 96;
    // What our prover's parameters favour at that security (stark/prover/ParameterChooser.h):
    // "time" (the default: blow-up 2, more queries) or "size" (the smallest proof).
    // PROOF_VERIFICATION_ON_L2 takes "size" (an on-chain verifier pays for every query); a
    // submission's `optimize` part overrides both.
    QString optimize = QStringLiteral("time");
    // A Cairo PIE is proven the way SHARP proves it: as a task of this bootloader program
    // (cairo-lang's bootloader, compiled with --proof_mode), whose run is proven. Empty: PIEs
    // are not proven (a PIE submission needs mockFactHash=true).
    QString bootloaderProgram;
    // How failure reasons name these settings: `proofdesk serve`'s flags, or the console's
    // Settings fields for the server the console embeds.
    core::SettingsSurface settingsSurface = core::SettingsSurface::CommandLine;

    static sandbox::Limits defaultProverLimits(int timeoutSeconds);

    QString effectiveEngine() const;
    QString effectiveVerifier() const;
    // What a query record's sharpProver says of this server's proofs (docs/api.md): "proofdesk"
    // (our STARK prover, Stone's proof format), "stone" (Stone's cpu_air_prover), "mock" or
    // "none".
    std::string proverName() const { return proverNameOf(effectiveEngine()); }
    static std::string proverNameOf(const QString& engine);
    // One line saying who proves and who verifies, for `proofdesk serve` and the console.
    QString description() const;
};

// A permanent (deterministic) or transient failure of a pipeline stage.
class StageFailure : public std::runtime_error {
public:
    StageFailure(bool transient, const std::string& reason)
        : std::runtime_error(reason), m_transient(transient) {}
    bool transient() const { return m_transient; }

private:
    bool m_transient;
};

struct ToolRun {
    bool started = false;
    bool timedOut = false;
    bool interrupted = false;
    int exitCode = -1;
    QString output; // the tail of stdout and stderr
};

// Runs an external tool in `workDir`, giving up after `timeoutSeconds` or when the job engine
// stops.
ToolRun runTool(const QString& program, const QStringList& arguments, const QString& workDir,
                int timeoutSeconds, const core::JobContext& context);

// Stone's cpu_air_params.json for a trace of `nSteps` (a power of two): FRI steps such that
// log2(last_layer_degree_bound) + sum(fri_step_list) = log2(nSteps) + 4.
nlohmann::json stoneParameters(std::uint64_t nSteps);
nlohmann::json stoneProverConfig();

// Proves a proof-mode run with cpu_air_prover: `runDir` holds the run's trace.bin, memory.bin,
// public_input.json and private_input.json (a sandboxed proof-mode-run wrote them). Returns
// proof.json's text. Throws StageFailure: permanent when Stone is not configured, transient for a
// prover crash or timeout.
std::string proveWithStone(const ProverSettings& settings, const QString& runDir,
                           std::uint64_t nSteps, const core::JobContext& context);

// Runs cpu_air_verifier on a proof and returns the tail of what it printed; throws StageFailure
// when it does not verify (permanent) or the verifier cannot run (transient on crash/timeout,
// permanent when not configured).
QString verifyWithStone(const ProverSettings& settings, const std::string& proofJson,
                        const QString& workDir, const core::JobContext& context);

} // namespace proofdesk::proof
