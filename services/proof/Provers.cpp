#include "Provers.h"

#include <unistd.h>

#include <thread>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include <fstream>

namespace proofdesk::proof {
namespace {

void writeText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
    if (!out) {
        throw StageFailure(true, "cannot write " + path.toStdString());
    }
}

int log2Exact(std::uint64_t value) {
    int log = 0;
    while ((std::uint64_t{1} << log) < value) {
        ++log;
    }
    return log;
}

} // namespace

QString ProverSettings::description() const {
    const QString engine = effectiveEngine();
    const QString verifier = effectiveVerifier() == QStringLiteral("stone")
                                 ? QStringLiteral("verifier: Stone's %1").arg(stoneVerifier)
                                 : QStringLiteral("verifier: builtin");
    if (engine == QStringLiteral("builtin")) {
        const QString pies = bootloaderProgram.isEmpty()
                                 ? QStringLiteral("PIEs: no bootloader (%1)")
                                       .arg(QString::fromStdString(core::settingName(
                                           settingsSurface, core::Setting::BootloaderProgram)))
                                 : QStringLiteral("PIEs through %1").arg(bootloaderProgram);
        return QStringLiteral("builtin (Proofdesk's STARK prover, %1 bits of security optimized "
                              "for %5, up to %2 MiB per proof; %3; %4)")
            .arg(securityBits)
            .arg(proverLimits.memoryBytes >> 20)
            .arg(pies, verifier, optimize);
    }
    if (engine == QStringLiteral("stone")) {
        return QStringLiteral("stone (%1; %2)").arg(stoneProver, verifier);
    }
    if (engine == QStringLiteral("mock")) {
        return QStringLiteral("mock (proofs are mocked: isProofMocked=true, facts in the mocked "
                              "namespace; %1)")
            .arg(verifier);
    }
    return QStringLiteral("none (proof requests fail; %1)").arg(verifier);
}

std::string ProverSettings::proverNameOf(const QString& engine) {
    return engine == QStringLiteral("builtin") ? "proofdesk" : engine.toStdString();
}

QString ProverSettings::effectiveEngine() const {
    return engine.isEmpty() ? QStringLiteral("builtin") : engine;
}

sandbox::Limits ProverSettings::defaultProverLimits(int timeoutSeconds) {
    sandbox::Limits limits;
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0) {
        limits.memoryBytes = std::uint64_t(pages) * std::uint64_t(pageSize) / 4 * 3;
    }
    const int cores = std::max(1, int(std::thread::hardware_concurrency()));
    limits.wallSeconds = timeoutSeconds;
    limits.cpuSeconds = timeoutSeconds * cores;
    limits.openFiles = 64;
    return limits;
}

ToolRun runTool(const QString& program, const QStringList& arguments, const QString& workDir,
                int timeoutSeconds, const core::JobContext& context) {
    ToolRun run;
    QProcess process;
    process.setWorkingDirectory(workDir);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForStarted(10000)) {
        return run;
    }
    run.started = true;
    QDeadlineTimer deadline{std::chrono::seconds(timeoutSeconds)};
    QByteArray output;
    while (!process.waitForFinished(200)) {
        output += process.readAll();
        if (output.size() > 64 * 1024) {
            output = output.right(16 * 1024);
        }
        if (context.stopRequested() || deadline.hasExpired()) {
            run.interrupted = context.stopRequested();
            run.timedOut = !run.interrupted;
            process.kill();
            process.waitForFinished(5000);
            run.output = QString::fromUtf8(output.right(4000));
            return run;
        }
    }
    output += process.readAll();
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.output = QString::fromUtf8(output.right(4000)).trimmed();
    return run;
}

nlohmann::json stoneParameters(std::uint64_t nSteps) {
    const int total = log2Exact(nSteps) + 4;
    const int lastLayerLog = std::min(6, total);
    int rest = total - lastLayerLog;
    nlohmann::json steps = nlohmann::json::array({0});
    while (rest > 0) {
        const int step = std::min(4, rest);
        steps.push_back(step);
        rest -= step;
    }
    return {{"field", "PrimeField0"},
            {"stark",
             {{"fri",
               {{"fri_step_list", steps},
                {"last_layer_degree_bound", 1 << lastLayerLog},
                {"n_queries", 18},
                {"proof_of_work_bits", 24}}},
              {"log_n_cosets", 4}}},
            {"use_extension_field", false}};
}

