// Cairo VM and STARK hash benchmarks (issue #3 targets, on this 2-core machine):
//   steps/s, hint-free loop >= 10M steps, no trace output        target >= 5,000,000
//   steps/s, same loop, trace and memory files written           target >= 2,000,000
//   peak RSS per step, proof mode (~2^23 steps)                  target <= 120 bytes
//   Pedersen hashes/s                                            target >= 50,000
//   Poseidon hashes/s                                            target >= 150,000
// and @scure/starknet (npm, node) on the same inputs in the same run, for the ratio.
// Issue #8: steps/s of a hint-heavy loop (a hint on every other step) with the hints native and
// with every hint run as Python (cairoVm=python's path), and the ratio.
//
// Usage: cairo_vm_bench [--steps N] [--scure path/to/scure_hashes.mjs]

#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sys/resource.h>

using namespace proofdesk;
using SteadyClock = std::chrono::steady_clock;

namespace {

double seconds(SteadyClock::time_point since) {
    return std::chrono::duration<double>(SteadyClock::now() - since).count();
}

long peakRssKiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Deterministic full-size inputs shared with the node script:
// x_i = X0 - i, y_i = Y0 + 104729 i, with ~250-bit X0, Y0.
const char* kX0 = "0x3d937c035c878245caf64531a5756109c53068da139362728feb561405371cb";
const char* kY0 = "0x208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31a";

std::vector<crypto::Felt> inputs(int n) {
    std::vector<crypto::Felt> out;
    const crypto::Felt x0 = *crypto::Felt::parse(kX0);
    const crypto::Felt y0 = *crypto::Felt::parse(kY0);
    for (int i = 0; i < n; ++i) {
        out.push_back(x0 - crypto::Felt::fromU64(static_cast<std::uint64_t>(i)));
        out.push_back(y0 + crypto::Felt::fromU64(static_cast<std::uint64_t>(i) * 104729));
    }
    return out;
}

// The countdown loop with cairo-lang's assert_not_zero hint on its body (pc 2): the hint reads
// the loop counter through a typed reference, so each run of it resolves ids as hints do.
cairo::Program hintHeavyLoop(std::uint64_t n) {
    nlohmann::json program = test::Asm::countdown(n).program();
    const nlohmann::json tracking = {{"group", 0}, {"offset", 0}};
    program["reference_manager"]["references"] = {
        {{"ap_tracking_data", tracking}, {"pc", 2}, {"value", "[cast(ap + (-1), felt*)]"}}};
    program["hints"] = {
        {"2",
         {{{"code", "from starkware.cairo.common.math_utils import assert_integer\n"
                    "assert_integer(ids.value)\n"
                    "assert ids.value % PRIME != 0, f'assert_not_zero failed: {ids.value} = 0.'"},
           {"accessible_scopes", {"__main__", "__main__.main"}},
           {"flow_tracking_data",
            {{"ap_tracking", tracking}, {"reference_ids", {{"__main__.main.value", 0}}}}}}}}};
    return cairo::Program::fromJson(program);
}

// Steps per second of a run of `program` with its hints run as `execution`.
double hintRunRate(const cairo::Program& program, cairo::HintExecution execution) {
    cairo::RunOptions options;
    options.traceEnabled = false;
    options.hints.execution = execution;
    cairo::CairoRunner runner(program, options);
    const auto start = SteadyClock::now();
    runner.run();
    return static_cast<double>(runner.vm().steps()) / seconds(start);
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t loopSteps = 10'000'000;
    std::string scure;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--steps")) {
            loopSteps = std::stoull(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--scure")) {
            scure = argv[i + 1];
        }
    }
    {
        // First, so that the peak RSS is this run's. Proof mode: just under 2^23 steps before
        // padding; peak RSS of the whole process.
        const std::uint64_t target = (1ULL << 23) - 64;
        const cairo::Program proofProgram =
            cairo::Program::fromJson(test::Asm::countdown(target / 2 - 4).proofModeProgram());
        const long before = peakRssKiB();
        cairo::RunOptions options;
        options.proofMode = true;
        cairo::CairoRunner runner(proofProgram, options);
        const auto start = SteadyClock::now();
        runner.run();
        const double s = seconds(start);
        const long after = peakRssKiB();
        const double steps = static_cast<double>(runner.vm().steps());
        std::printf("vm_proof_mode_steps %.0f in %.2f s\n", steps, s);
        std::printf("vm_proof_mode_peak_rss_bytes_per_step %.1f (process peak %ld KiB, before run "
                    "%ld KiB; target <= 120)\n",
                    static_cast<double>(after) * 1024.0 / steps, after, before);
    }

