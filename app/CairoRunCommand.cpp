#include "Commands.h"
#include "core/BoundedJson.h"

#include "cairo/ProgramFiles.h"
#include "cairo/RunSetup.h"
#include "cairo/Runner.h"
#include "cairo/cairo1/Executable.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/vm/ProgramHash.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace proofdesk::cairo;

namespace {

const std::vector<std::string> kCairoRunValues = {"program",
                                                  "program_input",
                                                  "layout",
                                                  "trace_file",
                                                  "memory_file",
                                                  "air_public_input",
                                                  "air_private_input",
                                                  "max_steps",
                                                  "cairo_layout_params_file",
                                                  "cairo_pie_output",
                                                  "steps",
                                                  "min_steps",
                                                  "cairo_vm",
                                                  "python_hint_time_limit"};
const std::vector<std::string> kCairoRunSwitches = {
    "proof_mode", "print_output", "print_info",     "allow_missing_builtins",
    "no_trace",   "print_memory", "print_segments", "relocate_prints"};

const char* kExecuteUsage =
    "usage: proofdesk execute --executable NAME.executable.json\n"
    "         [--arguments A,B,... | --arguments-file ARGS.json] [--print_output] [--proof_mode]\n"
    "         [--layout L] [--trace_file F] [--memory_file F] [--air_public_input F]\n"
    "         [--air_private_input F] [--cairo_pie_output PIE.zip] [--max_steps N] [--print_info]\n"
    "  Runs a Cairo 1 program as Scarb builds it (target/<profile>/<name>.executable.json).\n"
    "  --arguments: the flat Serde felts of its parameters, decimal or 0x-hex, comma-separated;\n"
    "    --arguments-file: a JSON array of them (numbers or strings).\n"
    "  --proof_mode runs the Standalone entry, for a proof; otherwise the Bootloader entry runs,\n"
    "    and --cairo_pie_output writes the run as a Cairo PIE the bootloader proves.\n"
    "  --layout: a layout name, dynamic, or auto (the default: the cheapest that has the\n"
    "    builtins).\n"
    "  A panic fails the run with its message (exit status 1).\n";
const std::vector<std::string> kExecuteValues = {
    "executable",       "arguments",   "arguments-file",          "layout",
    "trace_file",       "memory_file", "air_public_input",        "air_private_input",
    "cairo_pie_output", "max_steps",   "cairo_layout_params_file"};
const std::vector<std::string> kExecuteSwitches = {"proof_mode",     "print_output",
                                                   "print_info",     "print_memory",
                                                   "print_segments", "relocate_prints"};

const char* kUsage =
    "usage: proofdesk cairo-run --program P.json [--program_input I.json] [--layout L]\n"
    "         [--proof_mode] [--print_output] [--print_info] [--trace_file F] [--memory_file F]\n"
    "         [--air_public_input F] [--air_private_input F] [--max_steps N]\n"
    "         [--steps N | --min_steps N] [--print_memory] [--print_segments] [--relocate_prints]\n"
    "         [--cairo_pie_output F] [--cairo_layout_params_file F] [--allow_missing_builtins]\n"
    "         [--no_trace] [--cairo_vm rust|python] [--python_hint_time_limit SECONDS]\n"
    "  --cairo_vm python runs hints without a native implementation as Python (the hint code\n"
    "  is the program's own: run only programs you trust).\n";

// cairo-run style flags: "--name value", "--name=value" and boolean "--name".
struct Flags {
    std::map<std::string, std::string> values;
    std::vector<std::string> switches;
    bool has(const std::string& name) const {
        return values.count(name) ||
               std::find(switches.begin(), switches.end(), name) != switches.end();
    }
    std::optional<std::string> value(const std::string& name) const {
        auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

bool parseFlags(int argc, char** argv, const std::vector<std::string>& withValue,
                const std::vector<std::string>& booleans, Flags* flags, std::string* error) {
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0) {
            *error = "unexpected argument " + arg;
            return false;
        }
        arg = arg.substr(2);
        std::string value;
        bool hasValue = false;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            hasValue = true;
        }
        if (std::find(withValue.begin(), withValue.end(), arg) != withValue.end()) {
            if (!hasValue) {
                if (i + 1 >= argc) {
                    *error = "--" + arg + " needs a value";
                    return false;
                }
                value = argv[++i];
            }
            flags->values[arg] = value;
        } else if (std::find(booleans.begin(), booleans.end(), arg) != booleans.end()) {
            flags->switches.push_back(arg);
        } else {
            *error = "unknown flag --" + arg;
            return false;
        }
    }
    return true;
}

