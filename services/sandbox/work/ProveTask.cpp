// The prove task: our prover over a proof-mode run's files. No VM runs here and no hint: the run
// task made the files, and whatever they hold, a proof of them states only what they prove.

#include "ChildTasks.h"
#include "TaskInputs.h"

#include "core/BoundedJson.h"
#include "sandbox/tasks/TaskTypes.h"
#include "stark/prover/ParameterChooser.h"
#include "stark/prover/ProofJson.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/CairoRun.h"
#include "stark/prover/trace/TraceComponents.h"

#include <chrono>

namespace proofdesk::work {
namespace {

using sandbox::ChildContext;
using sandbox::TaskError;

// A run's files are at most this large (a run of 2^26 steps writes well under it).
constexpr std::uint64_t kMaxRunFileBytes = std::uint64_t{16} << 30;
constexpr std::uint64_t kMaxAirInputBytes = std::uint64_t{4} << 30;

std::span<const std::uint8_t> bytesOf(const std::string& text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

nlohmann::json readAirInput(const ChildContext& context, const char* slot) {
    std::string why;
    const nlohmann::json parsed =
        core::parseJsonBounded(context.readInput(slot, kMaxAirInputBytes), &why);
    if (parsed.is_discarded()) {
        throw TaskError("UNPROVABLE_RUN", std::string("the run's ") + slot + " is " + why);
    }
    return parsed;
}

stark::CairoRun readRun(const ChildContext& context) {
    const nlohmann::json publicInput = readAirInput(context, tasks::slot::kPublicInput);
    const nlohmann::json privateInput = readAirInput(context, tasks::slot::kPrivateInput);
    const std::string trace = context.readInput(tasks::slot::kTrace, kMaxRunFileBytes);
    const std::string memory = context.readInput(tasks::slot::kMemory, kMaxRunFileBytes);
    try {
        return stark::readCairoRun(publicInput, privateInput, bytesOf(trace), bytesOf(memory));
    } catch (const std::exception& failure) {
        throw TaskError("UNPROVABLE_RUN", std::string("the run's files: ") + failure.what());
    }
}

} // namespace

// proof.json (Stone's format) in the work directory, progress reported as the prover goes.
nlohmann::json proveTask(const ChildContext& context) {
    const auto request = tasks::readAs<tasks::ProveRequest>(context.options());
    const auto started = std::chrono::steady_clock::now();
    sandbox::reportProgress(tasks::Progress{"reading the run", 0.0});
    const stark::CairoRun run = readRun(context);

    const auto profile = stark::channelProfileNamed(request.channel);
    const auto optimize = stark::optimizeNamed(request.optimize);
    if (!profile || !optimize) {
        throw TaskError("UNPROVABLE_RUN", "the prove request names an unknown channel or optimize");
    }
    stark::ProverOptions prover;
    prover.parameters = stark::chooseParameters(stark::traceRows(run.publicInput),
                                                request.securityBits, *profile, *optimize);
    auto lastReport = started;
    prover.progress = [&](const stark::ProverProgress& progress) {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastReport >= std::chrono::milliseconds(200)) {
            lastReport = now;
            sandbox::reportProgress(tasks::Progress{progress.phase, progress.fraction});
        }
    };
    stark::ProverResult proven;
    try {
        proven = stark::proveCairoRun(run, prover);
    } catch (const stark::TraceError& failure) {
        throw TaskError("UNPROVABLE_RUN", failure.what());
    } catch (const std::invalid_argument& failure) {
        throw TaskError("UNPROVABLE_RUN", failure.what());
    }
    writeOutputFile(tasks::output::kProof, stark::stoneProofJson(proven, prover.parameters,
                                                                 stark::defaultProverConfig(), run)
                                               .dump(1));
    tasks::ProveResult result;
    result.nSteps = run.publicInput.nSteps;
    result.layout = run.publicInput.layout;
    result.traceRows = proven.traceLength;
    result.traceColumns = proven.traceColumns;
    result.proofBytes = proven.proof.size();
    result.parameters = stark::proofParametersJson(prover.parameters);
    result.securityBits = stark::securityBits(prover.parameters);
    for (const stark::PhaseTiming& timing : proven.timings) {
        result.timings.push_back({timing.phase, timing.seconds});
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace proofdesk::work
