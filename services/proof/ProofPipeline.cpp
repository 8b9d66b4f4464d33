#include "ProofPipeline.h"

#include "api/ProofWire.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/Layout.h"
#include "core/BoundedJson.h"
#include "core/QtText.h"
#include "core/ServiceError.h"
#include "crypto/Hex.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <chrono>

namespace proofdesk::proof {

namespace {

// What a run asks of a layout, from its execution resources, needing every builtin of `declared`
// too whether the run used it or not.
cairo::RunDemand demandOf(const nlohmann::json& resources, std::uint64_t steps,
                          const std::vector<std::string>& declared) {
    cairo::RunDemand demand = cairo::runDemandOf(resources);
    demand.steps = steps;
    for (const std::string& name : declared) {
        if (std::find(demand.required.begin(), demand.required.end(), name) ==
            demand.required.end()) {
            demand.required.push_back(name);
        }
    }
    return demand;
}

// 0x + 64 hex digits.
std::string bytes32Hex(const crypto::Felt& value) {
    return "0x" + crypto::toBytes32(value).toHex().toStdString();
}

// jobSize from the measured steps (XS < 2^20, S <= 13M, M <= 30M, L above) and isJobSizeValid
// against the declared size (docs/architecture.md).
void setJobSize(api::ProofQuery& query, std::uint64_t steps) {
    const std::string size = steps < (std::uint64_t{1} << 20) ? "XS"
                             : steps <= 13'000'000            ? "S"
                             : steps <= 30'000'000            ? "M"
                                                              : "L";
    const auto rank = [](const std::string& name) {
        const auto& sizes = api::proof_enums::kJobSizes;
        return std::find(sizes.begin(), sizes.end(), name) - sizes.begin();
    };
    query.jobSize = size;
    query.isJobSizeValid = rank(size) <= rank(query.declaredJobSize);
}

nlohmann::json hexList(const std::vector<crypto::Felt>& values) {
    nlohmann::json list = nlohmann::json::array();
    for (const crypto::Felt& value : values) {
        list.push_back(value.toHex());
    }
    return list;
}

const char* const kNotProofMode = "proving needs a proof-mode run: compile the program with "
                                  "cairo-compile --proof_mode (it has no __start__)";

} // namespace

ProofPipeline::ProofPipeline(core::Store& store, core::JobEngine& jobs, ArtifactStore& artifacts,
                             ArtifactCollector& collector, const ProverSettings& provers,
                             SandboxedWork& sandbox, ProofCheck& check, ProofQueries& queries,
                             StageRecorder& stages, const QString& workDir)
    : m_store(store), m_jobs(jobs), m_artifacts(artifacts), m_collector(collector),
      m_provers(provers), m_sandbox(sandbox), m_check(check), m_queries(queries), m_stages(stages),
      m_workDir(workDir) {
    m_jobs.registerHandler(kStageJob,
                           [this](const core::JobRecord& job, core::JobContext& context) {
                               return runStage(job, context);
                           });
}

core::JobOutcome ProofPipeline::runStage(const core::JobRecord& job, core::JobContext& context) {
    const std::string queryId = job.payload.value("queryId", "");
    const std::string stage = job.payload.value("stage", "");
    std::optional<WorkingQuery> found = m_queries.load(queryId);
    if (!found) {
        return core::JobOutcome::permanent(
            QStringLiteral("query %1 does not exist").arg(core::qstr(queryId)));
    }
    WorkingQuery working = std::move(*found);
    if (api::isTerminalStatus(working.query.status) || working.inputs.job != core::str(job.id)) {
        return core::JobOutcome::done(); // a stale job: the query moved on before a crash
    }
    m_store.write([&](QSqlDatabase&) {
        working.query.status = api::nameOf(api::QueryStatus::InProgress);
        working.query.step = stage;
        working.query.retryCount = job.attempts - 1;
        m_queries.saveIn(working);
    });

    std::string failure;
    bool transient = false;
    try {
        const std::optional<api::Stage> known = api::enumNamed<api::Stage>(stage);
        if (!known) {
            throw StageFailure(false, "unknown stage " + stage);
        }
        switch (*known) {
        case api::Stage::TraceGeneration:
            traceGeneration(working, context);
            break;
        case api::Stage::ProofGeneration:
            proofGeneration(working, context);
            break;
        case api::Stage::ProofVerification:
            proofVerification(working, context);
            break;
        }
    } catch (const StageFailure& stageFailure) {
        failure = stageFailure.what();
        transient = stageFailure.transient();
    } catch (const std::exception& unexpected) {
        // Storage or other infrastructure trouble: worth another attempt.
        failure = std::string("internal error: ") + unexpected.what();
        transient = true;
    }
    const auto released = [&] {
        working.pins.clear();
        if (!working.released.empty()) {
            m_collector.releaseUnreferenced(working.released);
        }
    };
    // What the stage did is recorded only while this worker still holds the job's lease.
    if (failure.empty()) {
        m_store.write([&](QSqlDatabase& db) {
            context.confirmHeldIn(db);
            m_stages.finishStageIn(working);
        });
        released();
        m_jobs.wake();
        return core::JobOutcome::done();
    }
    if (transient && context.stopRequested()) {
        return core::JobOutcome::interrupted();
    }
    if (transient && job.attempts < m_jobs.maxAttempts()) {
        m_store.write([&](QSqlDatabase& db) {
            context.confirmHeldIn(db);
            working.newArtifacts.clear();
            working.query.errorReason = failure + " (will retry)";
            working.query.retryCount = job.attempts;
            m_queries.saveIn(working);
        });
        return core::JobOutcome::transient(core::qstr(failure));
    }
    m_store.write([&](QSqlDatabase& db) {
        context.confirmHeldIn(db);
        if (transient) {
            m_stages.failIn(
                working, failure + " (gave up after " + std::to_string(job.attempts) + " attempts)",
                "MAX_RETRIES_REACHED");
        } else {
            m_stages.failIn(working, failure, "NON_RETRIABLE_ERROR");
        }
    });
    released();
    m_jobs.wake();
    return core::JobOutcome::permanent(core::qstr(failure));
}

void ProofPipeline::describeStatement(WorkingQuery& working, const std::string& programHash,
                                      const std::vector<crypto::Felt>& output, std::uint64_t nSteps,
                                      const nlohmann::json& executionResources,
                                      const std::vector<std::string>& declared,
                                      const std::string& layout) {
    const crypto::Felt hash = *crypto::Felt::parse(programHash);
    api::ProofQuery& query = working.query;
    query.programHash = programHash;
    query.sharpFactHash = cairo::sharpFactHash(hash, output);
    query.integrityFactHash = bytes32Hex(cairo::integrityFactHash(hash, output));
    query.layout = layout;
    setJobSize(query, nSteps);
    working.inputs.claimedOutput = output;
    working.inputs.claimedSteps = nSteps;
    nlohmann::json optimal = nlohmann::json::array();
    if (const std::string best =
            cairo::cheapestLayout(demandOf(executionResources, nSteps, declared));
        !best.empty()) {
        optimal.push_back(best);
    }
    const nlohmann::ordered_json metadata = {{"program_hash", programHash},
                                             {"output", hexList(output)},
                                             {"execution_resources", executionResources},
                                             {"sharp_fact_hash", *query.sharpFactHash},
                                             {"integrity_fact_hash", *query.integrityFactHash},
                                             {"layout", layout},
                                             {"optimal_layouts", optimal}};
    m_stages.addArtifact(working, "metadata.json", metadata.dump(2));
    m_stages.addArtifact(working, "output.json", hexList(output).dump());
}

std::vector<sandbox::SandboxInput> ProofPipeline::programInputs(const WorkingQuery& working) const {
    const std::string& program = working.inputs.program;
    if (!m_artifacts.contains(program)) {
        throw StageFailure(true, "the program file is missing from the artifact store");
    }
    std::vector<sandbox::SandboxInput> files = {
        {tasks::slot::kProgram, m_artifacts.pathOf(program).toStdString()}};
    if (const std::string& input = working.inputs.input; !input.empty()) {
        if (!m_artifacts.contains(input)) {
            throw StageFailure(true, "the input file is missing from the artifact store");
        }
        files.push_back({tasks::slot::kInput, m_artifacts.pathOf(input).toStdString()});
    }
    return files;
}

bool ProofPipeline::provesForReal(const WorkingQuery& working) const {
    const auto& steps = working.query.steps;
    if (std::find(steps.begin(), steps.end(), api::nameOf(api::Stage::ProofGeneration)) ==
            steps.end() ||
        working.inputs.mockProof || working.inputs.mockFactHash) {
        return false;
    }
    const QString engine = m_provers.effectiveEngine();
    return engine == QStringLiteral("builtin") || engine == QStringLiteral("stone");
}

void ProofPipeline::traceGeneration(WorkingQuery& working, core::JobContext& context) {
    tasks::RunRequest request =
        m_sandbox.runRequest(working.inputs.layout, working.query.cairoVm, provesForReal(working));
    if (working.query.programHash) {
        request.programHash = crypto::Felt::parse(*working.query.programHash);
    }
    const auto run = m_sandbox.run(programInputs(working), request,
                                   [&context] { return context.stopRequested(); });
    const tasks::RunClaims& claims = run.result;
    if (!claims.layout.empty() && !cairo::isLayoutName(claims.layout)) {
        throw StageFailure(false, "the sandboxed run returned a malformed result");
    }
    const auto stored = [&](const char* name) {
        const std::string path = run.workDir->file(name);
        if (path.empty()) {
            throw StageFailure(false, std::string("the sandboxed run wrote no ") + name);
        }
        return m_stages.storeFile(working, path);
    };
    if (claims.proofMode) {
        // One run per query: what proof generation proves is this run, kept until then.
        working.inputs.run =
            RunFiles{stored(tasks::output::kTrace), stored(tasks::output::kMemory),
                     stored(tasks::output::kPublicInput), stored(tasks::output::kPrivateInput)};
    } else {
        m_stages.addStoredArtifact(working, "pie.zip", stored(tasks::output::kPie));
    }
    // Registration computed the program hash already (the registry maps it to this file).
    const std::string programHash =
        working.query.programHash ? *working.query.programHash : claims.programHash.toHex();
    describeStatement(working, programHash, claims.output, claims.nSteps, claims.resources,
                      claims.builtins, claims.layout);
}

void ProofPipeline::proofGeneration(WorkingQuery& working, core::JobContext& context) {
    QueryInputs& inputs = working.inputs;
    if (inputs.source == SourceKind::Pie && !working.query.programHash) {
        if (!m_artifacts.contains(inputs.pie)) {
            throw StageFailure(true, "the PIE file is missing from the artifact store");
        }
        const tasks::InspectResult facts = m_sandbox.inspectForStage(
            {{tasks::slot::kPie, m_artifacts.pathOf(inputs.pie).toStdString()}}, {},
            [&context] { return context.stopRequested(); });
        if (!facts.pie) {
            throw StageFailure(false, "the sandboxed run returned a malformed result");
        }
        const tasks::PieFacts& pie = *facts.pie;
        std::string layout = inputs.layout;
        if (layout == "auto") {
            // The layout holds every builtin the task's program declares (the bootloader hands
            // the task exactly those), and the output and Pedersen the bootloader itself uses;
            // not every builtin the bootloader declares (issue #48: the 18-step task that took
            // 110 s on starknet_with_keccak).
            std::vector<std::string> needed = pie.builtins;
            needed.emplace_back("output");
            needed.emplace_back("pedersen");
            layout = cairo::cheapestLayout(demandOf(pie.resources, pie.nSteps, needed));
            if (layout.empty()) {
                throw StageFailure(false, "no layout has every builtin the PIE uses");
            }
        }
        m_stages.addStoredArtifact(working, "pie.zip", inputs.pie);
        describeStatement(working, pie.programHash.toHex(), pie.output, pie.nSteps, pie.resources,
                          pie.builtins, layout);
    }
    // A mocked fact needs no proof: mockFactHash=true gets the (visible) mock proof.
    const QString engine = inputs.mockProof || inputs.mockFactHash ? QStringLiteral("mock")
                                                                   : m_provers.effectiveEngine();
    working.query.sharpProver = ProverSettings::proverNameOf(engine);
    if (engine == QStringLiteral("none")) {
        throw StageFailure(false,
                           "no prover is configured on this server: " +
                               core::howToSet(m_provers.settingsSurface, core::Setting::Prover));
    }
    if (engine == QStringLiteral("mock")) {
        const nlohmann::ordered_json proof = {
            {"mocked", true},
            {"prover", "mock"},
            {"note", "not a STARK proof: the mock prover stands in for a real one; facts backed "
                     "by it are registered in the mocked namespace only"},
            {"program_hash", working.query.programHash.value_or("")},
            {"output", hexList(inputs.claimedOutput)},
            {"layout", working.query.layout.value_or("")},
            {"n_steps", inputs.claimedSteps}};
        m_stages.addArtifact(working, "proof.json", proof.dump(2));
        working.query.isProofMocked = true;
        inputs.run.reset();
        return;
    }
    if (engine == QStringLiteral("stone") &&
        (m_provers.stoneProver.isEmpty() || !QFileInfo(m_provers.stoneProver).isExecutable())) {
        proveWithStone(m_provers, {}, 0, context); // fails with the reason and the remedy
    }
    const RunFilePaths run = runToProve(working, context);
    if (engine == QStringLiteral("builtin")) {
        proveWithOurProver(working, context, run);
    } else {
        proveWithStoneProver(working, context, run);
    }
    working.query.isProofMocked = false;
    if (!run.layout.empty()) {
        working.query.layout = run.layout; // a PIE's proof is on the bootloader's layout
    }
    inputs.run.reset(); // proven: its files are released once this stage's end commits
}

ProofPipeline::RunFilePaths ProofPipeline::runToProve(WorkingQuery& working,
                                                      core::JobContext& context) {
    const QueryInputs& inputs = working.inputs;
    RunFilePaths paths;
    if (inputs.source != SourceKind::Pie) {
        if (!inputs.run) {
            throw StageFailure(false, kNotProofMode);
        }
        for (const std::string* digest : {&inputs.run->trace, &inputs.run->memory,
                                          &inputs.run->publicInput, &inputs.run->privateInput}) {
            if (!m_artifacts.contains(*digest)) {
                throw StageFailure(false, "the run's files are missing from the artifact store");
            }
        }
        paths.trace = m_artifacts.pathOf(inputs.run->trace).toStdString();
        paths.memory = m_artifacts.pathOf(inputs.run->memory).toStdString();
        paths.publicInput = m_artifacts.pathOf(inputs.run->publicInput).toStdString();
        paths.privateInput = m_artifacts.pathOf(inputs.run->privateInput).toStdString();
        paths.nSteps = inputs.claimedSteps;
        paths.layout = working.query.layout.value_or("");
        return paths;
    }
    if (m_provers.bootloaderProgram.isEmpty()) {
        throw StageFailure(
            false, "a Cairo PIE is proven as a task of cairo-lang's bootloader, the way "
                   "SHARP proves it, and this server has no bootloader: " +
                       core::howToSet(m_provers.settingsSurface, core::Setting::BootloaderProgram) +
                       ", submit the programFile (compiled with --proof_mode) instead, "
                       "or mockFactHash=true for a mocked fact");
    }
    if (!m_artifacts.contains(inputs.pie)) {
        throw StageFailure(true, "the PIE file is missing from the artifact store");
    }
    // The layout asked for, or one with every builtin of the bootloader (not just the PIE's).
    // The bootloader's hints are native: no submitted code runs, but the PIE is untrusted data,
    // so the run has the sandbox's limits, not the prover's.
    const std::string layout = inputs.layout.empty() ? "auto" : inputs.layout;
    const auto run = m_sandbox.run(
        {{tasks::slot::kProgram, m_provers.bootloaderProgram.toStdString()},
         {tasks::slot::kPie, m_artifacts.pathOf(inputs.pie).toStdString()}},
        m_sandbox.runRequest(layout, "rust", true), [&context] { return context.stopRequested(); });
    if (!run.result.proofMode) {
        throw StageFailure(false, "the bootloader program (" +
                                      core::settingName(m_provers.settingsSurface,
                                                        core::Setting::BootloaderProgram) +
                                      ") is not compiled with --proof_mode");
    }
    const auto file = [&](const char* name) {
        const std::string path = run.workDir->file(name);
        if (path.empty()) {
            throw StageFailure(false, std::string("the bootloader's run wrote no ") + name);
        }
        return path;
    };
    paths.trace = file(tasks::output::kTrace);
    paths.memory = file(tasks::output::kMemory);
    paths.publicInput = file(tasks::output::kPublicInput);
    paths.privateInput = file(tasks::output::kPrivateInput);
    paths.nSteps = run.result.nSteps;
    paths.layout = run.result.layout;
    paths.workDir = run.workDir;
    return paths;
}

void ProofPipeline::proveWithOurProver(WorkingQuery& working, core::JobContext& context,
                                       const RunFilePaths& run) {
    tasks::ProveRequest request;
    // Starknet's Integrity verifier takes the Poseidon channel; everything else Stone's keccak.
    request.channel = working.query.result == "PROOF_VERIFICATION_ON_L2" ? "integrity" : "stone";
    request.securityBits = m_provers.securityBits;
    // The profile asked for, else `size` on L2 (its on-chain cost grows with the proof), else the
    // server's.
    request.optimize = working.inputs.optimize          ? *working.inputs.optimize
                       : request.channel == "integrity" ? "size"
                                                        : m_provers.optimize.toStdString();
    const auto started = std::chrono::steady_clock::now();
    auto lastSaved = started - std::chrono::seconds(10);
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const auto progress = [&](const tasks::Progress& report) {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastSaved < std::chrono::seconds(1)) {
            return; // the record is written at most once a second
        }
        lastSaved = now;
        api::ProofProgress p;
        p.phase = report.phase;
        p.fraction = std::clamp(report.fraction, 0.0, 1.0);
        p.elapsedSeconds = elapsed();
        if (p.fraction >= 0.05) {
            p.remainingSeconds = p.elapsedSeconds * (1 - p.fraction) / p.fraction;
        }
        working.query.proofProgress = p;
        m_store.write([&](QSqlDatabase&) { m_queries.saveIn(working); });
    };
    const auto proved = m_sandbox.prove(
        {{tasks::slot::kTrace, run.trace},
         {tasks::slot::kMemory, run.memory},
         {tasks::slot::kPublicInput, run.publicInput},
         {tasks::slot::kPrivateInput, run.privateInput}},
        request, [&context] { return context.stopRequested(); }, progress);
    const std::string path = proved.workDir->file(tasks::output::kProof);
    if (path.empty()) {
        throw StageFailure(false, "the prover's sandboxed run wrote no proof");
    }
    m_stages.addStoredArtifact(working, "proof.json", m_stages.storeFile(working, path));
    working.query.proofProgress = api::ProofProgress{"done", 1.0, elapsed(), 0.0};
    const tasks::ProveResult& result = proved.result;

