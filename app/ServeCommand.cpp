#include "ChainSettings.h"
#include "CommandLine.h"
#include "Commands.h"

#include "OfflineStore.h"
#include "core/DataDir.h"
#include "core/Store.h"
#include "core/WorkKinds.h"
#include "proof/ProofService.h"
#include "server/LocalServer.h"
#include "server/ServiceSet.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>
#include <QTextStream>

#include <csignal>
#include <pthread.h>

using namespace proofdesk;

namespace {

bool readListen(const QCommandLineParser& parser, const QString& name,
                std::optional<http::ListenAddress>* out, QString* error) {
    if (!parser.isSet(name)) {
        return true;
    }
    *out = http::parseListenAddress(parser.value(name));
    if (!*out) {
        *error = QStringLiteral("--%1 expects HOST:PORT, got %2").arg(name, parser.value(name));
        return false;
    }
    return true;
}

// Which protections a sandboxed run gets on this host, said once (docs/security.md).
QString sandboxDescription(const sandbox::Confinement& applied,
                           const proof::ProverSettings& provers) {
    QStringList parts;
    if (applied.landlockAbi > 0) {
        parts << QStringLiteral("Landlock v%1").arg(applied.landlockAbi);
    }
    if (applied.pidNamespace) {
        parts << QStringLiteral("own PID namespace");
    }
    if (applied.networkNamespace) {
        parts << QStringLiteral("no network");
    }
    if (applied.seccomp) {
        parts << QStringLiteral("seccomp");
    }
    if (applied.resourceLimits) {
        parts << QStringLiteral("%1 MiB, %2 s per run")
                     .arg(provers.sandboxLimits.memoryBytes >> 20)
                     .arg(provers.sandboxLimits.wallSeconds);
    }
    if (applied.taskLimit) {
        parts << QStringLiteral("at most %1 threads").arg(provers.sandboxLimits.tasks);
    }
    QString text = QStringLiteral("a child process per run (") + parts.join(QStringLiteral(", ")) +
                   QLatin1Char(')');
    for (const std::string& missing : applied.missing) {
        text +=
            QStringLiteral("\n  WARNING: sandboxed runs lack ") + QString::fromStdString(missing);
    }
    return text;
}

QString chainDescription(const chain::ChainRegistry& chains) {
    QStringList parts;
    for (const auto& [id, url] : chains.all()) {
        parts << id + QLatin1Char('=') + url;
    }
    return parts.isEmpty()
               ? QStringLiteral("none (requests fail until --chain-rpc ID=URL is given)")
               : parts.join(QStringLiteral(", "));
}

// The listeners' options (serve only).
void addListenOptions(QCommandLineParser& parser) {
    const QCommandLineOption listen(QStringLiteral("listen"),
                                    QStringLiteral("Address of the listener serving all three "
                                                   "APIs (port 0 picks a free port)."),
                                    QStringLiteral("host:port"), QStringLiteral("127.0.0.1:7300"));
    const QCommandLineOption allowRemote(
        QStringLiteral("allow-remote"),
        QStringLiteral("Allow listening on addresses other than loopback."));
    const QCommandLineOption httpThreads(
        QStringLiteral("http-threads"),
        QStringLiteral("Handler threads per listener for requests that may wait (writes); "
                       "connections themselves hold no thread."),
        QStringLiteral("n"), QStringLiteral("16"));
    const QCommandLineOption allowHost(
        QStringLiteral("allow-host"),
        QStringLiteral("A host name (besides localhost and loopback addresses) this server "
                       "answers and whose web pages may send it requests (repeatable)."),
        QStringLiteral("name"));
    const QCommandLineOption noLocalWorkers(
        QStringLiteral("no-local-workers"),
        QStringLiteral("Run no jobs here: a front end of a team store, whose `proofdesk worker` "
                       "processes run them (needs --store)."));
    parser.addOptions({listen, allowRemote, httpThreads, allowHost, noLocalWorkers});
    for (const char* name :
         {"request-listen", "request-alias-listen", "proof-listen", "auth-listen"}) {
        parser.addOption(QCommandLineOption(
            QLatin1String(name), QStringLiteral("An extra listener for one service only."),
            QStringLiteral("host:port")));
    }
}

// The options of what runs the jobs (serve and worker); the prover's defaults come from the
// settings the console writes (prover/engine, prover/stoneProver, prover/stoneVerifier,
// prover/verifier, prover/bootloaderProgram), flags override them.
void addWorkOptions(QCommandLineParser& parser, const QSettings& settings) {
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the store and artifacts live (with "
                                                    "--store: the artifacts and work files)."),
                                     QStringLiteral("dir"), core::defaultDataDir());
    const QCommandLineOption prover(
        QStringLiteral("prover"),
        QStringLiteral("Proof generation: builtin (Proofdesk's own STARK prover, the default), "
                       "stone (Stone's cpu_air_prover, given with --stone-prover), mock (visibly "
                       "mocked proofs) or none."),
        QStringLiteral("engine"), settings.value(QStringLiteral("prover/engine")).toString());
    const QCommandLineOption stoneProver(
        QStringLiteral("stone-prover"), QStringLiteral("Path of Stone's cpu_air_prover."),
        QStringLiteral("path"), settings.value(QStringLiteral("prover/stoneProver")).toString());
    const QCommandLineOption stoneVerifier(
        QStringLiteral("stone-verifier"), QStringLiteral("Path of Stone's cpu_air_verifier."),
        QStringLiteral("path"), settings.value(QStringLiteral("prover/stoneVerifier")).toString());
    const QCommandLineOption verifier(
        QStringLiteral("verifier"),
        QStringLiteral("Proof verification: builtin (Proofdesk's own verifier, the default) or "
                       "stone (Stone's cpu_air_verifier, given with --stone-verifier)."),
        QStringLiteral("engine"), settings.value(QStringLiteral("prover/verifier")).toString());
    const QCommandLineOption bootloaderProgram(
        QStringLiteral("bootloader-program"),
        QStringLiteral("cairo-lang's bootloader (compiled with --proof_mode, e.g. "
                       "bootloader-v0.13.0.json): a submitted Cairo PIE is proven as its task, "
                       "the way SHARP proves PIEs. Without it, PIEs are not proven."),
        QStringLiteral("path"),
        settings.value(QStringLiteral("prover/bootloaderProgram")).toString());
    const QCommandLineOption proverTimeout(
        QStringLiteral("prover-timeout"),
        QStringLiteral("Seconds a proof may take before it counts as failed."),
        QStringLiteral("seconds"), QStringLiteral("3600"));
    const QCommandLineOption securityBits(
        QStringLiteral("security-bits"),
        QStringLiteral("The security the builtin prover's parameters are chosen for (default 96: "
                       "18 queries, blow-up 16, 24 bits of proof of work; a lower target takes "
                       "the smallest blow-up of 4, 8, 16 that needs at most 18 queries, e.g. "
                       "64: blow-up 8, 32: blow-up 4)."),
        QStringLiteral("bits"), QStringLiteral("96"));
    const QCommandLineOption optimize(
        QStringLiteral("optimize"),
        QStringLiteral("What the builtin prover's parameters favour at that security: time "
                       "(default: blow-up 2 and more queries, a faster prover) or size (the "
                       "smallest proof). PROOF_VERIFICATION_ON_L2 takes size, and a submission's "
                       "optimize part "
                       "overrides both."),
        QStringLiteral("time|size"), QStringLiteral("time"));
    const QCommandLineOption proverMemory(
        QStringLiteral("prover-memory"),
        QStringLiteral("MiB the builtin prover's sandboxed run may use (default: three quarters "
                       "of this machine's memory)."),
        QStringLiteral("MiB"));
    const QCommandLineOption maxSteps(
        QStringLiteral("max-steps"),
        QStringLiteral("Steps a submitted program may run before its query fails."),
        QStringLiteral("n"), QString::number(proof::ProverSettings{}.maxSteps));
    const QCommandLineOption sandboxMemory(
        QStringLiteral("sandbox-memory-mib"),
        QStringLiteral("Memory one sandboxed run (a trace generation, reading a submitted file) "
                       "may use."),
        QStringLiteral("MiB"),
        QString::number(proof::ProverSettings{}.sandboxLimits.memoryBytes >> 20));
    const QCommandLineOption sandboxTime(
        QStringLiteral("sandbox-time-limit"),
        QStringLiteral("Seconds one sandboxed run may take (wall clock; CPU likewise)."),
        QStringLiteral("seconds"),
        QString::number(proof::ProverSettings{}.sandboxLimits.wallSeconds));
    const QCommandLineOption projectStorage(
        QStringLiteral("project-storage-mib"),
        QStringLiteral("Bytes of uploads and results one project may have stored; a submission "
                       "past it is refused with 413 PROJECT_STORAGE_QUOTA_EXCEEDED (0: no limit)."),
        QStringLiteral("MiB"), QString::number(proof::ProverSettings{}.projectStorageBytes >> 20));
    const QCommandLineOption chainRpc(
        QStringLiteral("chain-rpc"),
        QStringLiteral("JSON-RPC URL of a chain for the request service, e.g. "
                       "11155111=http://127.0.0.1:8545 (repeatable; settings chainRpc/<id> are "
                       "read first)."),
        QStringLiteral("id=url"));
    const QCommandLineOption pythonHints(
        QStringLiteral("python-hints"),
        QStringLiteral("on or off: run submitted programs' Python hints for cairoVm=python. That "
                       "is code from whoever submits it: default on for a loopback-only server, "
                       "off with --allow-remote."),
        QStringLiteral("on|off"));
    const QCommandLineOption leaseSeconds(
        QStringLiteral("lease-seconds"),
        QStringLiteral("On a team store: how long a job stays claimed by a worker that stopped "
                       "answering before another takes it over (heartbeats renew it six times "
                       "as often)."),
        QStringLiteral("seconds"), QStringLiteral("60"));
    parser.addOptions({pythonHints, chainRpc, dataDir, storeOption(), prover, stoneProver,
                       stoneVerifier, verifier, bootloaderProgram, proverTimeout, securityBits,
                       optimize, proverMemory, maxSteps, sandboxMemory, sandboxTime, projectStorage,
                       leaseSeconds});
}

