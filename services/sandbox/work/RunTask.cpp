// The run task: the VM over a submitted program with its hints (native, or Python with
// cairoVm=python), or over the server's bootloader with a submitted PIE as its one task.

#include "ChildTasks.h"
#include "TaskInputs.h"

#include "cairo/RunSetup.h"
#include "cairo/Runner.h"
#include "cairo/vm/ProgramHash.h"
#include "sandbox/tasks/TaskTypes.h"

#include <filesystem>
#include <fstream>
#include <functional>

namespace proofdesk::work {
namespace {

using sandbox::ChildContext;
using sandbox::TaskError;

cairo::RunOptions optionsFor(const ChildContext& context, const tasks::RunRequest& request,
                             const cairo::Program& program) {
    if (context.hasInput(tasks::slot::kPie)) {
        auto pie = std::make_shared<const cairo::CairoPie>(readPie(context));
        return cairo::runOptionsForPie(request.setup, std::move(pie), tasks::slot::kPie);
    }
    if (program.cairo1) {
        // A Cairo 1 program's input is its arguments, not a program_input.
        cairo::RunSetup setup = request.setup;
        setup.arguments = readArguments(context);
        return cairo::runOptionsOf(setup);
    }
    return cairo::runOptionsOf(request.setup, readProgramInputText(context));
}

void writeStream(const char* name, const std::function<void(std::ostream&)>& write) {
    std::ofstream out(name, std::ios::binary);
    write(out);
    if (!out.flush()) {
        throw TaskError("OUTPUT_TOO_LARGE",
                        std::string("cannot write ") + name + " (file size limit)");
    }
}

} // namespace

// In proof mode (asked for, and the program compiled for it) it writes cairo-run's trace, memory
// and AIR inputs, what the prove task (or Stone's prover) proves; else pie.zip. Either way it
// claims the run's statement.
nlohmann::json runTask(const ChildContext& context) {
    const auto request = tasks::readAs<tasks::RunRequest>(context.options());
    const cairo::Program program = readProgram(context);
    const bool proofMode = request.setup.proofMode && program.start.has_value();
    cairo::RunOptions options = optionsFor(context, request, program);
    options.proofMode = proofMode;
    options.traceEnabled = proofMode; // a PIE needs the memory, not the trace
    return programFault([&] {
        cairo::CairoRunner runner(program, options);
        runner.run();
        if (proofMode) {
            writeStream(tasks::output::kTrace, [&](std::ostream& out) { runner.writeTrace(out); });
            writeStream(tasks::output::kMemory,
                        [&](std::ostream& out) { runner.writeMemory(out); });
            const std::string dir = std::filesystem::current_path().string();
            writeOutputFile(tasks::output::kPublicInput, runner.airPublicInput().dump(1));
            writeOutputFile(tasks::output::kPrivateInput,
                            runner
                                .airPrivateInput(dir + "/" + tasks::output::kTrace,
                                                 dir + "/" + tasks::output::kMemory)
                                .dump(1));
        } else {
            writeOutputFile(tasks::output::kPie, runner.pie().toZip());
        }
        tasks::RunClaims claims;
        // The server knows the hash of a registered program; computing it needs Pedersen's
        // tables, whose build would dominate a small run.
        claims.programHash =
            request.programHash ? *request.programHash : cairo::programHash(program);
        claims.output = runner.output();
        const cairo::ExecutionResources resources = runner.executionResources();
        claims.nSteps = resources.nSteps;
        claims.resources = resources.toJson();
        claims.builtins = program.builtins;
        claims.layout = runner.layout().name;
        claims.proofMode = proofMode;
        return nlohmann::json(claims);
    });
}

} // namespace proofdesk::work
