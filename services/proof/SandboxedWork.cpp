#include "SandboxedWork.h"

#include "Provers.h"
#include "core/ServiceError.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

namespace proofdesk::proof {
namespace {

// Codes a child returns for files that are not what they should be (the API's 400 codes).
bool isSubmitterFault(const std::string& code) {
    static const char* const kCodes[] = {"PROGRAM_FILE_SHOULD_BE_JSON",
                                         "INVALID_PROGRAM_FILE",
                                         "INPUT_FILE_FOR_CAIRO0_SHOULD_BE_JSON",
                                         "PIE_FILE_SHOULD_BE_ZIP",
                                         "INVALID_PIE_FILE",
                                         "PROOF_FILE_SHOULD_BE_JSON",
                                         "INVALID_PROOF_FILE",
                                         "INPUT_TOO_LARGE",
                                         "OUT_OF_MEMORY"};
    return std::find(std::begin(kCodes), std::end(kCodes), code) != std::end(kCodes);
}

std::string errorMessage(const nlohmann::json& result) {
    const nlohmann::json error = result.value("error", nlohmann::json::object());
    return error.value("message", std::string("the sandboxed run failed"));
}

std::string errorCode(const nlohmann::json& result) {
    const nlohmann::json error = result.value("error", nlohmann::json::object());
    return error.value("code", std::string("FAILED"));
}

// The configured program; else proofdesk-sandbox beside the running program; else where this
// build put it.
std::string sandboxProgramFor(const ProverSettings& settings) {
    if (!settings.sandboxProgram.isEmpty()) {
        return settings.sandboxProgram.toStdString();
    }
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const auto beside = self.parent_path() / "proofdesk-sandbox";
        if (::access(beside.c_str(), X_OK) == 0) {
            return beside.string();
        }
    }
    return PROOFDESK_BUILD_SANDBOX_PROGRAM;
}

} // namespace

SandboxedWork::SandboxedWork(const ProverSettings& settings, std::string workRoot)
    : m_runner(sandboxProgramFor(settings), std::move(workRoot)), m_limits(settings.sandboxLimits),
      m_proverLimits(settings.proverLimits), m_maxSteps(settings.maxSteps),
      m_pythonTimeLimitMs(settings.pythonHintTimeLimit.count()) {}

nlohmann::json SandboxedWork::runOptions(const std::string& layout,
                                         const std::string& cairoVm) const {
    return {{"layout", layout},
            {"cairoVm", cairoVm},
            {"maxSteps", m_maxSteps},
            {"pythonTimeLimitMs", m_pythonTimeLimitMs}};
}

nlohmann::json SandboxedWork::inspect(const std::vector<sandbox::SandboxInput>& inputs,
                                      bool checkNativeHints, const char* fallbackCode) const {
    sandbox::SandboxTask task;
    task.task = "inspect";
    task.options = {{"checkNativeHints", checkNativeHints}};
    task.inputs = inputs;
    task.limits = m_limits;
    task.limits.wallSeconds = std::min(m_limits.wallSeconds, 120);
    const sandbox::SandboxOutcome outcome = m_runner.run(task);
    if (outcome.end == sandbox::SandboxOutcome::End::CouldNotStart) {
        throw core::ServiceError(
            core::ErrorKind::Unavailable, "SANDBOX_UNAVAILABLE",
            "submitted files are read in a sandboxed child process, which cannot "
            "start: " +
                outcome.describe(task.limits));
    }
    if (!outcome.finished()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, fallbackCode,
                                 "reading it did not finish within the server's limits: " +
                                     outcome.describe(task.limits));
    }
    if (!outcome.result.value("ok", false)) {
        const std::string code = errorCode(outcome.result);
        if (isSubmitterFault(code)) {
            throw core::ServiceError(core::ErrorKind::BadRequest, code,
                                     errorMessage(outcome.result));
        }
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 "sandboxed inspection: " + errorMessage(outcome.result));
    }
    return outcome.result.value("value", nlohmann::json::object());
}

nlohmann::json SandboxedWork::inspectForStage(const std::vector<sandbox::SandboxInput>& inputs,
                                              const nlohmann::json& options) const {
    return runStage("inspect", inputs, options, nullptr, m_limits).facts;
}

SandboxedWork::Run
SandboxedWork::runStage(const std::string& taskName,
                        const std::vector<sandbox::SandboxInput>& inputs,
                        const nlohmann::json& options, const std::function<bool()>& cancelled,
                        const sandbox::Limits& limits,
                        const std::function<void(const nlohmann::json&)>& progress) const {
    sandbox::SandboxTask task;
    task.task = taskName;
    task.options = options;
    task.inputs = inputs;
    task.limits = limits;
    const sandbox::SandboxOutcome outcome = m_runner.run(task, cancelled, progress);
    switch (outcome.end) {
    case sandbox::SandboxOutcome::End::Finished:
        break;
    case sandbox::SandboxOutcome::End::Cancelled:
        throw StageFailure(true, "interrupted");
    case sandbox::SandboxOutcome::End::CouldNotStart:
        throw StageFailure(true, outcome.describe(task.limits));
    default: // the run itself crashed, exited, or hit a limit: the program's doing
        throw StageFailure(false, outcome.describe(task.limits));
    }
    if (!outcome.result.value("ok", false)) {
        const nlohmann::json error = outcome.result.value("error", nlohmann::json::object());
        throw StageFailure(!error.value("permanent", true), errorMessage(outcome.result));
    }
    return {outcome.result.value("value", nlohmann::json::object()), outcome.workDir};
}

SandboxedWork::Run SandboxedWork::trace(const std::vector<sandbox::SandboxInput>& inputs,
                                        const nlohmann::json& options,
                                        const std::function<bool()>& cancelled) const {
    return runStage("trace", inputs, options, cancelled, m_limits);
}

SandboxedWork::Run SandboxedWork::proofModeRun(const std::vector<sandbox::SandboxInput>& inputs,
                                               const nlohmann::json& options,
                                               const std::function<bool()>& cancelled) const {
    return runStage("proof-mode-run", inputs, options, cancelled, m_limits);
}

nlohmann::json SandboxedWork::verifyProof(const std::vector<sandbox::SandboxInput>& inputs,
                                          const nlohmann::json& options,
                                          const std::function<bool()>& cancelled) const {
    return runStage("verify-proof", inputs, options, cancelled, m_limits).facts;
}

SandboxedWork::Run
SandboxedWork::prove(const std::vector<sandbox::SandboxInput>& inputs,
                     const nlohmann::json& options, const std::function<bool()>& cancelled,
                     const std::function<void(const nlohmann::json&)>& progress) const {
    return runStage("prove", inputs, options, cancelled, m_proverLimits, progress);
}

} // namespace proofdesk::proof