// The prover, verifier and step-limit flags into `provers`; false, the reason written to `err`,
// when one is wrong.
bool readProverOptions(const QCommandLineParser& parser, proof::ProverSettings& provers,
                       QTextStream& err) {
    provers.engine = parser.value(QStringLiteral("prover"));
    provers.stoneProver = parser.value(QStringLiteral("stone-prover"));
    provers.stoneVerifier = parser.value(QStringLiteral("stone-verifier"));
    provers.verifier = parser.value(QStringLiteral("verifier"));
    if (!provers.verifier.isEmpty() && provers.verifier != QStringLiteral("builtin") &&
        provers.verifier != QStringLiteral("stone")) {
        err << "--verifier is builtin or stone, got " << provers.verifier << Qt::endl;
        return false;
    }
    if (provers.verifier == QStringLiteral("stone") && provers.stoneVerifier.isEmpty()) {
        err << "--verifier stone needs --stone-verifier PATH (Stone's cpu_air_verifier)"
            << Qt::endl;
        return false;
    }
    provers.bootloaderProgram = parser.value(QStringLiteral("bootloader-program"));
    if (!provers.bootloaderProgram.isEmpty() &&
        !QFileInfo(provers.bootloaderProgram).isReadable()) {
        err << "--bootloader-program: cannot read " << provers.bootloaderProgram << Qt::endl;
        return false;
    }
    const QString engine = provers.effectiveEngine();
    if (engine != QStringLiteral("builtin") && engine != QStringLiteral("stone") &&
        engine != QStringLiteral("mock") && engine != QStringLiteral("none")) {
        err << "--prover is builtin, stone, mock or none, got " << engine << Qt::endl;
        return false;
    }
    if (engine == QStringLiteral("stone") && provers.stoneProver.isEmpty()) {
        err << "--prover stone needs --stone-prover PATH (Stone's cpu_air_prover)" << Qt::endl;
        return false;
    }
    bool numberOk = false;
    provers.timeoutSeconds = parser.value(QStringLiteral("prover-timeout")).toInt(&numberOk);
    if (!numberOk || provers.timeoutSeconds < 1) {
        err << "--prover-timeout expects a number of seconds" << Qt::endl;
        return false;
    }
    provers.proverLimits = proof::ProverSettings::defaultProverLimits(provers.timeoutSeconds);
    provers.securityBits = parser.value(QStringLiteral("security-bits")).toInt(&numberOk);
    if (!numberOk || provers.securityBits < 1 || provers.securityBits > 256) {
        err << "--security-bits expects a number from 1 to 256" << Qt::endl;
        return false;
    }
    provers.optimize = parser.value(QStringLiteral("optimize"));
    if (provers.optimize != QStringLiteral("time") && provers.optimize != QStringLiteral("size")) {
        err << "--optimize is time or size" << Qt::endl;
        return false;
    }
    if (parser.isSet(QStringLiteral("prover-memory"))) {
        const qulonglong mib = parser.value(QStringLiteral("prover-memory")).toULongLong(&numberOk);
        if (!numberOk || mib < 64) {
            err << "--prover-memory expects a number of MiB (at least 64)" << Qt::endl;
            return false;
        }
        provers.proverLimits.memoryBytes = std::uint64_t(mib) << 20;
    }
    provers.maxSteps = parser.value(QStringLiteral("max-steps")).toULongLong(&numberOk);
    if (!numberOk || provers.maxSteps < 1) {
        err << "--max-steps expects a positive number of steps" << Qt::endl;
        return false;
    }
    return true;
}

