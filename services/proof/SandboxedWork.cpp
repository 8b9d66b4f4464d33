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
                                         "INPUT_FILE_FOR_CAIRO1_SHOULD_BE_JSON_ARRAY",
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
    return error.is_object() ? error.value("message", std::string("the sandboxed run failed"))
                             : std::string("the sandboxed run failed");
}

std::string errorCode(const nlohmann::json& result) {
    const nlohmann::json error = result.value("error", nlohmann::json::object());
    return error.is_object() ? error.value("code", std::string("FAILED")) : "FAILED";
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

template <typename Result> Result parsed(const nlohmann::json& value) {
    try {
        return tasks::readAs<Result>(value);
    } catch (const std::exception& failure) {
        throw StageFailure(false, std::string("the sandboxed run returned a malformed result: ") +
                                      failure.what());
    }
}

} // namespace

SandboxedWork::SandboxedWork(const ProverSettings& settings, std::string workRoot)
    : m_runner(sandboxProgramFor(settings), std::move(workRoot)), m_limits(settings.sandboxLimits),
      m_proverLimits(settings.proverLimits), m_maxSteps(settings.maxSteps),
      m_pythonTimeLimit(settings.pythonHintTimeLimit) {}

tasks::RunRequest SandboxedWork::runRequest(const std::string& layout, const std::string& cairoVm,
                                            bool proofMode) const {
    tasks::RunRequest request;
    request.setup.layout = layout.empty() ? "auto" : layout;
    request.setup.proofMode = proofMode;
    request.setup.hints =
        cairo::hintExecutionNamed(cairoVm).value_or(cairo::HintExecution::NativeOnly);
    request.setup.pythonTimeLimit = m_pythonTimeLimit;
    request.setup.maxSteps = m_maxSteps;
    request.setup.fileAccess = false;
    return request;
}

sandbox::SandboxOutcome
SandboxedWork::call(tasks::Task task, const nlohmann::json& request,
                    const std::vector<sandbox::SandboxInput>& inputs, const sandbox::Limits& limits,
                    bool sealInputs, const Cancelled& cancelled,
                    const std::function<void(const nlohmann::json&)>& progress) const {
    sandbox::SandboxTask run;
    run.task = tasks::taskName(task);
    run.options = request;
    run.inputs = inputs;
    run.limits = limits;
    run.sealInputs = sealInputs;
    return m_runner.run(run, cancelled, progress);
}

tasks::InspectResult SandboxedWork::inspect(const std::vector<sandbox::SandboxInput>& inputs,
                                            const tasks::InspectRequest& request,
                                            const char* fallbackCode) const {
    sandbox::Limits limits = m_limits;
    limits.wallSeconds = std::min(m_limits.wallSeconds, 120);
    const sandbox::SandboxOutcome outcome =
        call(tasks::Task::Inspect, request, inputs, limits, false, nullptr, nullptr);
    if (outcome.end == sandbox::SandboxOutcome::End::CouldNotStart) {
        throw core::ServiceError(
            core::ErrorKind::Unavailable, "SANDBOX_UNAVAILABLE",
            "submitted files are read in a sandboxed child process, which cannot "
            "start: " +
                outcome.describe(limits));
    }
    if (!outcome.finished()) {
        throw core::ServiceError(core::ErrorKind::BadRequest, fallbackCode,
                                 "reading it did not finish within the server's limits: " +
                                     outcome.describe(limits));
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
    try {
        return tasks::readAs<tasks::InspectResult>(outcome.result.value("value", nlohmann::json()));
    } catch (const std::exception& failure) {
        throw core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR",
                                 std::string("sandboxed inspection returned a malformed "
                                             "result: ") +
                                     failure.what());
    }
}

template <typename Result>
SandboxedWork::Output<Result>
SandboxedWork::stage(tasks::Task task, const nlohmann::json& request,
                     const std::vector<sandbox::SandboxInput>& inputs,
                     const sandbox::Limits& limits, bool sealInputs, const Cancelled& cancelled,
                     const std::function<void(const nlohmann::json&)>& progress) const {
    const sandbox::SandboxOutcome outcome =
        call(task, request, inputs, limits, sealInputs, cancelled, progress);
    switch (outcome.end) {
    case sandbox::SandboxOutcome::End::Finished:
        break;
    case sandbox::SandboxOutcome::End::Cancelled:
        throw StageFailure(true, "interrupted");
    case sandbox::SandboxOutcome::End::CouldNotStart:
        throw StageFailure(true, outcome.describe(limits));
    default: // the run itself crashed, exited, or hit a limit: the program's doing
        throw StageFailure(false, outcome.describe(limits));
    }
    if (!outcome.result.value("ok", false)) {
        const nlohmann::json error = outcome.result.value("error", nlohmann::json::object());
        const bool permanent = !error.is_object() || error.value("permanent", true);
        throw StageFailure(!permanent, errorMessage(outcome.result));
    }
    return {parsed<Result>(outcome.result.value("value", nlohmann::json())), outcome.workDir};
}

tasks::InspectResult
SandboxedWork::inspectForStage(const std::vector<sandbox::SandboxInput>& inputs,
                               const tasks::InspectRequest& request,
                               const Cancelled& cancelled) const {
    return stage<tasks::InspectResult>(tasks::Task::Inspect, request, inputs, m_limits, false,
                                       cancelled)
        .result;
}

SandboxedWork::Output<tasks::RunClaims>
SandboxedWork::run(const std::vector<sandbox::SandboxInput>& inputs,
                   const tasks::RunRequest& request, const Cancelled& cancelled) const {
    // With Python hints the submitter's own code runs in the child: it reads private copies.
    const bool submittedCode = request.setup.hints != cairo::HintExecution::NativeOnly;
    return stage<tasks::RunClaims>(tasks::Task::Run, request, inputs, m_limits, submittedCode,
                                   cancelled);
}

SandboxedWork::Output<tasks::ProveResult>
SandboxedWork::prove(const std::vector<sandbox::SandboxInput>& inputs,
                     const tasks::ProveRequest& request, const Cancelled& cancelled,
                     const std::function<void(const tasks::Progress&)>& progress) const {
    const auto report = [&progress](const nlohmann::json& value) {
        try {
            if (progress) {
                progress(tasks::readAs<tasks::Progress>(value));
            }
        } catch (const std::exception&) {
            // a malformed report is ignored: progress is informative only
        }
    };
    return stage<tasks::ProveResult>(tasks::Task::Prove, request, inputs, m_proverLimits, false,
                                     cancelled, report);
}

tasks::VerifyResult SandboxedWork::verify(const std::vector<sandbox::SandboxInput>& inputs,
                                          const tasks::VerifyRequest& request,
                                          const Cancelled& cancelled) const {
    return stage<tasks::VerifyResult>(tasks::Task::Verify, request, inputs, m_limits, false,
                                      cancelled)
        .result;
}

} // namespace proofdesk::proof
