// The inspect task: what a submission brought, read by our code alone (no hint of it runs).

#include "ChildTasks.h"
#include "TaskInputs.h"

#include "cairo/cairo1/Executable.h"
#include "cairo/hints/HintProcessor.h"
#include "cairo/vm/ProgramHash.h"
#include "sandbox/tasks/TaskTypes.h"
#include "stark/Rejection.h"
#include "stark/proof/Statement.h"

namespace proofdesk::work {
namespace {

using sandbox::ChildContext;
using sandbox::TaskError;

tasks::ProgramFacts programFacts(const cairo::Program& program, bool checkNativeHints) {
    tasks::ProgramFacts facts;
    facts.programHash = cairo::programHash(program);
    facts.builtins = program.builtins;
    facts.proofMode = program.start.has_value();
    facts.cairo1 = program.cairo1;
    if (checkNativeHints && !program.cairo1) {
        for (const auto& [pc, hints] : program.hints) {
            for (const cairo::HintSpec& hint : hints) {
                if (!facts.firstPythonOnlyHintPc &&
                    !cairo::HintProcessor::hasNativeImplementation(hint.code)) {
                    facts.firstPythonOnlyHintPc = pc;
                }
            }
        }
    }
    return facts;
}

tasks::PieFacts pieFacts(const ChildContext& context) {
    const cairo::CairoPie pie = readPie(context);
    try {
        tasks::PieFacts facts;
        facts.programHash = pie.programHash();
        facts.output = pie.output();
        facts.nSteps = pie.resources.nSteps;
        facts.resources = pie.resources.toJson();
        facts.builtins = pie.builtins;
        facts.cairo1 = cairo::isCairo1ExecutableProgram(pie.programData, pie.main);
        return facts;
    } catch (const std::exception& failure) {
        throw TaskError("INVALID_PIE_FILE",
                        std::string("pieFile is not a Cairo PIE: ") + failure.what());
    }
}

// What a Stone proof states, read from its public input (stark/proof/Statement.h), under the
// memory verification asked for (strict, relaxed, cairo1; absent: the first that holds). Whether
// it holds is the verify task's question, asked at PROOF_VERIFICATION.
tasks::ProofFacts proofFacts(const ChildContext& context,
                             const std::optional<std::string>& memoryVerification) {
    const nlohmann::json proof = readProof(context);
    if (!proof.is_object() || !proof.contains("public_input") || !proof.contains("proof_hex")) {
        throw TaskError("INVALID_PROOF_FILE",
                        "proofFile is not a Stone proof: it needs proof_hex and public_input");
    }
    try {
        const stark::PublicInput input = stark::parsePublicInput(proof.at("public_input"));
        std::vector<stark::MemoryVerification> modes = {stark::MemoryVerification::Strict,
                                                        stark::MemoryVerification::Relaxed,
                                                        stark::MemoryVerification::Cairo1};
        if (memoryVerification) {
            if (const auto named = stark::memoryVerificationNamed(*memoryVerification)) {
                modes = {*named};
            }
        }
        std::string firstError;
        for (const stark::MemoryVerification each : modes) {
            try {
                const stark::Statement statement = stark::readStatement(input, each);
                tasks::ProofFacts facts;
                facts.layout = statement.layout;
                facts.nSteps = statement.nSteps;
                facts.memoryVerification = stark::memoryVerificationName(each);
                facts.programHash = statement.programHash.value_or(statement.programWordsHash);
                facts.output = statement.output;
                facts.sharpFactHash = statement.sharpFactHash;
                facts.integrityFactHash = statement.integrityFactHash;
                return facts;
            } catch (const stark::Rejection& rejection) {
                if (firstError.empty()) {
                    firstError = rejection.what();
                }
            }
        }
        throw TaskError("INVALID_PROOF_FILE",
                        "proofFile's statement cannot be read: " + firstError);
    } catch (const stark::Rejection& rejection) {
        throw TaskError("INVALID_PROOF_FILE",
                        std::string("proofFile is not a Stone proof: ") + rejection.what());
    }
}

} // namespace

// The files, checked in the order the service reports problems: input, program, PIE, proof.
nlohmann::json inspectTask(const ChildContext& context) {
    const auto request = tasks::readAs<tasks::InspectRequest>(context.options());
    tasks::InspectResult result;
    if (context.hasInput(tasks::slot::kProgram)) {
        std::optional<cairo::Program> read;
        try {
            read = readProgram(context);
        } catch (const TaskError&) {
            readProgramInputText(context); // an input that is not JSON is said first
            throw;
        }
        const cairo::Program& program = *read;
        // The input is the program's input (Cairo 0) or its arguments (Cairo 1).
        program.cairo1 ? static_cast<void>(readArguments(context))
                       : static_cast<void>(readProgramInputText(context));
        result.program = programFacts(program, request.checkNativeHints);
    } else {
        readProgramInputText(context);
    }
    if (context.hasInput(tasks::slot::kPie)) {
        result.pie = pieFacts(context);
    }
    if (context.hasInput(tasks::slot::kProof)) {
        result.proof = proofFacts(context, request.memoryVerification);
    }
    return result;
}

} // namespace proofdesk::work