// Blocks SIGINT and SIGTERM before any thread starts, so that every thread inherits the mask and
// the main thread alone receives them, in waitForStopSignal.
sigset_t blockStopSignals() {
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    return stopSignals;
}

void waitForStopSignal(const sigset_t& stopSignals, QTextStream& out) {
    int received = 0;
    sigwait(&stopSignals, &received);
    out << "Stopping (signal " << received << ")..." << Qt::endl;
}

// --python-hints into `on` (`fallback` when not given); false, the reason written to `err`, when
// it is neither on nor off.
bool readPythonHints(const QCommandLineParser& parser, bool fallback, bool& on, QTextStream& err) {
    if (!parser.isSet(QStringLiteral("python-hints"))) {
        on = fallback;
        return true;
    }
    const QString value = parser.value(QStringLiteral("python-hints"));
    if (value != QStringLiteral("on") && value != QStringLiteral("off")) {
        err << "--python-hints is on or off, got " << value << Qt::endl;
        return false;
    }
    on = value == QStringLiteral("on");
    return true;
}

// --lease-seconds; false, the reason written to `err`, when it is wrong.
bool readLeases(const QCommandLineParser& parser, core::JobLeases& leases, QTextStream& err) {
    bool numberOk = false;
    const int seconds = parser.value(QStringLiteral("lease-seconds")).toInt(&numberOk);
    if (!numberOk || seconds < 2 || seconds > 24 * 3600) {
        err << "--lease-seconds expects a number from 2 to 86400" << Qt::endl;
        return false;
    }
    leases = core::JobLeases::ofSeconds(seconds);
    return true;
}

