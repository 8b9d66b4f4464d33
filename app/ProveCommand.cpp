#include "Commands.h"

#include "cairo/ProgramFiles.h"
#include "cairo/RunSetup.h"
#include "cairo/Runner.h"
#include "cairo/cairo1/Executable.h"
#include "core/BoundedJson.h"
#include "stark/Rejection.h"
#include "stark/prover/ParameterChooser.h"
#include "stark/prover/ProofJson.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/TraceComponents.h"
#include "stark/verifier/ProofVerifier.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace proofdesk;
using namespace proofdesk::stark;

namespace {

std::string layoutList() {
    std::string out;
    for (const std::string& name : provableLayouts()) {
        out += (out.empty() ? "" : ", ") + name;
    }
    return out;
}

std::string usage() {
    return "usage: proofdesk prove --out_file PROOF.json\n"
           "         (--public_input_file PUBLIC.json --private_input_file PRIVATE.json |\n"
           "          --program PROGRAM.json [--program_input INPUT.json | --cairo_pie PIE.zip] |\n"
           "          --executable NAME.executable.json [--arguments A,B | --arguments-file F])\n"
           "          [--layout L [--cairo_layout_params_file DYNAMIC_PARAMS.json]]\n"
           "         [--cairo_vm rust|python]\n"
           "         [--parameter_file PARAMS.json] [--prover_config_file CONFIG.json]\n"
           "         [--security-bits N] [--optimize size|time] [--channel stone|integrity]\n"
           "         [--stone_version stone5|stone6]\n"
           "         [--check] [--generate_annotations] [--threads N]\n"
           "  Proves a Cairo run with Proofdesk's own STARK prover and writes Stone's proof JSON,\n"
           "  which Stone's cpu_air_verifier and `proofdesk verify` accept. The run is either the\n"
           "  files of `cairo-run --proof_mode` (Stone's flag names) or a program run here first.\n"
           "  --executable proves a Cairo 1 program (Scarb's executable, its Standalone entry) "
           "with\n"
           "    its arguments (the flat Serde felts, as `scarb execute` takes them).\n"
           "  --cairo_pie proves a Cairo PIE the way SHARP does: --program is cairo-lang's\n"
           "    bootloader (compiled with --proof_mode), run with the PIE as its one task.\n"
           "  Without --parameter_file the parameters are chosen for the trace at --security-bits\n"
           "  and --optimize. With size, 96 bits is blow-up 16, 18 queries, 24 bits of proof of\n"
           "  work, last layer 64; a lower target takes the smallest blow-up of 4, 8, 16 that\n"
           "  needs at most 18 queries (64: blow-up 8, 32: blow-up 4). The \"parameters:\" line\n"
           "  shows the choice.\n"
           "  --optimize time (default; size with --channel integrity): the same security from\n"
           "    blow-up 2 and more queries (96 bits: 72), an eighth of the committed domain, so a\n"
           "    faster prover and a larger proof; size: the parameters above, the smallest proof.\n"
           "  --channel stone: keccak channel and commitments (default); integrity: the Poseidon\n"
           "    channel and commitments of Starknet's Integrity verifier.\n"
           "  --check evaluates every constraint on the trace first and names the first that "
           "fails.\n"
           "  --layout dynamic takes Stone's dynamic_params (every column's place, the row "
           "ratios,\n"
           "    which builtins the run uses) from --cairo_layout_params_file, or without it\n"
           "    Proofdesk's (all_cairo's columns, the mod builtins in cells it leaves free).\n"
           "    --layout auto takes that for a program with add_mod, mul_mod or range_check96.\n"
           "  Layouts: " +
           layoutList() +
           ".\n"
           "  Exit status: 0 proven, 1 the run cannot be proven, 2 usage or unreadable input.\n";
}

std::atomic<bool> g_interrupted{false};

void onInterrupt(int) {
    g_interrupted.store(true);
}

std::optional<nlohmann::json> readJsonFile(const std::string& path, std::string* error) {
    std::string text;
    if (!core::readFileBounded(path, std::uint64_t(1) << 30, &text)) {
        *error = "cannot read " + path;
        return std::nullopt;
    }
    nlohmann::json json = core::parseJsonBounded(text);
    if (json.is_discarded()) {
        *error = path + " is not JSON";
        return std::nullopt;
    }
    return json;
}

std::string seconds(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f s", value);
    return buffer;
}

// What the command line asks: the flags with a value (without their "--"), --check and
// --generate_annotations.
struct ProveArguments {
    std::map<std::string, std::string> values;
    bool check = false;
    bool annotations = false;
};

// Reads the command line into `arguments`; an exit code when the command ends here (--help: 0, a
// wrong argument: 2, said on stderr).
std::optional<int> parseArguments(int argc, char** argv, ProveArguments& arguments) {
    std::map<std::string, std::string>& values = arguments.values;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::fputs(usage().c_str(), stdout);
            return 0;
        }
        if (arg == "--check") {
            arguments.check = true;
            continue;
        }
        if (arg == "--generate_annotations") {
            arguments.annotations = true;
            continue;
        }
        static const char* withValue[] = {"--out_file",
                                          "--public_input_file",
                                          "--private_input_file",
                                          "--parameter_file",
                                          "--prover_config_file",
                                          "--program",
                                          "--program_input",
                                          "--cairo_pie",
                                          "--layout",
                                          "--cairo_layout_params_file",
                                          "--security-bits",
                                          "--optimize",
                                          "--channel",
                                          "--stone_version",
                                          "--threads",
                                          "--cairo_vm",
                                          "--executable",
                                          "--arguments",
                                          "--arguments-file"};
        std::string value;
        if (const auto eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        } else if (i + 1 < argc) {
            value = argv[i + 1];
        }
        if (std::find(std::begin(withValue), std::end(withValue), arg) == std::end(withValue)) {
            std::fprintf(stderr, "proofdesk prove: unknown argument %s\n%s", arg.c_str(),
                         usage().c_str());
            return 2;
        }
        if (argv[i] == arg) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "proofdesk prove: %s needs a value\n", arg.c_str());
                return 2;
            }
            ++i;
        }
        values[arg.substr(2)] = value;
    }
    return std::nullopt;
}

