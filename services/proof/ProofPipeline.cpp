#include "ProofPipeline.h"

#include "api/ProofWire.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/Layout.h"
#include "core/BoundedJson.h"
#include "core/QtText.h"
#include "core/ServiceError.h"
#include "crypto/Hex.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <iostream>

namespace proofdesk::proof {

namespace {

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

std::string inputText(const nlohmann::json& inputs, const char* key) {
    auto it = inputs.find(key);
    return it != inputs.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A PIE's proof proves the bootloader's run: unless its output carries the PIE as the one task,
// the fact registered would not be the proof's.
void requireBootloaderTask(const nlohmann::json& verdict, const WorkingQuery& working) {
    // The output segment's cells from every page (the task's output lies in a continuous page).
    if (!bootloaderOutputCarriesTask(verdict.value("outputCells", nlohmann::json::array()),
                                     working.query.programHash.value_or(""),
                                     working.inputs.value("output", nlohmann::json::array()))) {
        throw StageFailure(false, "the proof verifies, but its bootloader output does not carry "
                                  "this PIE as its one task (task count, size, program hash, "
                                  "output)");
    }
}

} // namespace

bool bootloaderOutputCarriesTask(const nlohmann::json& outputCells, const std::string& programHash,
                                 const nlohmann::json& taskOutput) {
    const auto feltOf = [](const nlohmann::json& word) {
        return crypto::Felt::parse(word.is_string() ? word.get<std::string>() : "");
    };
    if (!taskOutput.is_array()) {
        return false;
    }
    std::vector<std::optional<crypto::Felt>> expected = {
        crypto::Felt::one(), crypto::Felt::fromU64(2 + taskOutput.size()),
        crypto::Felt::parse(programHash)};
    for (const nlohmann::json& word : taskOutput) {
        expected.push_back(feltOf(word));
    }
    bool carried = outputCells.is_array() && outputCells.size() == 2 + expected.size();
    for (std::size_t i = 0; carried && i < expected.size(); ++i) {
        const auto value = feltOf(outputCells[2 + i]);
        carried = value && expected[i] && *value == *expected[i];
    }
    return carried;
}

ProofPipeline::ProofPipeline(core::Store& store, core::JobEngine& jobs, ArtifactStore& artifacts,
                             const ProverSettings& provers, SandboxedWork& sandbox,
                             ProofQueries& queries, StageRecorder& stages, const QString& workDir)
    : m_store(store), m_jobs(jobs), m_artifacts(artifacts), m_provers(provers), m_sandbox(sandbox),
      m_queries(queries), m_stages(stages), m_workDir(workDir) {
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
    if (api::isTerminalStatus(working.query.status) ||
        inputText(working.inputs, "job") != core::str(job.id)) {
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
    if (failure.empty()) {
        m_store.write([&](QSqlDatabase&) { m_stages.finishStageIn(working); });
        m_jobs.wake();
        return core::JobOutcome::done();
    }
    if (transient && context.stopRequested()) {
        return core::JobOutcome::interrupted();
    }
    if (transient && job.attempts < m_jobs.maxAttempts()) {
        m_store.write([&](QSqlDatabase&) {
            working.newArtifacts.clear();
            working.query.errorReason = failure + " (will retry)";
            working.query.retryCount = job.attempts;
            m_queries.saveIn(working);
        });
        return core::JobOutcome::transient(core::qstr(failure));
    }
    m_store.write([&](QSqlDatabase&) {
        if (transient) {
            m_stages.failIn(
                working, failure + " (gave up after " + std::to_string(job.attempts) + " attempts)",
                "MAX_RETRIES_REACHED");
        } else {
            m_stages.failIn(working, failure, "NON_RETRIABLE_ERROR");
        }
    });
    m_jobs.wake();
    return core::JobOutcome::permanent(core::qstr(failure));
}

void ProofPipeline::describeStatement(WorkingQuery& working, const std::string& programHash,
                                      const std::vector<crypto::Felt>& output, std::uint64_t nSteps,
                                      const nlohmann::json& executionResources,
                                      const std::vector<std::string>& builtins,
                                      const std::string& layout) {
    const crypto::Felt hash = *crypto::Felt::parse(programHash);
    api::ProofQuery& query = working.query;
    query.programHash = programHash;
    query.sharpFactHash = cairo::sharpFactHash(hash, output);
    query.integrityFactHash = bytes32Hex(cairo::integrityFactHash(hash, output));
    query.layout = layout;
    setJobSize(query, nSteps);
    working.inputs["output"] = hexList(output);
    working.inputs["nSteps"] = nSteps;
    nlohmann::json optimal = nlohmann::json::array();
    if (const std::string best = cairo::autoLayout(builtins, nSteps); !best.empty()) {
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

namespace {

// What a sandboxed child reported, checked before the service stores any of it.
struct RunFacts {
    std::string programHash;
    std::vector<crypto::Felt> output;
    std::uint64_t nSteps = 0;
    nlohmann::json resources = nlohmann::json::object();
    std::vector<std::string> builtins;
    std::string layout;
};

RunFacts readRunFacts(const nlohmann::json& facts) {
    const auto malformed = [] {
        return StageFailure(false, "the sandboxed run returned a malformed result");
    };
    RunFacts out;
    try {
        out.programHash = facts.at("programHash").get<std::string>();
        if (!crypto::Felt::parse(out.programHash)) {
            throw malformed();
        }
        for (const nlohmann::json& word : facts.at("output")) {
            const auto felt = crypto::Felt::parse(word.get<std::string>());
            if (!felt) {
                throw malformed();
            }
            out.output.push_back(*felt);
        }
        out.nSteps = facts.at("nSteps").get<std::uint64_t>();
        out.resources = facts.value("resources", nlohmann::json::object());
        out.builtins = facts.value("builtins", std::vector<std::string>{});
        out.layout = facts.value("layout", std::string());
    } catch (const nlohmann::json::exception&) {
        throw malformed();
    }
    if (!out.layout.empty() && !cairo::isLayoutName(out.layout)) {
        throw malformed();
    }
    return out;
}

} // namespace

std::vector<sandbox::SandboxInput> ProofPipeline::programInputs(const WorkingQuery& working) const {
    const std::string program = inputText(working.inputs, "program");
    if (!m_artifacts.contains(program)) {
        throw StageFailure(true, "the program file is missing from the artifact store");
    }
    std::vector<sandbox::SandboxInput> files = {
        {"program", m_artifacts.pathOf(program).toStdString()}};
    if (const std::string input = inputText(working.inputs, "input"); !input.empty()) {
        if (!m_artifacts.contains(input)) {
            throw StageFailure(true, "the input file is missing from the artifact store");
        }
        files.push_back({"input", m_artifacts.pathOf(input).toStdString()});
    }
    return files;
}

void ProofPipeline::traceGeneration(WorkingQuery& working, core::JobContext& context) {
    nlohmann::json options =
        m_sandbox.runOptions(inputText(working.inputs, "layout"), working.query.cairoVm);
    if (working.query.programHash) {
        options["programHash"] = *working.query.programHash;
    }
    const SandboxedWork::Run run = m_sandbox.trace(programInputs(working), options,
                                                   [&context] { return context.stopRequested(); });
    const RunFacts facts = readRunFacts(run.facts);
    const std::string pie = run.workDir->file("pie.zip");
    std::string zip;
    if (pie.empty() || !core::readFileBounded(pie, m_provers.sandboxLimits.fileBytes, &zip)) {
        throw StageFailure(false, "the sandboxed run wrote no PIE");
    }
    m_stages.addArtifact(working, "pie.zip", zip);
    // Registration computed the program hash already (the registry maps it to this file).
    const std::string programHash =
        working.query.programHash ? *working.query.programHash : facts.programHash;
    describeStatement(working, programHash, facts.output, facts.nSteps, facts.resources,
                      facts.builtins, facts.layout);
}

void ProofPipeline::proofGeneration(WorkingQuery& working, core::JobContext& context) {
    const std::string source = inputText(working.inputs, "source");
    if (source == "pie" && !working.query.programHash) {
        const std::string pieDigest = inputText(working.inputs, "pie");
        if (!m_artifacts.contains(pieDigest)) {
            throw StageFailure(true, "the PIE file is missing from the artifact store");
        }
        const nlohmann::json facts =
            m_sandbox.inspectForStage({{"pie", m_artifacts.pathOf(pieDigest).toStdString()}});
        const RunFacts pie = readRunFacts(facts.value("pie", nlohmann::json::object()));
        std::string layout = inputText(working.inputs, "layout");
        if (layout == "auto") {
            layout = cairo::autoLayout(pie.builtins, pie.nSteps);
            if (layout.empty()) {
                throw StageFailure(false, "no layout has every builtin the PIE uses");
            }
        }
        m_stages.addStoredArtifact(working, "pie.zip", pieDigest);
        describeStatement(working, pie.programHash, pie.output, pie.nSteps, pie.resources,
                          pie.builtins, layout);
    }
    const bool bucketMock = working.inputs.value("mockProof", false);
    // A mocked fact needs no proof: mockFactHash=true gets the (visible) mock proof.
    const bool factMock = working.inputs.value("mockFactHash", false);
    const QString engine =
        bucketMock || factMock ? QStringLiteral("mock") : m_provers.effectiveEngine();
    if (engine == QStringLiteral("none")) {
        throw StageFailure(false, "no prover is configured on this server: start it with "
                                  "--prover builtin (Proofdesk's own), --prover stone with "
                                  "--stone-prover PATH, or --prover mock");
    }
    if (engine == QStringLiteral("mock")) {
        const nlohmann::ordered_json proof = {
            {"mocked", true},
            {"prover", "mock"},
            {"note", "not a STARK proof: the mock prover stands in for a real one; facts backed "
                     "by it are registered in the mocked namespace only"},
            {"program_hash", working.query.programHash.value_or("")},
            {"output", working.inputs.value("output", nlohmann::json::array())},
            {"layout", working.query.layout.value_or("")},
            {"n_steps", working.inputs.value("nSteps", 0)}};
        m_stages.addArtifact(working, "proof.json", proof.dump(2));
        working.query.isProofMocked = true;
        return;
    }
    const ProofRun inputs = proofRun(working);
    if (engine == QStringLiteral("builtin")) {
        proveWithOurProver(working, context, inputs);
        return;
    }
    if (m_provers.stoneProver.isEmpty() || !QFileInfo(m_provers.stoneProver).isExecutable()) {
        proveWithStone(m_provers, {}, 0, context); // fails with the reason and the remedy
    }
    const SandboxedWork::Run run = m_sandbox.proofModeRun(
        inputs.files, m_sandbox.runOptions(inputs.layout, working.query.cairoVm),
        [&context] { return context.stopRequested(); });
    if (const std::string layout = run.facts.value("layout", std::string()); !layout.empty()) {
        working.query.layout = layout;
    }
    const std::uint64_t nSteps = run.facts.value("nSteps", std::uint64_t{0});
    const std::string proof =
        proveWithStone(m_provers, QString::fromStdString(run.workDir->path()), nSteps, context);
    m_stages.addArtifact(working, "proof.json", proof);
    working.query.isProofMocked = false;
}

ProofPipeline::ProofRun ProofPipeline::proofRun(const WorkingQuery& working) const {
    if (inputText(working.inputs, "source") != "pie") {
        return {programInputs(working), working.query.layout.value_or("auto")};
    }
    if (m_provers.bootloaderProgram.isEmpty()) {
        throw StageFailure(false,
                           "a Cairo PIE is proven as a task of cairo-lang's bootloader, the way "
                           "SHARP proves it, and this server has no bootloader: start it with "
                           "--bootloader-program PATH (the bootloader compiled with --proof_mode), "
                           "submit the programFile (compiled with --proof_mode) instead, or "
                           "mockFactHash=true for a mocked fact");
    }
    const std::string pie = inputText(working.inputs, "pie");
    if (!m_artifacts.contains(pie)) {
        throw StageFailure(true, "the PIE file is missing from the artifact store");
    }
    // The layout asked for, or one with every builtin of the bootloader (not just the PIE's).
    const std::string layout = inputText(working.inputs, "layout");
    return {{{"program", m_provers.bootloaderProgram.toStdString()},
             {"pie", m_artifacts.pathOf(pie).toStdString()}},
            layout.empty() ? "auto" : layout};
}

void ProofPipeline::proveWithOurProver(WorkingQuery& working, core::JobContext& context,
                                       const ProofRun& proofRun) {
    nlohmann::json options = m_sandbox.runOptions(proofRun.layout, working.query.cairoVm);
    // Starknet's Integrity verifier takes the Poseidon channel; everything else Stone's keccak.
    options["channel"] = working.query.result == "PROOF_VERIFICATION_ON_L2" ? "integrity" : "stone";
    options["securityBits"] = m_provers.securityBits;
    const auto started = std::chrono::steady_clock::now();
    auto lastSaved = started - std::chrono::seconds(10);
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const auto progress = [&](const nlohmann::json& report) {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastSaved < std::chrono::seconds(1)) {
            return; // the record is written at most once a second
        }
        lastSaved = now;
        api::ProofProgress p;
        p.phase = report.value("phase", std::string());
        p.fraction = std::clamp(report.value("fraction", 0.0), 0.0, 1.0);
        p.elapsedSeconds = elapsed();
        if (p.fraction >= 0.05) {
            p.remainingSeconds = p.elapsedSeconds * (1 - p.fraction) / p.fraction;
        }
        working.query.proofProgress = p;
        m_store.write([&](QSqlDatabase&) { m_queries.saveIn(working); });
    };
    const SandboxedWork::Run run = m_sandbox.prove(
        proofRun.files, options, [&context] { return context.stopRequested(); }, progress);
    std::string proof;
    const std::string path = run.workDir->file("proof.json");
    if (path.empty() || !core::readFileBounded(path, m_provers.proverLimits.fileBytes, &proof)) {
        throw StageFailure(false, "the prover's sandboxed run wrote no proof");
    }
    m_stages.addArtifact(working, "proof.json", proof);
    working.query.isProofMocked = false;
    working.query.proofProgress = api::ProofProgress{"done", 1.0, elapsed(), 0.0};
    if (const std::string layout = run.facts.value("layout", std::string()); !layout.empty()) {
        working.query.layout = layout; // a PIE's proof is on the bootloader's layout
    }

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
    metadata["proof"] = {{"prover", "proofdesk"},
                         {"progress", {{"phase", "done"}, {"fraction", 1.0}}},
                         {"seconds", run.facts.value("seconds", 0.0)},
                         {"layout", run.facts.value("layout", std::string())},
                         {"n_steps", run.facts.value("nSteps", std::uint64_t{0})},
                         {"trace_rows", run.facts.value("traceRows", std::uint64_t{0})},
                         {"trace_columns", run.facts.value("traceColumns", std::uint64_t{0})},
                         {"proof_bytes", run.facts.value("proofBytes", std::uint64_t{0})},
                         {"security_bits", run.facts.value("securityBits", 0)},
                         {"proof_parameters", run.facts.value("parameters", nlohmann::json())},
                         {"timings", run.facts.value("timings", nlohmann::json::array())}};
    m_stages.addArtifact(working, "metadata.json", metadata.dump(2));
}

void ProofPipeline::proofVerification(WorkingQuery& working, core::JobContext& context) {
    const std::string source = inputText(working.inputs, "source");
    // The parts a /v1/l2 proof-verification submission gives (absent for other sources).
    const nlohmann::json parts = {
        {"stoneVersion", working.inputs.value("stoneVersion", std::string())},
        {"memoryVerification", working.inputs.value("memoryVerification", std::string())}};
    std::string proofPath;
    if (source == "proof") {
        const std::string proofDigest = inputText(working.inputs, "proof");
        if (!m_artifacts.contains(proofDigest)) {
            throw StageFailure(true, "the proof file is missing from the artifact store");
        }
        proofPath = m_artifacts.pathOf(proofDigest).toStdString();
        const nlohmann::json facts = m_sandbox.inspectForStage({{"proof", proofPath}}, parts)
                                         .value("proof", nlohmann::json::object());
        RunFacts statement = readRunFacts(facts);
        const auto sharp = facts.value("sharpFactHash", std::string());
        const auto integrity = crypto::Felt::parse(facts.value("integrityFactHash", std::string()));
        if (sharp.empty() || !integrity) {
            throw StageFailure(false, "the sandboxed run returned a malformed result");
        }
        api::ProofQuery& query = working.query;
        query.programHash = statement.programHash;
        query.sharpFactHash = sharp;
        query.integrityFactHash = bytes32Hex(*integrity);
        query.layout = statement.layout;
        setJobSize(query, statement.nSteps);
        working.inputs["output"] = hexList(statement.output);
        const nlohmann::ordered_json metadata = {
            {"program_hash", *query.programHash},
            {"output", hexList(statement.output)},
            {"n_steps", statement.nSteps},
            {"sharp_fact_hash", *query.sharpFactHash},
            {"integrity_fact_hash", *query.integrityFactHash},
            {"layout", statement.layout},
            {"stone_version", parts["stoneVersion"]},
            {"memory_verification", parts["memoryVerification"]}};
        m_stages.addArtifact(working, "metadata.json", metadata.dump(2));
        m_stages.addArtifact(working, "output.json", hexList(statement.output).dump());
        m_stages.addStoredArtifact(working, "proof.json", proofDigest);
    }
    const bool mocked = working.inputs.value("mockFactHash", false) || working.query.isProofMocked;
    if (!mocked) {
        if (proofPath.empty()) {
            // Written when PROOF_GENERATION finished, in an earlier job.
            try {
                proofPath = m_queries.artifact(working.query.id, "proof.json", false).path;
            } catch (const core::ServiceError&) {
                throw StageFailure(true, "the proof is missing from the artifact store");
            }
        }
        const bool stone = m_provers.effectiveVerifier() == QStringLiteral("stone");
        const nlohmann::json verdict =
            stone ? verifyWithStoneVerifier(proofPath, working.query.id, context)
                  : verifyBuiltin(proofPath, parts, context);
        if (!stone && source == "pie") {
            requireBootloaderTask(verdict, working); // Stone's verdict names no statement
        }
        m_stages.addArtifact(working, "verification.json", verdict.dump(2));
    }
    NewFact fact;
    fact.chain = working.query.chain;
    fact.factHash = working.query.chain == "L2" ? working.query.integrityFactHash.value_or("")
                                                : working.query.sharpFactHash.value_or("");
    fact.mocked = mocked;
    working.newFact = fact;
}

nlohmann::json ProofPipeline::verifyWithStoneVerifier(const std::string& proofPath,
                                                      const std::string& queryId,
                                                      core::JobContext& context) {
    const std::optional<std::string> proofText =
        m_artifacts.get(ArtifactStore::sha256OfFile(proofPath));
    const QString workDir =
        m_workDir + QLatin1Char('/') + core::qstr(queryId) + QStringLiteral("-verify");
    QDir(workDir).removeRecursively();
    const QString said =
        verifyWithStone(m_provers, proofText.value_or(std::string()), workDir, context);
    QDir(workDir).removeRecursively();
    return {{"valid", true},
            {"verifier", "stone"},
            {"verifierPath", m_provers.stoneVerifier.toStdString()},
            {"verifierOutput", said.toStdString()}};
}

nlohmann::json ProofPipeline::verifyBuiltin(const std::string& proofPath,
                                            const nlohmann::json& parts,
                                            core::JobContext& context) {
    const auto cancelled = [&context] { return context.stopRequested(); };
    const nlohmann::json verdict = m_sandbox.verifyProof({{"proof", proofPath}}, parts, cancelled);
    if (!verdict.value("valid", false)) {
        std::string reason =
            "the proof does not verify: " + verdict.value("failedCheck", std::string());
        const std::string stoneVersion = parts.value("stoneVersion", std::string());
        if (!stoneVersion.empty() &&
            verdict.value("failedStage", std::string()) == "out-of-domain check") {
            // Say so when the other public-input serialisation is the one the proof was made with.
            const nlohmann::json other = m_sandbox.verifyProof(
                {{"proof", proofPath}}, {{"memoryVerification", parts["memoryVerification"]}},
                cancelled);
            if (other.value("valid", false)) {
                reason = "stoneVersion " + stoneVersion +
                         " was given, but the proof was made with " +
                         other.value("stoneVersion", std::string()) +
                         " (its public input is serialised that way)";
            }
        }
        throw StageFailure(false, reason);
    }
    const std::string memoryVerification = parts.value("memoryVerification", std::string());
    if (!memoryVerification.empty() && verdict.contains("statementError")) {
        throw StageFailure(false, "memoryVerification " + memoryVerification + ": " +
                                      verdict.value("statementError", std::string()));
    }
    return verdict;
}

void ProofPipeline::reconcile() {
    for (const std::string& id : m_queries.unfinishedIds()) {
        std::optional<WorkingQuery> working = m_queries.load(id);
        if (!working) {
            continue;
        }
        const std::string jobId = inputText(working->inputs, "job");
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
    }
    m_jobs.wake();
}

} // namespace proofdesk::proof