// The sandbox and storage limits into `provers`; false, the reason written to `err`, when one is
// wrong.
bool readSandboxLimits(const QCommandLineParser& parser, proof::ProverSettings& provers,
                       QTextStream& err) {
    bool numberOk = false;
    const qulonglong memoryMib =
        parser.value(QStringLiteral("sandbox-memory-mib")).toULongLong(&numberOk);
    if (!numberOk || memoryMib < 64 || memoryMib > (qulonglong(1) << 20)) {
        err << "--sandbox-memory-mib expects a number from 64 to 1048576" << Qt::endl;
        return false;
    }
    provers.sandboxLimits.memoryBytes = std::uint64_t(memoryMib) << 20;
    const int sandboxSeconds = parser.value(QStringLiteral("sandbox-time-limit")).toInt(&numberOk);
    if (!numberOk || sandboxSeconds < 1 || sandboxSeconds > 7 * 24 * 3600) {
        err << "--sandbox-time-limit expects seconds from 1 to 604800" << Qt::endl;
        return false;
    }
    provers.sandboxLimits.wallSeconds = sandboxSeconds;
    provers.sandboxLimits.cpuSeconds = sandboxSeconds;
    const qulonglong storageMib =
        parser.value(QStringLiteral("project-storage-mib")).toULongLong(&numberOk);
    if (!numberOk || storageMib > (qulonglong(1) << 30)) {
        err << "--project-storage-mib expects a number of MiB (0: no limit)" << Qt::endl;
        return false;
    }
    provers.projectStorageBytes = std::uint64_t(storageMib) << 20;
    return true;
}

// The handler threads and per-service listeners into `options`; false, the reason written to
// `err`, when one is wrong.
bool readHttpOptions(const QCommandLineParser& parser, server::ServerOptions& options,
                     QTextStream& err) {
    bool numberOk = false;
    QString error;
    options.limits.threads = parser.value(QStringLiteral("http-threads")).toInt(&numberOk);
    if (!numberOk || options.limits.threads < 1 || options.limits.threads > 1024) {
        err << "--http-threads expects a number from 1 to 1024" << Qt::endl;
        return false;
    }
    if (!readListen(parser, QStringLiteral("request-listen"), &options.requestListen, &error) ||
        !readListen(parser, QStringLiteral("request-alias-listen"), &options.requestAliasListen,
                    &error) ||
        !readListen(parser, QStringLiteral("proof-listen"), &options.proofListen, &error) ||
        !readListen(parser, QStringLiteral("auth-listen"), &options.authListen, &error)) {
        err << error << Qt::endl;
        return false;
    }
    return true;
}

