#include "RunSetup.h"

#include "hints/BootloaderInput.h"
#include "pie/CairoPie.h"
#include "vm/ExactJson.h"

#include <stdexcept>

namespace proofdesk::cairo {
namespace {

RunOptions baseOptions(const RunSetup& setup) {
    RunOptions options;
    options.layout = setup.layout;
    options.dynamicLayoutParams = setup.dynamicLayoutParams;
    options.proofMode = setup.proofMode;
    options.allowMissingBuiltins = setup.allowMissingBuiltins;
    options.maxSteps = setup.maxSteps;
    options.steps = setup.steps;
    options.minSteps = setup.minSteps;
    options.traceEnabled = setup.traceEnabled;
    options.hints.execution = setup.hints;
    options.hints.pythonTimeLimit = setup.pythonTimeLimit;
    options.hints.allowFileReads = setup.fileAccess;
    options.hints.allowFileWrites = setup.fileAccess;
    options.arguments = setup.arguments;
    return options;
}

} // namespace

std::optional<HintExecution> hintExecutionNamed(const std::string& cairoVm) {
    if (cairoVm == "rust") {
        return HintExecution::NativeOnly;
    }
    if (cairoVm == "python") {
        return HintExecution::NativeThenPython;
    }
    return std::nullopt;
}

const char* cairoVmName(HintExecution execution) {
    return execution == HintExecution::NativeOnly ? "rust" : "python";
}

RunOptions runOptionsOf(const RunSetup& setup, const std::string& programInputText) {
    RunOptions options = baseOptions(setup);
    options.programInput = nlohmann::json::object();
    if (!programInputText.empty()) {
        options.programInput = parseExactJson(programInputText);
        if (options.programInput.is_discarded()) {
            throw std::invalid_argument("the program input is not valid JSON");
        }
        options.hints.programInputText = programInputText;
    }
    return options;
}

RunOptions runOptionsForPie(const RunSetup& setup, std::shared_ptr<const CairoPie> pie,
                            const std::string& piePath) {
    RunOptions options = baseOptions(setup);
    // The bootloader declares every builtin a task might take; `auto` needs only those its run
    // over this PIE uses (its proof is recognised by the bootloader's words).
    options.autoLayoutByUsedBuiltins = true;
    options.programInput = onePieTaskInput(piePath);
    options.hints.programInputText = options.programInput.dump();
    if (pie) {
        options.hints.cairoPies = [pie, piePath](const std::string& path) {
            if (path != piePath) {
                throw PieError("no PIE named " + path);
            }
            return pie;
        };
    }
    return options;
}

} // namespace proofdesk::cairo