    // metadata.json (written by TRACE_GENERATION) gains how the proof was made.
    nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
    try {
        std::string text;
        if (core::readFileBounded(m_queries.artifact(working.query.id, "metadata.json", false).path,
                                  1 << 24, &text)) {
            metadata = nlohmann::ordered_json::parse(text, nullptr, false);
        }
    } catch (const core::ServiceError&) {
    }
    if (!metadata.is_object()) {
        metadata = nlohmann::ordered_json::object();
    }
    nlohmann::json timings = nlohmann::json::array();
    for (const tasks::PhaseTime& timing : result.timings) {
        timings.push_back({{"phase", timing.phase}, {"seconds", timing.seconds}});
    }
    metadata["proof"] = {{"prover", "proofdesk"},
                         {"progress", {{"phase", "done"}, {"fraction", 1.0}}},
                         {"seconds", result.seconds},
                         {"layout", result.layout},
                         {"n_steps", result.nSteps},
                         {"trace_rows", result.traceRows},
                         {"trace_columns", result.traceColumns},
                         {"proof_bytes", result.proofBytes},
                         {"security_bits", result.securityBits},
                         {"optimize", request.optimize},
                         {"proof_parameters", result.parameters},
                         {"timings", timings}};
    m_stages.addArtifact(working, "metadata.json", metadata.dump(2));
}