void printServing(QTextStream& out, server::LocalServer& server,
                  const server::ServerOptions& options) {
    out << "Proofdesk " << QCoreApplication::applicationVersion() << " serving on "
        << server.mainUrl() << '\n'
        << "  request service: " << server.requestUrl() << '\n'
        << "  request alias:   " << server.requestAliasUrl() << '\n'
        << "  proof service:   " << server.proofUrl() << '\n'
        << "  sign-in service: " << server.authUrl() << '\n'
        << "  data dir:        " << options.dataDir << '\n'
        << "  store:           "
        << (options.store.isEmpty() ? QStringLiteral("SQLite in the data dir")
                                    : core::StoreLocation::parse(options.store).describe())
        << (options.localWorkers ? QString()
                                 : QStringLiteral(" (front end only: workers run the jobs)"))
        << '\n'
        << "  prover:          " << options.provers.description() << '\n'
        << "  chains:          " << chainDescription(options.requests.chains) << '\n'
        << "  sandbox:         "
        << sandboxDescription(server.proofs().sandboxReport(), options.provers) << '\n'
        << "  python hints:    "
        << (options.provers.pythonHints
                ? QStringLiteral("on (cairoVm=python runs submitted hint code)")
                : QStringLiteral("off (cairoVm=python is refused)"))
        << '\n'
        << "Press Ctrl+C to stop." << Qt::endl;
}

} // namespace

int runServeCommand(int argc, char** argv) {
    const sigset_t stopSignals = blockStopSignals();

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("proofdesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROOFDESK_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Serve the request, proof and sign-in APIs (headless)."));
    parser.addHelpOption();
    const QSettings settings(QStringLiteral("Proofdesk"), QStringLiteral("proofdesk"));
    addWorkOptions(parser, settings);
    addListenOptions(parser);
    processCommandLine(parser, app);

    server::ServerOptions options;
    options.dataDir = parser.value(QStringLiteral("data-dir"));
    options.store = parser.value(QStringLiteral("store"));
    options.localWorkers = !parser.isSet(QStringLiteral("no-local-workers"));
    if (!options.localWorkers && options.store.isEmpty()) {
        err << "--no-local-workers needs --store postgresql://... (the workers' shared store)"
            << Qt::endl;
        return 2;
    }
    options.allowRemote = parser.isSet(QStringLiteral("allow-remote"));
    options.allowedHosts = parser.values(QStringLiteral("allow-host"));
    // Default on for a loopback-only server (its users' own code), off with --allow-remote.
    if (!readPythonHints(parser, !options.allowRemote, options.provers.pythonHints, err)) {
        return 2;
    }
    const auto mainAddress = http::parseListenAddress(parser.value(QStringLiteral("listen")));
    if (!mainAddress) {
        err << "--listen expects HOST:PORT, got " << parser.value(QStringLiteral("listen"))
            << Qt::endl;
        return 2;
    }
    options.listen = *mainAddress;
    if (!readProverOptions(parser, options.provers, err) ||
        !readSandboxLimits(parser, options.provers, err) ||
        !readHttpOptions(parser, options, err) || !readLeases(parser, options.jobLeases, err)) {
        return 2;
    }
    QString error;
    if (!loadChainRpcUrls(settings, parser.values(QStringLiteral("chain-rpc")),
                          &options.requests.chains, &error)) {
        err << "--chain-rpc: " << error << Qt::endl;
        return 2;
    }

    server::LocalServer server(options);
    server.requestLog().setSink(
        [&err](const http::RequestLogEntry& entry) {
            err << entry.method << ' ' << entry.path << ' ' << entry.status << ' '
                << QString::number(entry.milliseconds, 'f', 1) << "ms\n";
        },
        [&err] { err.flush(); });
    if (!server.start(&error)) {
        err << "proofdesk serve: " << error << Qt::endl;
        return 1;
    }
    for (const QString& warning : server.warnings()) {
        err << "warning: " << warning << Qt::endl;
    }
    printServing(out, server, options);

    waitForStopSignal(stopSignals, out);
    server.stop();
    out << "Stopped." << Qt::endl;
    return 0;
}