// The security target, the channel, the seed variant and the thread count; an exit code (2,
// said on stderr) when one is wrong.
std::optional<int> readProverFlags(std::map<std::string, std::string>& values,
                                   ProverOptions& options, int& securityBits,
                                   ChannelProfile& profile, std::optional<Optimize>& optimize) {
    const auto has = [&](const char* key) { return values.contains(key); };
    try {
        if (has("security-bits")) {
            securityBits = std::stoi(values["security-bits"]);
        }
        if (has("optimize")) {
            const auto named = optimizeNamed(values["optimize"]);
            if (!named) {
                throw std::invalid_argument("--optimize is size or time");
            }
            optimize = named;
        }
        if (has("channel")) {
            const auto named = channelProfileNamed(values["channel"]);
            if (!named) {
                throw std::invalid_argument("--channel is stone or integrity");
            }
            profile = *named;
        }
        if (has("stone_version")) {
            const std::string version = values["stone_version"];
            if (version != "stone5" && version != "stone6") {
                throw std::invalid_argument("--stone_version is stone5 or stone6");
            }
            options.seedVariant = version == "stone5" ? SeedVariant::Stone5 : SeedVariant::Stone6;
        }
        if (has("threads")) {
            const int threads = std::stoi(values["threads"]);
            if (threads < 1 || threads > 1024) {
                throw std::invalid_argument("--threads is between 1 and 1024");
            }
            Workers::setThreadCount(threads);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "proofdesk prove: %s\n", e.what());
        return 2;
    }
    return std::nullopt;
}

