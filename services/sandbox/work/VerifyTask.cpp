// The verify task: our verifier over a proof file (no hint runs). The server reads what the proof
// states itself (proof/ProvenStatement.h); this answers whether it holds.

#include "ChildTasks.h"
#include "TaskInputs.h"

#include "sandbox/tasks/TaskTypes.h"
#include "stark/verifier/ProofVerifier.h"
#include "stark/verifier/VerdictJson.h"

namespace proofdesk::work {

nlohmann::json verifyTask(const sandbox::ChildContext& context) {
    const auto request = tasks::readAs<tasks::VerifyRequest>(context.options());
    const nlohmann::json proof = readProof(context);
    stark::VerifyOptions options;
    if (request.stoneVersion == "stone5") {
        options.seedVariant = stark::SeedVariant::Stone5;
    } else if (request.stoneVersion == "stone6") {
        options.seedVariant = stark::SeedVariant::Stone6;
    }
    options.memoryVerification =
        stark::memoryVerificationNamed(request.memoryVerification.value_or(""));
    const stark::Verdict verdict = stark::verifyStoneProof(proof, options);
    tasks::VerifyResult result;
    result.valid = verdict.valid;
    if (verdict.failedStage) {
        result.failedStage = stark::stageName(*verdict.failedStage);
    }
    result.failedCheck = verdict.failedCheck;
    if (verdict.seedVariant) {
        result.stoneVersion = stark::seedVariantName(*verdict.seedVariant);
    }
    if (!verdict.statement && !verdict.statementError.empty()) {
        result.statementError = verdict.statementError;
    }
    result.verdict = stark::verdictJson(verdict);
    return result;
}

} // namespace proofdesk::work