int runWorkerCommand(int argc, char** argv) {
    const sigset_t stopSignals = blockStopSignals();

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("proofdesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROOFDESK_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Run the jobs of a team store (trace generation, proofs, verifications, "
                       "data requests) with no HTTP listener; untrusted work runs in the sandbox "
                       "as under serve. Stop with Ctrl+C: running jobs go back to the queue."));
    parser.addHelpOption();
    const QSettings settings(QStringLiteral("Proofdesk"), QStringLiteral("proofdesk"));
    addWorkOptions(parser, settings);
    const QCommandLineOption name(QStringLiteral("name"),
                                  QStringLiteral("This worker's name in `store status` and in "
                                                 "the jobs it runs (default HOST/PID)."),
                                  QStringLiteral("name"));
    const QCommandLineOption threads(QStringLiteral("threads"),
                                     QStringLiteral("Jobs run at once (default 3)."),
                                     QStringLiteral("n"), QStringLiteral("3"));
    const QCommandLineOption kinds(
        QStringLiteral("kinds"),
        QStringLiteral("The kinds of work this worker takes, comma separated: ") +
            core::work_kinds::all().join(QLatin1Char(',')) + QStringLiteral(" (default all)."),
        QStringLiteral("list"));
    parser.addOptions({name, threads, kinds});
    processCommandLine(parser, app);

    server::ServiceSettings settingsOfWork;
    settingsOfWork.dataDir = parser.value(QStringLiteral("data-dir"));
    settingsOfWork.store = parser.value(QStringLiteral("store"));
    if (!core::StoreLocation::isPostgresUrl(settingsOfWork.store)) {
        err << "proofdesk worker needs --store postgresql://USER@HOST:PORT/DB (or "
               "PROOFDESK_STORE): the store its front ends share"
            << Qt::endl;
        return 2;
    }
    bool numberOk = false;
    settingsOfWork.jobWorkers = parser.value(threads).toInt(&numberOk);
    if (!numberOk || settingsOfWork.jobWorkers < 1 || settingsOfWork.jobWorkers > 256) {
        err << "--threads expects a number from 1 to 256" << Qt::endl;
        return 2;
    }
    if (parser.isSet(kinds)) {
        settingsOfWork.workKinds = parser.value(kinds).split(QLatin1Char(','));
        for (const QString& kind : settingsOfWork.workKinds) {
            if (!core::work_kinds::all().contains(kind)) {
                err << "--kinds: \"" << kind << "\" is not a kind of work; the kinds are "
                    << core::work_kinds::all().join(QStringLiteral(", ")) << Qt::endl;
                return 2;
            }
        }
    }
    // Submitted Python hints are code from whoever reached a front end: on only when asked.
    if (!readPythonHints(parser, false, settingsOfWork.provers.pythonHints, err) ||
        !readProverOptions(parser, settingsOfWork.provers, err) ||
        !readSandboxLimits(parser, settingsOfWork.provers, err) ||
        !readLeases(parser, settingsOfWork.jobLeases, err)) {
        return 2;
    }
    QString error;
    if (!loadChainRpcUrls(settings, parser.values(QStringLiteral("chain-rpc")),
                          &settingsOfWork.requests.chains, &error)) {
        err << "--chain-rpc: " << error << Qt::endl;
        return 2;
    }
    if (!core::prepareDataDir(settingsOfWork.dataDir, &error)) {
        err << "proofdesk worker: " << error << Qt::endl;
        return 1;
    }
    core::SystemClock clock;
    std::unique_ptr<server::ServiceSet> services;
    try {
        services = std::make_unique<server::ServiceSet>(settingsOfWork, clock);
        services->jobs().setWorkerName(parser.value(name));
        services->start({}, {});
    } catch (const std::exception& failure) {
        err << "proofdesk worker: " << failure.what() << Qt::endl;
        return 1;
    }
    out << "Proofdesk " << QCoreApplication::applicationVersion() << " worker\n"
        << "  store:    " << core::StoreLocation::parse(settingsOfWork.store).describe() << '\n'
        << "  threads:  " << settingsOfWork.jobWorkers << '\n'
        << "  kinds:    "
        << (settingsOfWork.workKinds.isEmpty()
                ? QStringLiteral("all")
                : settingsOfWork.workKinds.join(QStringLiteral(", ")))
        << '\n'
        << "  data dir: " << settingsOfWork.dataDir << '\n'
        << "  prover:   " << settingsOfWork.provers.description() << '\n'
        << "Press Ctrl+C to stop." << Qt::endl;

    waitForStopSignal(stopSignals, out);
    services->stop();
    out << "Stopped." << Qt::endl;
    return 0;
}