// The run to prove: read from the AIR input files, or the program run in proof mode here.
// Throws what the files or the run raise.
CairoRun runToProve(std::map<std::string, std::string>& values) {
    const auto has = [&](const char* key) { return values.contains(key); };
    const bool fromFiles = has("public_input_file") || has("private_input_file");
    if (fromFiles) {
        return readCairoRunFiles(values["public_input_file"], values["private_input_file"]);
    }
    const bool executable = has("executable");
    const cairo::Program program = executable
                                       ? cairo::Executable::fromFile(values["executable"]).program()
                                       : cairo::programFromFile(values["program"]);
    cairo::RunSetup setup;
    if (has("arguments") || has("arguments-file")) {
        if (!program.cairo1 || (has("arguments") && has("arguments-file"))) {
            throw std::invalid_argument("--arguments or --arguments-file (one of them) go with a "
                                        "Cairo 1 executable");
        }
        std::string text = values["arguments"];
        if (has("arguments-file") &&
            !core::readFileBounded(values["arguments-file"], std::uint64_t(1) << 30, &text)) {
            throw std::invalid_argument("cannot read " + values["arguments-file"]);
        }
        setup.arguments =
            has("arguments") ? cairo::argumentsFromList(text) : cairo::argumentsFromJsonText(text);
    }
    setup.layout = has("layout") ? values["layout"] : "auto";
    setup.proofMode = true;
    if (has("cairo_layout_params_file")) {
        std::string text;
        if (!core::readFileBounded(values["cairo_layout_params_file"], std::uint64_t(1) << 20,
                                   &text)) {
            throw std::invalid_argument("cannot read " + values["cairo_layout_params_file"]);
        }
        setup.dynamicLayoutParams = core::parseJsonBounded(text);
    }
    const std::string vm = has("cairo_vm") ? values["cairo_vm"] : "rust";
    const std::optional<cairo::HintExecution> hints = cairo::hintExecutionNamed(vm);
    if (!hints) {
        throw std::invalid_argument("--cairo_vm is rust or python");
    }
    setup.hints = *hints;
    cairo::RunOptions runOptions;
    if (has("cairo_pie")) {
        // The program is the bootloader; the PIE its one task (read from the file here).
        if (has("program_input")) {
            throw std::invalid_argument("--cairo_pie makes the bootloader's program_input: give "
                                        "one or the other");
        }
        runOptions = cairo::runOptionsForPie(setup, nullptr, values["cairo_pie"]);
    } else {
        std::string text;
        if (has("program_input") &&
            !core::readFileBounded(values["program_input"], std::uint64_t(1) << 30, &text)) {
            throw std::invalid_argument("cannot read " + values["program_input"]);
        }
        runOptions = cairo::runOptionsOf(setup, text);
    }
    cairo::CairoRunner runner(program, runOptions);
    runner.run();
    return cairoRunOf(runner);
}

void printSummary(const std::string& outFile, const ProverResult& result,
                  const ProverOptions& options, const CairoRun& run, double total) {
    const ProofParameters& p = options.parameters;
    std::string steps;
    for (const int step : p.friSteps) {
        steps += (steps.empty() ? "" : ", ") + std::to_string(step);
    }
    std::string phases;
    for (const PhaseTiming& timing : result.timings) {
        phases += (phases.empty() ? "" : ", ") + timing.phase + " " + seconds(timing.seconds);
    }
    std::printf("proof: %s (%zu bytes of proof; layout %s, %llu steps, trace of %llu rows x %zu "
                "columns)\n",
                outFile.c_str(), result.proof.size(), run.publicInput.layout.c_str(),
                static_cast<unsigned long long>(run.publicInput.nSteps),
                static_cast<unsigned long long>(result.traceLength), result.traceColumns);
    std::printf("parameters: %s channel, blow-up %d, %llu queries, %d bits of proof of work, last "
                "layer %llu, FRI steps [%s]: %d bits of security\n",
                p.channelHash.c_str(), 1 << p.logCosets, static_cast<unsigned long long>(p.queries),
                p.proofOfWorkBits, static_cast<unsigned long long>(p.lastLayerDegreeBound),
                steps.c_str(), stark::securityBits(p));
    std::printf("time: %s (%s)\n", seconds(total).c_str(), phases.c_str());
}