nlohmann::json stoneProverConfig() {
    return {{"cached_lde_config", {{"store_full_lde", false}, {"use_fft_for_eval", false}}},
            {"constraint_polynomial_task_size", 256},
            {"n_out_of_memory_merkle_layers", 1},
            {"table_prover_n_tasks_per_segment", 32}};
}

std::string proveWithStone(const ProverSettings& settings, const QString& runDir,
                           std::uint64_t nSteps, const core::JobContext& context) {
    if (settings.stoneProver.isEmpty() || !QFileInfo(settings.stoneProver).isExecutable()) {
        throw StageFailure(
            false,
            "the Stone prover is not available at \"" + settings.stoneProver.toStdString() +
                "\": " + core::howToSet(settings.settingsSurface, core::Setting::StoneProver));
    }
    const QString workDir = runDir;
    writeText(workDir + QStringLiteral("/cpu_air_params.json"), stoneParameters(nSteps).dump(1));
    writeText(workDir + QStringLiteral("/cpu_air_prover_config.json"), stoneProverConfig().dump(1));

    const QStringList arguments = {
        QStringLiteral("--out_file=proof.json"),
        QStringLiteral("--private_input_file=private_input.json"),
        QStringLiteral("--public_input_file=public_input.json"),
        QStringLiteral("--prover_config_file=cpu_air_prover_config.json"),
        QStringLiteral("--parameter_file=cpu_air_params.json"),
        QStringLiteral("--generate_annotations")};
    const ToolRun run =
        runTool(settings.stoneProver, arguments, workDir, settings.timeoutSeconds, context);
    if (!run.started) {
        throw StageFailure(false,
                           "cannot start the Stone prover " + settings.stoneProver.toStdString());
    }
    if (run.interrupted) {
        throw StageFailure(true, "interrupted");
    }
    if (run.timedOut) {
        throw StageFailure(true, "the Stone prover did not finish within " +
                                     std::to_string(settings.timeoutSeconds) + " s");
    }
    if (run.exitCode != 0) {
        throw StageFailure(true, "the Stone prover failed (exit " + std::to_string(run.exitCode) +
                                     "): " + run.output.toStdString());
    }
    QFile proof(workDir + QStringLiteral("/proof.json"));
    if (!proof.open(QIODevice::ReadOnly)) {
        throw StageFailure(true, "the Stone prover wrote no proof.json");
    }
    return proof.readAll().toStdString();
}

QString ProverSettings::effectiveVerifier() const {
    return verifier == QStringLiteral("stone") ? verifier : QStringLiteral("builtin");
}

QString verifyWithStone(const ProverSettings& settings, const std::string& proofJson,
                        const QString& workDir, const core::JobContext& context) {
    if (settings.stoneVerifier.isEmpty() || !QFileInfo(settings.stoneVerifier).isExecutable()) {
        throw StageFailure(
            false, "no proof verifier: " +
                       core::howToSet(settings.settingsSurface, core::Setting::StoneVerifier) +
                       " (or submit with mockFactHash=true)");
    }
    QDir().mkpath(workDir);
    writeText(workDir + QStringLiteral("/proof.json"), proofJson);
    const ToolRun run = runTool(settings.stoneVerifier, {QStringLiteral("--in_file=proof.json")},
                                workDir, settings.timeoutSeconds, context);
    if (!run.started) {
        throw StageFailure(false, "cannot start the Stone verifier " +
                                      settings.stoneVerifier.toStdString());
    }
    if (run.interrupted) {
        throw StageFailure(true, "interrupted");
    }
    if (run.timedOut) {
        throw StageFailure(true, "the Stone verifier did not finish in time");
    }
    if (run.exitCode != 0) {
        throw StageFailure(false, "the proof did not verify (cpu_air_verifier exit " +
                                      std::to_string(run.exitCode) +
                                      "): " + run.output.toStdString());
    }
    return run.output;
}

} // namespace proofdesk::proof