std::optional<std::string> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

bool writeFile(const std::string& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    return static_cast<bool>(out);
}

// Output flags that do not go together, said as the command line's error.
std::optional<std::string> outputFlagsProblem(const Flags& flags) {
    const bool proof = flags.has("proof_mode");
    if ((flags.value("air_public_input") || flags.value("air_private_input")) && !proof) {
        return "--air_public_input and --air_private_input need --proof_mode";
    }
    if (flags.value("air_private_input") &&
        (!flags.value("trace_file") || !flags.value("memory_file"))) {
        return "--air_private_input needs --trace_file and --memory_file";
    }
    if (flags.value("cairo_pie_output") && proof) {
        return "--cairo_pie_output cannot be used with --proof_mode";
    }
    return std::nullopt;
}

// What the flags ask of a finished run: printed output, segments, memory and info; the trace,
// memory, Cairo PIE and AIR input files.
void writeRunOutputs(const Flags& flags, CairoRunner& runner) {
    if (flags.has("print_output")) {
        std::cout << runner.printedOutput();
    }
    const bool relocated = flags.has("relocate_prints");
    if (flags.has("print_segments")) {
        std::cout << runner.printedSegments();
    }
    if (flags.has("print_memory")) {
        std::cout << runner.printedMemory(relocated);
    }
    if (flags.has("print_info")) {
        std::cout << runner.printedInfo(relocated) << "\n";
    }
    if (auto path = flags.value("trace_file")) {
        std::ofstream out(*path, std::ios::binary | std::ios::trunc);
        runner.writeTrace(out);
    }
    if (auto path = flags.value("memory_file")) {
        std::ofstream out(*path, std::ios::binary | std::ios::trunc);
        runner.writeMemory(out);
    }
    if (auto path = flags.value("cairo_pie_output")) {
        runner.pie().writeFile(*path);
    }
    if (auto path = flags.value("air_public_input")) {
        writeFile(*path, runner.airPublicInput().dump(4) + "\n");
    }
    if (auto path = flags.value("air_private_input")) {
        const std::string trace = std::filesystem::absolute(*flags.value("trace_file")).string();
        const std::string memory = std::filesystem::absolute(*flags.value("memory_file")).string();
        writeFile(*path, runner.airPrivateInput(trace, memory).dump(4) + "\n");
    }
}

} // namespace