// Proves `run` into `result`, a progress line on a terminal and Ctrl+C cancelling; an exit code
// (the reason on stderr) when no proof was made.
std::optional<int> proveWithProgress(const CairoRun& run, ProverOptions& options,
                                     std::chrono::steady_clock::time_point started,
                                     ProverResult& result) {
    options.cancel.flag = &g_interrupted;
    std::signal(SIGINT, onInterrupt);
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    auto lastReport = std::chrono::steady_clock::now();
    options.progress = [&](const ProverProgress& progress) {
        const auto now = std::chrono::steady_clock::now();
        if (!terminal || now - lastReport < std::chrono::milliseconds(100)) {
            return;
        }
        lastReport = now;
        std::fprintf(stderr, "\rproving: %-18s %3d%%  %s   ", progress.phase.c_str(),
                     int(progress.fraction * 100),
                     seconds(std::chrono::duration<double>(now - started).count()).c_str());
    };
    try {
        result = proveCairoRun(run, options);
    } catch (const ProofCancelled&) {
        std::fprintf(stderr, "\nproofdesk prove: interrupted; no proof written\n");
        return 1;
    } catch (const ConstraintCheckFailed& e) {
        std::fprintf(stderr, "%sproofdesk prove: the trace breaks a constraint: %s\n",
                     terminal ? "\n" : "", e.what());
        return 1;
    } catch (const TraceError& e) {
        std::fprintf(stderr, "%sproofdesk prove: %s\n", terminal ? "\n" : "", e.what());
        return 1;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%sproofdesk prove: %s\n", terminal ? "\n" : "", e.what());
        return 2;
    }
    if (terminal) {
        std::fputs("\r\033[K", stderr);
    }
    return std::nullopt;
}

} // namespace

int runProveCommand(int argc, char** argv) {
    ProveArguments arguments;
    if (const auto exit = parseArguments(argc, argv, arguments)) {
        return *exit;
    }
    std::map<std::string, std::string>& values = arguments.values;
    const auto has = [&](const char* key) { return values.contains(key); };
    const bool fromFiles = has("public_input_file") || has("private_input_file");
    const int sources = int(fromFiles) + int(has("program")) + int(has("executable"));
    if (!has("out_file") || sources != 1 ||
        (fromFiles && !(has("public_input_file") && has("private_input_file")))) {
        std::fprintf(stderr,
                     "proofdesk prove: give --out_file and either --public_input_file with "
                     "--private_input_file, or --program, or --executable\n%s",
                     usage().c_str());
        return 2;
    }

    ProverOptions options;
    options.checkConstraints = arguments.check;
    options.annotations = arguments.annotations;
    int securityBits = 96;
    ChannelProfile profile = ChannelProfile::Stone;
    std::optional<Optimize> optimize; // as the server: time, but size for Integrity's channel
    if (const auto exit = readProverFlags(values, options, securityBits, profile, optimize)) {
        return *exit;
    }
    if (!optimize) {
        optimize = profile == ChannelProfile::Integrity ? Optimize::Size : Optimize::Time;
    }

    // The run.
    std::string error;
    CairoRun run;
    const auto started = std::chrono::steady_clock::now();
    try {
        run = runToProve(values);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "proofdesk prove: the run cannot be read or run: %s\n", e.what());
        return 2;
    }

    // The parameters.
    nlohmann::json proverConfig = defaultProverConfig();
    try {
        if (has("parameter_file")) {
            const auto json = readJsonFile(values["parameter_file"], &error);
            if (!json) {
                throw std::invalid_argument(error);
            }
            options.parameters = parseProofParameters(*json);
        } else {
            options.parameters =
                chooseParameters(traceRows(run.publicInput), securityBits, profile, *optimize);
        }
        if (has("prover_config_file")) {
            const auto json = readJsonFile(values["prover_config_file"], &error);
            if (!json || !json->is_object()) {
                throw std::invalid_argument(json ? "the prover config is not an object" : error);
            }
            proverConfig = *json;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "proofdesk prove: %s\n", e.what());
        return 2;
    }

    // Proving, with a progress line on a terminal and Ctrl+C cancelling.
    ProverResult result;
    if (const auto exit = proveWithProgress(run, options, started, result)) {
        return *exit;
    }
    const double total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const nlohmann::ordered_json proof =
        stoneProofJson(result, options.parameters, proverConfig, run);
    {
        std::ofstream out(values["out_file"], std::ios::binary | std::ios::trunc);
        out << proof.dump(4) << "\n";
        if (!out) {
            std::fprintf(stderr, "proofdesk prove: cannot write %s\n", values["out_file"].c_str());
            return 2;
        }
    }

    printSummary(values["out_file"], result, options, run, total);
    const Verdict verdict = verifyStoneProof(nlohmann::json::parse(proof.dump()));
    if (!verdict.valid) {
        std::fprintf(stderr,
                     "proofdesk prove: internal error, our verifier rejects the proof: %s\n",
                     verdict.failedCheck.c_str());
        return 1;
    }
    std::printf("verified by Proofdesk's verifier in %.0f ms\n", verdict.milliseconds);
    return 0;
}