    const std::uint64_t n = loopSteps / 2;
    const cairo::Program program = cairo::Program::fromJson(test::Asm::countdown(n).program());

    {
        cairo::RunOptions options;
        options.traceEnabled = false;
        cairo::CairoRunner runner(program, options);
        const auto start = SteadyClock::now();
        runner.run();
        const double s = seconds(start);
        std::printf("vm_steps_per_second_no_trace %.0f (steps %llu, target >= 5000000)\n",
                    static_cast<double>(runner.vm().steps()) / s,
                    static_cast<unsigned long long>(runner.vm().steps()));
    }
    {
        QTemporaryDir dir;
        cairo::CairoRunner runner(program, {});
        const auto start = SteadyClock::now();
        runner.run();
        std::ofstream trace(dir.filePath(QStringLiteral("trace.bin")).toStdString(),
                            std::ios::binary);
        runner.writeTrace(trace);
        std::ofstream memory(dir.filePath(QStringLiteral("memory.bin")).toStdString(),
                             std::ios::binary);
        runner.writeMemory(memory);
        trace.close();
        memory.close();
        const double s = seconds(start);
        std::printf("vm_steps_per_second_with_trace_and_memory_files %.0f (target >= 2000000)\n",
                    static_cast<double>(runner.vm().steps()) / s);
    }
    {
        const cairo::Program native = hintHeavyLoop(500'000);
        const cairo::Program python = hintHeavyLoop(50'000);
        hintRunRate(hintHeavyLoop(100), cairo::HintExecution::PythonOnly); // interpreter start
        const double nativeRate = hintRunRate(native, cairo::HintExecution::NativeOnly);
        const double pythonRate = hintRunRate(python, cairo::HintExecution::PythonOnly);
        std::printf("vm_hint_loop_steps_per_second_native_hints %.0f\n", nativeRate);
        std::printf("vm_hint_loop_steps_per_second_python_hints %.0f (native / python = %.1fx)\n",
                    pythonRate, nativeRate / pythonRate);
    }
    const int pedersenCount = 20000;
    const int poseidonCount = 100000;
    const auto pedersenInputs = inputs(pedersenCount);
    const auto poseidonInputs = inputs(poseidonCount);
    crypto::warmUpPedersen();
    crypto::Felt sink;
    auto start = SteadyClock::now();
    for (int i = 0; i < pedersenCount; ++i) {
        sink += crypto::pedersenHash(pedersenInputs[2 * i], pedersenInputs[2 * i + 1]);
    }
    const double pedersenRate = pedersenCount / seconds(start);
    start = SteadyClock::now();
    for (int i = 0; i < poseidonCount; ++i) {
        sink += crypto::poseidonHash(poseidonInputs[2 * i], poseidonInputs[2 * i + 1]);
    }
    const double poseidonRate = poseidonCount / seconds(start);
    std::printf("pedersen_hashes_per_second %.0f (target >= 50000)\n", pedersenRate);
    std::printf("poseidon_hashes_per_second %.0f (target >= 150000)\n", poseidonRate);
    std::printf("checksum %s\n", sink.toHex().c_str());

    if (!scure.empty()) {
        QProcess node;
        node.start(QStringLiteral("node"),
                   {QString::fromStdString(scure), QString::number(pedersenCount / 4),
                    QString::number(poseidonCount / 4)});
        if (node.waitForFinished(600000) && node.exitCode() == 0) {
            double scurePedersen = 0;
            double scurePoseidon = 0;
            const QByteArray out = node.readAllStandardOutput();
            std::sscanf(out.constData(), "%lf %lf", &scurePedersen, &scurePoseidon);
            std::printf("scure_starknet_pedersen_per_second %.0f (ours / scure = %.1fx)\n",
                        scurePedersen, pedersenRate / scurePedersen);
            std::printf("scure_starknet_poseidon_per_second %.0f (ours / scure = %.1fx)\n",
                        scurePoseidon, poseidonRate / scurePoseidon);
        } else {
            std::printf("scure_starknet: not measured (%s)\n",
                        node.readAllStandardError().left(200).constData());
        }
    }
    return 0;
}