int runCairoRunCommand(int argc, char** argv) {
    Flags flags;
    std::string error;
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::cout << kUsage;
        return 0;
    }
    if (!parseFlags(argc, argv, kCairoRunValues, kCairoRunSwitches, &flags, &error) ||
        !flags.value("program")) {
        std::cerr << (error.empty() ? "--program is required" : error) << "\n" << kUsage;
        return 2;
    }
    const bool proof = flags.has("proof_mode");
    if (const auto problem = outputFlagsProblem(flags)) {
        std::cerr << *problem << "\n";
        return 2;
    }
    try {
        const Program program = programFromFile(*flags.value("program"));
        RunSetup setup;
        setup.layout = flags.value("layout").value_or("plain");
        setup.proofMode = proof;
        if (flags.has("allow_missing_builtins")) {
            setup.allowMissingBuiltins = true;
        }
        setup.traceEnabled = !flags.has("no_trace") || proof || flags.value("trace_file");
        if (flags.value("steps") && flags.value("min_steps")) {
            std::cerr << "--steps and --min_steps cannot be used together\n";
            return 2;
        }
        for (const auto& [flag, target] :
             {std::pair{"max_steps", &setup.maxSteps}, std::pair{"steps", &setup.steps},
              std::pair{"min_steps", &setup.minSteps}}) {
            if (auto value = flags.value(flag)) {
                try {
                    *target = std::stoull(*value);
                } catch (const std::exception&) {
                    std::cerr << "--" << flag << " expects a number, got " << *value << "\n";
                    return 2;
                }
            }
        }
        const std::string cairoVm = flags.value("cairo_vm").value_or("rust");
        const std::optional<HintExecution> hints = hintExecutionNamed(cairoVm);
        if (!hints) {
            std::cerr << "--cairo_vm is rust or python, not " << cairoVm << "\n";
            return 2;
        }
        setup.hints = *hints;
        if (auto seconds = flags.value("python_hint_time_limit")) {
            double value = 0;
            try {
                value = std::stod(*seconds);
            } catch (const std::exception&) {
                value = -1;
            }
            if (!(value > 0)) {
                std::cerr << "--python_hint_time_limit expects a positive number of seconds\n";
                return 2;
            }
            setup.pythonTimeLimit =
                std::chrono::milliseconds(static_cast<std::int64_t>(value * 1000));
        }
        if (auto path = flags.value("cairo_layout_params_file")) {
            const auto text = readFile(*path);
            if (!text) {
                std::cerr << "cannot read layout params " << *path << "\n";
                return 1;
            }
            setup.dynamicLayoutParams = proofdesk::core::parseJsonBounded(*text);
        }
        std::string inputText;
        if (auto path = flags.value("program_input")) {
            const auto text = readFile(*path);
            if (!text) {
                std::cerr << "cannot read program input " << *path << "\n";
                return 1;
            }
            inputText = *text;
        }
        RunOptions options;
        try {
            options = runOptionsOf(setup, inputText);
        } catch (const std::invalid_argument&) {
            std::cerr << "program input " << *flags.value("program_input")
                      << " is not valid JSON\n";
            return 1;
        }
        CairoRunner runner(program, options);
        runner.run();

        writeRunOutputs(flags, runner);
    } catch (const std::exception& failure) { // ProgramError, PieError, VmError and the rest
        std::cerr << "Error: " << failure.what() << "\n";
        return 1;
    }
    return 0;
}

int runExecuteCommand(int argc, char** argv) {
    Flags flags;
    std::string error;
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::cout << kExecuteUsage;
        return 0;
    }
    if (!parseFlags(argc, argv, kExecuteValues, kExecuteSwitches, &flags, &error) ||
        !flags.value("executable")) {
        std::cerr << (error.empty() ? "--executable is required" : error) << "\n" << kExecuteUsage;
        return 2;
    }
    if (const auto problem = outputFlagsProblem(flags)) {
        std::cerr << *problem << "\n";
        return 2;
    }
    if (flags.value("arguments") && flags.value("arguments-file")) {
        std::cerr << "give --arguments or --arguments-file, not both\n";
        return 2;
    }
    RunSetup setup;
    setup.layout = flags.value("layout").value_or("auto");
    setup.proofMode = flags.has("proof_mode");
    try {
        if (auto list = flags.value("arguments")) {
            setup.arguments = argumentsFromList(*list);
        } else if (auto path = flags.value("arguments-file")) {
            const auto text = readFile(*path);
            if (!text) {
                std::cerr << "cannot read arguments file " << *path << "\n";
                return 2;
            }
            setup.arguments = argumentsFromJsonText(*text);
        }
        if (auto steps = flags.value("max_steps")) {
            setup.maxSteps = std::stoull(*steps);
        }
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
    if (auto path = flags.value("cairo_layout_params_file")) {
        const auto text = readFile(*path);
        if (!text) {
            std::cerr << "cannot read layout params " << *path << "\n";
            return 2;
        }
        setup.dynamicLayoutParams = proofdesk::core::parseJsonBounded(*text);
    }
    try {
        const Program program = Executable::fromFile(*flags.value("executable")).program();
        CairoRunner runner(program, runOptionsOf(setup));
        runner.run();
        writeRunOutputs(flags, runner);
    } catch (const std::exception& failure) { // ProgramError, VmError (a panic's message), ...
        std::cerr << "Error: " << failure.what() << "\n";
        return 1;
    }
    return 0;
}

int runProgramHashCommand(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: proofdesk program-hash P.json\n";
        return 2;
    }
    try {
        std::cout << programHash(programFromFile(argv[1])).toHex() << "\n";
    } catch (const std::exception& failure) {
        std::cerr << "Error: " << failure.what() << "\n";
        return 1;
    }
    return 0;
}