void ProofPipeline::proveWithStoneProver(WorkingQuery& working, core::JobContext& context,
                                         const RunFilePaths& run) {
    // Stone reads the run's four files from one directory; the private input names the trace and
    // memory files, so it is written again with their paths there.
    const QString dir =
        m_workDir + QLatin1Char('/') + core::qstr(working.query.id) + QStringLiteral("-stone");
    QDir(dir).removeRecursively();
    QDir().mkpath(dir);
    struct Cleanup {
        QString dir;
        ~Cleanup() { QDir(dir).removeRecursively(); }
    } cleanup{dir};
    const auto copy = [&](const std::string& from, const char* name) {
        if (!QFile::copy(QString::fromStdString(from),
                         dir + QLatin1Char('/') + QLatin1String(name))) {
            throw StageFailure(true, std::string("cannot copy the run's ") + name);
        }
    };
    copy(run.trace, tasks::output::kTrace);
    copy(run.memory, tasks::output::kMemory);
    copy(run.publicInput, tasks::output::kPublicInput);
    std::string text;
    core::readFileBounded(run.privateInput, std::uint64_t{1} << 32, &text);
    nlohmann::json privateInput = core::parseJsonBounded(text);
    if (!privateInput.is_object()) {
        throw StageFailure(false, "the run's private input is not a JSON object");
    }
    privateInput["trace_path"] = dir.toStdString() + "/" + tasks::output::kTrace;
    privateInput["memory_path"] = dir.toStdString() + "/" + tasks::output::kMemory;
    QFile privateFile(dir + QLatin1Char('/') + QLatin1String(tasks::output::kPrivateInput));
    const std::string privateText = privateInput.dump(1);
    if (!privateFile.open(QIODevice::WriteOnly) ||
        privateFile.write(privateText.data(), qint64(privateText.size())) !=
            qint64(privateText.size())) {
        throw StageFailure(true, "cannot write the run's private input for Stone");
    }
    privateFile.close();
    // Stone's parameters follow the padded trace's length, the public input's n_steps.
    core::readFileBounded(run.publicInput, std::uint64_t{1} << 32, &text);
    const nlohmann::json publicInput = core::parseJsonBounded(text);
    const std::uint64_t nSteps =
        publicInput.is_object() &&
                publicInput.value("n_steps", nlohmann::json()).is_number_unsigned()
            ? publicInput.at("n_steps").get<std::uint64_t>()
            : run.nSteps;
    m_stages.addArtifact(working, "proof.json", proveWithStone(m_provers, dir, nSteps, context));
}

