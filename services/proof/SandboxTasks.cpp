#include "SandboxTasks.h"

#include "cairo/Runner.h"
#include "cairo/hints/BootloaderInput.h"
#include "cairo/hints/HintProcessor.h"
#include "cairo/outputs/CairoPie.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/ProgramHash.h"
#include "core/BoundedJson.h"
#include "stark/prover/ParameterChooser.h"
#include "stark/prover/ProofJson.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/TraceComponents.h"
#include "stark/verifier/ProofVerifier.h"
#include "stark/verifier/VerdictJson.h"

#include <chrono>
#include <filesystem>
#include <fstream>

namespace proofdesk::proof {
namespace {

using sandbox::ChildContext;
using sandbox::TaskError;

constexpr std::uint64_t kMaxProgramBytes = std::uint64_t{256} << 20;
constexpr std::uint64_t kMaxInputBytes = std::uint64_t{256} << 20;
constexpr core::JsonLimits kExact{core::kMaxJsonDepth, true}; // integers beyond 64 bits stay exact

nlohmann::json hexList(const std::vector<crypto::Felt>& values) {
    nlohmann::json list = nlohmann::json::array();
    for (const crypto::Felt& value : values) {
        list.push_back(value.toHex());
    }
    return list;
}

cairo::Program readProgram(const ChildContext& context) {
    const std::string text = context.readInput("program", kMaxProgramBytes);
    std::string why;
    const nlohmann::json parsed = core::parseJsonBounded(text, &why, kExact);
    if (parsed.is_discarded()) {
        throw TaskError("PROGRAM_FILE_SHOULD_BE_JSON", "programFile is " + why);
    }
    try {
        return cairo::Program::fromJson(parsed);
    } catch (const std::exception& failure) {
        throw TaskError("INVALID_PROGRAM_FILE",
                        std::string("programFile is not a compiled Cairo 0 program: ") +
                            failure.what());
    }
}

nlohmann::json programFacts(const cairo::Program& program, bool checkNativeHints) {
    nlohmann::json facts = {{"programHash", cairo::programHash(program).toHex()},
                            {"builtins", program.builtins},
                            {"proofMode", program.start.has_value()}};
    if (checkNativeHints) {
        for (const auto& [pc, hints] : program.hints) {
            for (const cairo::HintSpec& hint : hints) {
                if (!cairo::HintProcessor::hasNativeImplementation(hint.code)) {
                    facts["firstPythonOnlyHintPc"] = pc;
                    return facts;
                }
            }
        }
    }
    return facts;
}

nlohmann::json readProgramInput(const ChildContext& context, std::string* text) {
    if (!context.hasInput("input")) {
        return nlohmann::json::object();
    }
    *text = context.readInput("input", kMaxInputBytes);
    std::string why;
    nlohmann::json parsed = core::parseJsonBounded(*text, &why, kExact); // big felts stay exact
    if (parsed.is_discarded()) {
        throw TaskError("INPUT_FILE_FOR_CAIRO0_SHOULD_BE_JSON", "inputFile is " + why);
    }
    return parsed;
}

cairo::CairoPie readPie(const ChildContext& context) {
    const std::string zip = context.readInput("pie", kMaxInputBytes);
    if (zip.size() < 4 || zip.compare(0, 4, std::string("PK\x03\x04", 4)) != 0) {
        throw TaskError("PIE_FILE_SHOULD_BE_ZIP", "pieFile is not a zip file");
    }
    try {
        return cairo::CairoPie::fromZip(zip);
    } catch (const std::exception& failure) {
        throw TaskError("INVALID_PIE_FILE",
                        std::string("pieFile is not a Cairo PIE: ") + failure.what());
    }
}

nlohmann::json pieFacts(const ChildContext& context) {
    const cairo::CairoPie pie = readPie(context);
    try {
        return {{"programHash", pie.programHash().toHex()},
                {"output", hexList(pie.output())},
                {"nSteps", pie.resources.nSteps},
                {"resources", pie.resources.toJson()},
                {"builtins", pie.builtins}};
    } catch (const std::exception& failure) {
        throw TaskError("INVALID_PIE_FILE",
                        std::string("pieFile is not a Cairo PIE: ") + failure.what());
    }
}

nlohmann::json readProof(const ChildContext& context) {
    const std::string text = context.readInput("proof", kMaxInputBytes);
    std::string why;
    const nlohmann::json parsed = core::parseJsonBounded(text, &why);
    if (parsed.is_discarded()) {
        throw TaskError("PROOF_FILE_SHOULD_BE_JSON", "proofFile is " + why);
    }
    return parsed;
}

// What a Stone proof states, read from its public input (stark/proof/Statement.h), under the
// memory verification the submission asked for (strict, relaxed, cairo1; absent: the first
// that holds).
nlohmann::json proofFacts(const ChildContext& context) {
    const nlohmann::json proof = readProof(context);
    if (!proof.is_object() || !proof.contains("public_input") || !proof.contains("proof_hex")) {
        throw TaskError("INVALID_PROOF_FILE",
                        "proofFile is not a Stone proof: it needs proof_hex and public_input");
    }
    try {
        const stark::PublicInput input = stark::parsePublicInput(proof.at("public_input"));
        const std::string mode = context.options().value("memoryVerification", std::string());
        std::vector<stark::MemoryVerification> modes = {stark::MemoryVerification::Strict,
                                                        stark::MemoryVerification::Relaxed,
                                                        stark::MemoryVerification::Cairo1};
        if (const auto named = stark::memoryVerificationNamed(mode)) {
            modes = {*named};
        }
        std::string firstError;
        for (const stark::MemoryVerification each : modes) {
            try {
                const stark::Statement statement = stark::readStatement(input, each);
                return {{"layout", statement.layout},
                        {"nSteps", statement.nSteps},
                        {"programHash",
                         statement.programHash.value_or(statement.programWordsHash).toHex()},
                        {"output", hexList(statement.output)},
                        {"sharpFactHash", statement.sharpFactHash},
                        {"integrityFactHash", statement.integrityFactHash.toHex()}};
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

// Verifies a Stone proof with our own verifier; the verdict (stark/verifier/VerdictJson.h).
nlohmann::json verifyProof(const ChildContext& context) {
    const nlohmann::json proof = readProof(context);
    stark::VerifyOptions options;
    const std::string stoneVersion = context.options().value("stoneVersion", std::string());
    if (stoneVersion == "stone5" || stoneVersion == "stone6") {
        options.seedVariant =
            stoneVersion == "stone5" ? stark::SeedVariant::Stone5 : stark::SeedVariant::Stone6;
    }
    options.memoryVerification = stark::memoryVerificationNamed(
        context.options().value("memoryVerification", std::string()));
    const stark::Verdict verdict = stark::verifyStoneProof(proof, options);
    nlohmann::json out = stark::verdictJson(verdict);
    if (verdict.valid && verdict.publicInput) {
        out["outputCells"] = verdict.publicInput->outputCells(); // a bootloader's tasks included
    }
    return out;
}

// What a submission brought, checked in the order the service reports problems.
nlohmann::json inspect(const ChildContext& context) {
    nlohmann::json facts = nlohmann::json::object();
    std::string inputText;
    if (context.hasInput("input")) {
        readProgramInput(context, &inputText);
    }
    if (context.hasInput("program")) {
        facts["program"] =
            programFacts(readProgram(context), context.options().value("checkNativeHints", false));
    }
    if (context.hasInput("pie")) {
        facts["pie"] = pieFacts(context);
    }
    if (context.hasInput("proof")) {
        facts["proof"] = proofFacts(context);
    }
    return facts;
}

// A PIE is proven the way SHARP proves it: the program run is the bootloader's, with the PIE as
// its one task.
nlohmann::json pieAsBootloaderTask(const ChildContext& context, cairo::HintOptions& hints) {
    auto pie = std::make_shared<const cairo::CairoPie>(readPie(context));
    hints.cairoPies = [pie](const std::string& path) {
        if (path != "pie") {
            throw cairo::PieError("no PIE named " + path);
        }
        return pie;
    };
    return cairo::onePieTaskInput("pie");
}

cairo::RunOptions runOptions(const ChildContext& context, std::string* inputText) {
    const nlohmann::json& options = context.options();
    cairo::RunOptions run;
    run.layout = options.value("layout", std::string("auto"));
    if (context.hasInput("pie")) {
        run.programInput = pieAsBootloaderTask(context, run.hints);
        *inputText = run.programInput.dump();
    } else {
        run.programInput = readProgramInput(context, inputText);
    }
    run.hints.execution = options.value("cairoVm", std::string("rust")) == "python"
                              ? cairo::HintExecution::NativeThenPython
                              : cairo::HintExecution::NativeOnly;
    run.hints.pythonTimeLimit =
        std::chrono::milliseconds(options.value("pythonTimeLimitMs", std::int64_t{300000}));
    run.hints.allowFileWrites = false; // e.g. a bootloader input's fact_topologies_path
    run.hints.allowFileReads = false;  // e.g. a bootloader input's CairoPiePath tasks
    run.hints.programInputText = *inputText;
    if (options.contains("maxSteps")) {
        run.maxSteps = options.value("maxSteps", std::uint64_t{1} << 26);
    }
    return run;
}

// A run the program's own fault ended (an assertion, an unknown hint, a raising Python hint,
// the step limit): reported as a permanent failure with the VM's message.
template <typename Work> auto programFault(Work work) -> decltype(work()) {
    try {
        return work();
    } catch (const TaskError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& failure) {
        throw TaskError("RUN_FAILED", failure.what());
    }
}

nlohmann::json trace(const ChildContext& context) {
    const cairo::Program program = readProgram(context);
    std::string inputText;
    cairo::RunOptions options = runOptions(context, &inputText);
    options.proofMode = false;
    options.traceEnabled = false; // a PIE needs the memory, not the trace
    return programFault([&] {
        cairo::CairoRunner runner(program, options);
        runner.run();
        const cairo::CairoPie pie = cairo::CairoPie::fromRun(runner);
        {
            std::ofstream out("pie.zip", std::ios::binary);
            out << pie.toZip();
            if (!out.flush()) {
                throw TaskError("OUTPUT_TOO_LARGE", "cannot write the PIE (file size limit)");
            }
        }
        const cairo::ExecutionResources resources = runner.executionResources();
        // The server knows the hash of a registered program; computing it needs Pedersen's
        // tables, whose build would dominate a small run.
        const std::string known = context.options().value("programHash", std::string());
        return nlohmann::json{
            {"programHash", known.empty() ? cairo::programHash(program).toHex() : known},
            {"output", hexList(runner.output())},
            {"nSteps", resources.nSteps},
            {"resources", resources.toJson()},
            {"builtins", program.builtins},
            {"layout", runner.layout().name}};
    });
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) {
        throw TaskError("OUTPUT_TOO_LARGE", "cannot write " + path + " (file size limit)");
    }
}

nlohmann::json proofModeRun(const ChildContext& context) {
    const cairo::Program program = readProgram(context);
    if (!program.start) {
        throw TaskError("NOT_A_PROOF_MODE_PROGRAM",
                        "proving needs a proof-mode run: compile the program with cairo-compile "
                        "--proof_mode (it has no __start__)");
    }
    std::string inputText;
    cairo::RunOptions options = runOptions(context, &inputText);
    options.proofMode = true;
    const std::string dir = std::filesystem::current_path().string(); // the work directory
    return programFault([&] {
        cairo::CairoRunner runner(program, options);
        runner.run();
        const std::string trace = dir + "/trace.bin";
        const std::string memory = dir + "/memory.bin";
        {
            std::ofstream out("trace.bin", std::ios::binary);
            runner.writeTrace(out);
            if (!out.flush()) {
                throw TaskError("OUTPUT_TOO_LARGE", "cannot write the trace (file size limit)");
            }
        }
        {
            std::ofstream out("memory.bin", std::ios::binary);
            runner.writeMemory(out);
            if (!out.flush()) {
                throw TaskError("OUTPUT_TOO_LARGE", "cannot write the memory (file size limit)");
            }
        }
        writeText("public_input.json", runner.airPublicInput().dump(1));
        writeText("private_input.json", runner.airPrivateInput(trace, memory).dump(1));
        return nlohmann::json{{"nSteps", runner.vm().steps()}, {"layout", runner.layout().name}};
    });
}

// Runs a program in proof mode and proves the run with our prover: proof.json (Stone's format)
// in the work directory, progress reported as the prover goes. Options beyond a run's: channel
// ("stone" or "integrity") and securityBits.
nlohmann::json prove(const ChildContext& context) {
    const cairo::Program program = readProgram(context);
    if (!program.start) {
        throw TaskError("NOT_A_PROOF_MODE_PROGRAM",
                        "proving needs a proof-mode run: compile the program with cairo-compile "
                        "--proof_mode (it has no __start__)");
    }
    std::string inputText;
    cairo::RunOptions options = runOptions(context, &inputText);
    options.proofMode = true;
    const auto started = std::chrono::steady_clock::now();
    sandbox::reportProgress({{"phase", "running the program"}, {"fraction", 0.0}});
    const stark::CairoRun run = programFault([&] {
        cairo::CairoRunner runner(program, options);
        runner.run();
        return stark::cairoRunOf(runner);
    });

    const nlohmann::json& settings = context.options();
    const auto profile =
        stark::channelProfileNamed(settings.value("channel", std::string("stone")));
    stark::ProverOptions prover;
    prover.parameters = stark::chooseParameters(stark::traceRows(run.publicInput),
                                                settings.value("securityBits", 96),
                                                profile.value_or(stark::ChannelProfile::Stone));
    auto lastReport = started;
    prover.progress = [&](const stark::ProverProgress& progress) {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastReport >= std::chrono::milliseconds(200)) {
            lastReport = now;
            sandbox::reportProgress({{"phase", progress.phase}, {"fraction", progress.fraction}});
        }
    };
    stark::ProverResult result;
    try {
        result = stark::proveCairoRun(run, prover);
    } catch (const stark::TraceError& failure) {
        throw TaskError("UNPROVABLE_RUN", failure.what());
    } catch (const std::invalid_argument& failure) {
        throw TaskError("UNPROVABLE_RUN", failure.what());
    }
    writeText("proof.json",
              stark::stoneProofJson(result, prover.parameters, stark::defaultProverConfig(), run)
                  .dump(1));
    nlohmann::json timings = nlohmann::json::array();
    for (const stark::PhaseTiming& timing : result.timings) {
        timings.push_back({{"phase", timing.phase}, {"seconds", timing.seconds}});
    }
    return {{"nSteps", run.publicInput.nSteps},
            {"layout", run.publicInput.layout},
            {"traceRows", result.traceLength},
            {"traceColumns", result.traceColumns},
            {"proofBytes", result.proof.size()},
            {"parameters", stark::proofParametersJson(prover.parameters)},
            {"securityBits", stark::securityBits(prover.parameters)},
            {"timings", timings},
            {"seconds",
             std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()}};
}

} // namespace

std::map<std::string, sandbox::TaskFunction> proofSandboxTasks() {
    return {{"inspect", inspect},
            {"trace", trace},
            {"proof-mode-run", proofModeRun},
            {"prove", prove},
            {"verify-proof", verifyProof}};
}

} // namespace proofdesk::proof
