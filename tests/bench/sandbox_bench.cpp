// Issue #18's figure: what running a trace generation in a sandboxed child costs over running it
// in-process (process start, confinement, reading the program, writing the PIE back). Both run
// our sample program the same way (parse, run, PIE zip); the medians of N runs are compared.
//   build-rel/tests/sandbox_bench [--runs N]
// The last lines are `name value` pairs for tests/bench/run.sh.

#include "cairo/Runner.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/ProgramHash.h"
#include "proof/Provers.h"
#include "proof/SandboxedWork.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace proofdesk;
using Steady = std::chrono::steady_clock;

namespace {

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double msSince(Steady::time_point start) {
    return std::chrono::duration<double, std::milli>(Steady::now() - start).count();
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int runs = 50;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0) {
            runs = std::max(3, std::atoi(argv[i + 1]));
        }
    }
    const QString samplePath =
        QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/fibonacci.json");
    QFile sample(samplePath);
    sample.open(QIODevice::ReadOnly);
    const std::string text = sample.readAll().toStdString();

    std::vector<double> inProcess;
    for (int i = 0; i < runs; ++i) {
        const auto start = Steady::now();
        const cairo::Program program = cairo::Program::fromText(text);
        cairo::RunOptions options;
        options.layout = "auto";
        options.traceEnabled = false;
        cairo::CairoRunner runner(program, options);
        runner.run();
        const std::string zip = runner.pie().toZip();
        inProcess.push_back(msSince(start));
    }

    QTemporaryDir work;
    proof::ProverSettings settings;
    proof::SandboxedWork sandboxed(settings, work.path().toStdString());
    // As the pipeline runs it: the program hash is known from its registration.
    tasks::RunRequest request = sandboxed.runRequest("auto", "rust", false);
    request.programHash = cairo::programHash(cairo::Program::fromText(text));
    std::vector<double> inSandbox;
    for (int i = 0; i < runs; ++i) {
        const auto start = Steady::now();
        const auto run = sandboxed.run({{"program", samplePath.toStdString()}}, request, nullptr);
        if (run.workDir->file("pie.zip").empty()) {
            std::fprintf(stderr, "the sandboxed run wrote no PIE\n");
            return 1;
        }
        inSandbox.push_back(msSince(start));
    }
    const double a = median(inProcess);
    const double b = median(inSandbox);
    std::printf("trace generation of resources/samples/fibonacci.json, median of %d runs:\n", runs);
    std::printf("  in-process %.2f ms, sandboxed child %.2f ms, difference %.2f ms\n", a, b, b - a);
    std::printf("== figures\n");
    std::printf("sandbox_trace_in_process_ms %.2f\n", a);
    std::printf("sandbox_trace_sandboxed_ms %.2f\n", b);
    std::printf("sandbox_trace_overhead_ms %.2f\n", b - a);
    return 0;
}