void ProofPipeline::proofVerification(WorkingQuery& working, core::JobContext& context) {
    QueryInputs& inputs = working.inputs;
    api::ProofQuery& query = working.query;
    const bool proofSource = inputs.source == SourceKind::Proof;
    const bool mocked = inputs.mockFactHash || query.isProofMocked;
    std::string proofPath;
    if (proofSource) {
        if (!m_artifacts.contains(inputs.proof)) {
            throw StageFailure(true, "the proof file is missing from the artifact store");
        }
        proofPath = m_artifacts.pathOf(inputs.proof).toStdString();
        m_stages.addStoredArtifact(working, "proof.json", inputs.proof);
    } else if (!mocked) {
        // Written when PROOF_GENERATION finished, in an earlier job.
        try {
            proofPath = m_queries.artifact(query.id, "proof.json", false).path;
        } catch (const core::ServiceError&) {
            throw StageFailure(true, "the proof is missing from the artifact store");
        }
    }
    // What the record says the proof states: from the verified proof itself, or for a mocked
    // fact of a submitted proof, as the sandboxed inspection read it.
    std::optional<ProvenFacts> proven;
    if (!mocked) {
        proven = m_check.check(working, proofPath, context);
        m_stages.addArtifact(working, "verification.json", proven->verdict.dump(2));
        query.programHash = proven->programHash;
        query.sharpFactHash = proven->sharpFactHash;
        query.integrityFactHash = proven->integrityFactHash;
    } else if (proofSource) {
        tasks::InspectRequest request;
        request.memoryVerification = inputs.memoryVerification;
        const tasks::InspectResult facts =
            m_sandbox.inspectForStage({{tasks::slot::kProof, proofPath}}, request,
                                      [&context] { return context.stopRequested(); });
        if (!facts.proof) {
            throw StageFailure(false, "the sandboxed run returned a malformed result");
        }
        ProvenFacts described;
        described.programHash = facts.proof->programHash.toHex();
        described.output = facts.proof->output;
        described.sharpFactHash = facts.proof->sharpFactHash;
        described.integrityFactHash = bytes32Hex(facts.proof->integrityFactHash);
        described.layout = facts.proof->layout;
        described.nSteps = facts.proof->nSteps;
        proven = described;
        query.programHash = described.programHash;
        query.sharpFactHash = described.sharpFactHash;
        query.integrityFactHash = described.integrityFactHash;
    }
    if (proofSource && proven) {
        query.layout = proven->layout;
        setJobSize(query, proven->nSteps);
        inputs.claimedOutput = proven->output;
        const nlohmann::ordered_json metadata = {
            {"program_hash", proven->programHash},
            {"output", hexList(proven->output)},
            {"n_steps", proven->nSteps},
            {"sharp_fact_hash", proven->sharpFactHash},
            {"integrity_fact_hash", proven->integrityFactHash},
            {"layout", proven->layout},
            {"stone_version", inputs.stoneVersion.value_or("")},
            {"memory_verification", inputs.memoryVerification.value_or("")}};
        m_stages.addArtifact(working, "metadata.json", metadata.dump(2));
        m_stages.addArtifact(working, "output.json", hexList(proven->output).dump());
    }
    NewFact fact;
    fact.chain = query.chain;
    fact.factHash = query.chain == "L2" ? query.integrityFactHash.value_or("")
                                        : query.sharpFactHash.value_or("");
    fact.mocked = mocked;
    working.newFact = fact;
}

void ProofPipeline::reconcile() {
    for (const std::string& id : m_queries.unfinishedIds()) {
        std::optional<WorkingQuery> working = m_queries.load(id);
        if (!working) {
            continue;
        }
        const std::string& jobId = working->inputs.job;
        if (jobId.empty()) {
            continue; // an aggregator waiting for its members
        }
        const std::optional<core::JobRecord> job = m_jobs.job(core::qstr(jobId));
        if (!job || job->state != core::JobState::Failed) {
            continue;
        }
        m_store.write([&](QSqlDatabase&) {
            m_stages.failIn(*working, job->error.toStdString(), "MAX_RETRIES_REACHED");
        });
        if (!working->released.empty()) {
            m_collector.releaseUnreferenced(working->released);
        }
    }
    m_jobs.wake();
}

} // namespace proofdesk::proof
