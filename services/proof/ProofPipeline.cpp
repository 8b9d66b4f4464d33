// The pipeline of a proof query (docs/architecture.md): one job per stage on the job engine. A
// stage's outputs (artifact files, fields, a fact) are written together with the move to the next
// stage, in one transaction, so a crash repeats at most the stage that was running.

#include "ProofService.h"

#include "ProofInternal.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/Layout.h"
#include "core/BoundedJson.h"
#include "core/ServiceError.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlQuery>

#include <algorithm>
#include <chrono>
#include <iostream>

namespace proofdesk::proof {

namespace {

using detail::bytes32Hex;
using detail::kStageJob;
using detail::qstr;
using detail::str;

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

} // namespace

void ProofService::addArtifact(Loaded& loaded, const std::string& name, const std::string& bytes) {
    loaded.newArtifacts.push_back({name, m_artifacts.put(bytes), bytes.size()});
}

void ProofService::addStoredArtifact(Loaded& loaded, const std::string& name,
                                     const std::string& sha256) {
    const auto size = QFileInfo(m_artifacts.pathOf(sha256)).size();
    loaded.newArtifacts.push_back(
        {name, sha256, static_cast<std::size_t>(std::max<qint64>(0, size))});
}

void ProofService::writeProducedIn(Loaded& loaded) {
    for (const NewArtifact& artifact : loaded.newArtifacts) {
        m_store.exec(QStringLiteral("INSERT INTO proof_artifacts (query_id, name, sha256, size, "
                                    "position) VALUES (?, ?, ?, ?, (SELECT COUNT(*) FROM "
                                    "proof_artifacts WHERE query_id = ?)) ON CONFLICT (query_id, "
                                    "name) DO UPDATE SET sha256 = excluded.sha256, size = "
                                    "excluded.size"),
                     {qstr(loaded.query.id), qstr(artifact.name), qstr(artifact.sha256),
                      qlonglong(artifact.size), qstr(loaded.query.id)});
    }
    loaded.newArtifacts.clear();
    if (loaded.newFact) {
        const std::string entry = m_facts.registerIn(
            loaded.newFact->chain, loaded.newFact->factHash, loaded.newFact->mocked,
            loaded.query.id, loaded.query.programHash.value_or(""));
        loaded.query.transactionId = entry;
        loaded.query.isFactMocked = loaded.newFact->mocked;
        loaded.newFact.reset();
    }
}

void ProofService::failIn(Loaded& loaded, const std::string& reason, const char* blockedReason) {
    loaded.newArtifacts.clear();
    loaded.newFact.reset();
    loaded.query.status = "FAILED";
    loaded.query.errorReason = reason;
    loaded.query.completedAt = toIsoTimestamp(m_clock.now()).toStdString();
    loaded.query.isRetriable = false;
    loaded.query.retryBlockedReason = blockedReason;
    saveIn(loaded);
    if (loaded.query.bucketId) {
        maybeAggregateIn(*loaded.query.bucketId);
    }
}

void ProofService::finishStageIn(Loaded& loaded) {
    writeProducedIn(loaded);
    const auto& steps = loaded.query.steps;
    auto at = std::find(steps.begin(), steps.end(), loaded.query.step.value_or(""));
    if (at != steps.end() && at + 1 != steps.end()) {
        loaded.query.step = *(at + 1);
        QSqlDatabase db = m_store.connection();
        const QString job =
            m_jobs.enqueueIn(db, kStageJob, {{"queryId", loaded.query.id}, {"stage", *(at + 1)}},
                             qstr(loaded.query.projectId));
        loaded.inputs["job"] = job.toStdString();
        saveIn(loaded);
        return;
    }
    loaded.query.status = "DONE";
    loaded.query.errorReason.reset();
    loaded.query.completedAt = toIsoTimestamp(m_clock.now()).toStdString();
    loaded.query.isRetriable = false;
    saveIn(loaded);
    if (loaded.query.bucketId) {
        maybeAggregateIn(*loaded.query.bucketId);
    }
}

JobOutcome ProofService::runStage(const JobRecord& job, JobContext& context) {
    const std::string queryId = job.payload.value("queryId", "");
    const std::string stage = job.payload.value("stage", "");
    std::optional<Loaded> found = load(queryId);
    if (!found) {
        return JobOutcome::permanent(QStringLiteral("query %1 does not exist").arg(qstr(queryId)));
    }
    Loaded loaded = std::move(*found);
    if (api::isTerminalStatus(loaded.query.status) ||
        inputText(loaded.inputs, "job") != str(job.id)) {
        return JobOutcome::done(); // a stale job: the query moved on before a crash
    }
    m_store.write([&](QSqlDatabase&) {
        loaded.query.status = "IN_PROGRESS";
        loaded.query.step = stage;
        loaded.query.retryCount = job.attempts - 1;
        saveIn(loaded);
    });

    std::string failure;
    bool transient = false;
    try {
        if (stage == "TRACE_GENERATION") {
            traceGeneration(loaded, context);
        } else if (stage == "PROOF_GENERATION") {
            proofGeneration(loaded, context);
        } else if (stage == "PROOF_VERIFICATION") {
            proofVerification(loaded, context);
        } else {
            throw StageFailure(false, "unknown stage " + stage);
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
        m_store.write([&](QSqlDatabase&) { finishStageIn(loaded); });
        m_jobs.wake();
        return JobOutcome::done();
    }
    if (transient && context.stopRequested()) {
        return JobOutcome::interrupted();
    }
    if (transient && job.attempts < m_jobs.maxAttempts()) {
        m_store.write([&](QSqlDatabase&) {
            loaded.newArtifacts.clear();
            loaded.query.errorReason = failure + " (will retry)";
            loaded.query.retryCount = job.attempts;
            saveIn(loaded);
        });
        return JobOutcome::transient(qstr(failure));
    }
    m_store.write([&](QSqlDatabase&) {
        if (transient) {
            failIn(loaded,
                   failure + " (gave up after " + std::to_string(job.attempts) + " attempts)",
                   "MAX_RETRIES_REACHED");
        } else {
            failIn(loaded, failure, "NON_RETRIABLE_ERROR");
        }
    });
    m_jobs.wake();
    return JobOutcome::permanent(qstr(failure));
}

void ProofService::describeStatement(Loaded& loaded, const std::string& programHash,
                                     const std::vector<crypto::Felt>& output, std::uint64_t nSteps,
                                     const nlohmann::json& executionResources,
                                     const std::vector<std::string>& builtins,
                                     const std::string& layout) {
    const crypto::Felt hash = *crypto::Felt::parse(programHash);
    api::ProofQuery& query = loaded.query;
    query.programHash = programHash;
    query.sharpFactHash = cairo::sharpFactHash(hash, output);
    query.integrityFactHash = bytes32Hex(cairo::integrityFactHash(hash, output));
    query.layout = layout;
    detail::setJobSize(query, nSteps);
    loaded.inputs["output"] = hexList(output);
    loaded.inputs["nSteps"] = nSteps;
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
    addArtifact(loaded, "metadata.json", metadata.dump(2));
    addArtifact(loaded, "output.json", hexList(output).dump());
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

std::vector<sandbox::SandboxInput> ProofService::programInputs(const Loaded& loaded) const {
    const std::string program = inputText(loaded.inputs, "program");
    if (!m_artifacts.contains(program)) {
        throw StageFailure(true, "the program file is missing from the artifact store");
    }
    std::vector<sandbox::SandboxInput> files = {
        {"program", m_artifacts.pathOf(program).toStdString()}};
    if (const std::string input = inputText(loaded.inputs, "input"); !input.empty()) {
        if (!m_artifacts.contains(input)) {
            throw StageFailure(true, "the input file is missing from the artifact store");
        }
        files.push_back({"input", m_artifacts.pathOf(input).toStdString()});
    }
    return files;
}

void ProofService::traceGeneration(Loaded& loaded, JobContext& context) {
    nlohmann::json options =
        m_sandbox.runOptions(inputText(loaded.inputs, "layout"), loaded.query.cairoVm);
    if (loaded.query.programHash) {
        options["programHash"] = *loaded.query.programHash;
    }
    const SandboxedWork::Run run = m_sandbox.trace(programInputs(loaded), options,
                                                   [&context] { return context.stopRequested(); });
    const RunFacts facts = readRunFacts(run.facts);
    const std::string pie = run.workDir->file("pie.zip");
    std::string zip;
    if (pie.empty() || !readFileBounded(pie, m_provers.sandboxLimits.fileBytes, &zip)) {
        throw StageFailure(false, "the sandboxed run wrote no PIE");
    }
    addArtifact(loaded, "pie.zip", zip);
    // Registration computed the program hash already (the registry maps it to this file).
    const std::string programHash =
        loaded.query.programHash ? *loaded.query.programHash : facts.programHash;
    describeStatement(loaded, programHash, facts.output, facts.nSteps, facts.resources,
                      facts.builtins, facts.layout);
}

void ProofService::proofGeneration(Loaded& loaded, JobContext& context) {
    const std::string source = inputText(loaded.inputs, "source");
    if (source == "pie" && !loaded.query.programHash) {
        const std::string pieDigest = inputText(loaded.inputs, "pie");
        if (!m_artifacts.contains(pieDigest)) {
            throw StageFailure(true, "the PIE file is missing from the artifact store");
        }
        const nlohmann::json facts =
            m_sandbox.inspectForStage({{"pie", m_artifacts.pathOf(pieDigest).toStdString()}});
        const RunFacts pie = readRunFacts(facts.value("pie", nlohmann::json::object()));
        std::string layout = inputText(loaded.inputs, "layout");
        if (layout == "auto") {
            layout = cairo::autoLayout(pie.builtins, pie.nSteps);
            if (layout.empty()) {
                throw StageFailure(false, "no layout has every builtin the PIE uses");
            }
        }
        addStoredArtifact(loaded, "pie.zip", pieDigest);
        describeStatement(loaded, pie.programHash, pie.output, pie.nSteps, pie.resources,
                          pie.builtins, layout);
    }
    const bool bucketMock = loaded.inputs.value("mockProof", false);
    // A mocked fact needs no proof: mockFactHash=true gets the (visible) mock proof.
    const bool factMock = loaded.inputs.value("mockFactHash", false);
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
            {"program_hash", loaded.query.programHash.value_or("")},
            {"output", loaded.inputs.value("output", nlohmann::json::array())},
            {"layout", loaded.query.layout.value_or("")},
            {"n_steps", loaded.inputs.value("nSteps", 0)}};
        addArtifact(loaded, "proof.json", proof.dump(2));
        loaded.query.isProofMocked = true;
        return;
    }
    if (source != "program") {
        throw StageFailure(false,
                           "proving a Cairo PIE takes the SHARP bootloader running it as a task, "
                           "which this server does not do yet: submit the programFile (compiled "
                           "with --proof_mode) to have it proven, or mockFactHash=true for a "
                           "mocked fact");
    }
    if (engine == QStringLiteral("builtin")) {
        proveWithOurProver(loaded, context);
        return;
    }
    if (m_provers.stoneProver.isEmpty() || !QFileInfo(m_provers.stoneProver).isExecutable()) {
        proveWithStone(m_provers, {}, 0, context); // fails with the reason and the remedy
    }
    const SandboxedWork::Run run = m_sandbox.proofModeRun(
        programInputs(loaded),
        m_sandbox.runOptions(loaded.query.layout.value_or("auto"), loaded.query.cairoVm),
        [&context] { return context.stopRequested(); });
    const std::uint64_t nSteps = run.facts.value("nSteps", std::uint64_t{0});
    const std::string proof =
        proveWithStone(m_provers, QString::fromStdString(run.workDir->path()), nSteps, context);
    addArtifact(loaded, "proof.json", proof);
    loaded.query.isProofMocked = false;
}

void ProofService::proveWithOurProver(Loaded& loaded, JobContext& context) {
    nlohmann::json options =
        m_sandbox.runOptions(loaded.query.layout.value_or("auto"), loaded.query.cairoVm);
    // Starknet's Integrity verifier takes the Poseidon channel; everything else Stone's keccak.
    options["channel"] = loaded.query.result == "PROOF_VERIFICATION_ON_L2" ? "integrity" : "stone";
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
        loaded.query.proofProgress = p;
        m_store.write([&](QSqlDatabase&) { saveIn(loaded); });
    };
    const SandboxedWork::Run run = m_sandbox.prove(
        programInputs(loaded), options, [&context] { return context.stopRequested(); }, progress);
    std::string proof;
    const std::string path = run.workDir->file("proof.json");
    if (path.empty() || !readFileBounded(path, m_provers.proverLimits.fileBytes, &proof)) {
        throw StageFailure(false, "the prover's sandboxed run wrote no proof");
    }
    addArtifact(loaded, "proof.json", proof);
    loaded.query.isProofMocked = false;
    loaded.query.proofProgress = api::ProofProgress{"done", 1.0, elapsed(), 0.0};

    // metadata.json (written by TRACE_GENERATION) gains how the proof was made.
    nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
    try {
        std::string text;
        if (readFileBounded(artifact(loaded.query.id, "metadata.json", false).path, 1 << 24,
                            &text)) {
            metadata = nlohmann::ordered_json::parse(text, nullptr, false);
        }
    } catch (const ServiceError&) {
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
    addArtifact(loaded, "metadata.json", metadata.dump(2));
}

void ProofService::proofVerification(Loaded& loaded, JobContext& context) {
    const std::string source = inputText(loaded.inputs, "source");
    // The parts a /v1/l2 proof-verification submission gives (absent for other sources).
    const nlohmann::json parts = {
        {"stoneVersion", loaded.inputs.value("stoneVersion", std::string())},
        {"memoryVerification", loaded.inputs.value("memoryVerification", std::string())}};
    std::string proofPath;
    if (source == "proof") {
        const std::string proofDigest = inputText(loaded.inputs, "proof");
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
        api::ProofQuery& query = loaded.query;
        query.programHash = statement.programHash;
        query.sharpFactHash = sharp;
        query.integrityFactHash = bytes32Hex(*integrity);
        query.layout = statement.layout;
        detail::setJobSize(query, statement.nSteps);
        loaded.inputs["output"] = hexList(statement.output);
        const nlohmann::ordered_json metadata = {
            {"program_hash", *query.programHash},
            {"output", hexList(statement.output)},
            {"n_steps", statement.nSteps},
            {"sharp_fact_hash", *query.sharpFactHash},
            {"integrity_fact_hash", *query.integrityFactHash},
            {"layout", statement.layout},
            {"stone_version", parts["stoneVersion"]},
            {"memory_verification", parts["memoryVerification"]}};
        addArtifact(loaded, "metadata.json", metadata.dump(2));
        addArtifact(loaded, "output.json", hexList(statement.output).dump());
        addStoredArtifact(loaded, "proof.json", proofDigest);
    }
    const bool mocked = loaded.inputs.value("mockFactHash", false) || loaded.query.isProofMocked;
    if (!mocked) {
        if (proofPath.empty()) {
            // Written when PROOF_GENERATION finished, in an earlier job.
            try {
                proofPath = artifact(loaded.query.id, "proof.json", false).path;
            } catch (const ServiceError&) {
                throw StageFailure(true, "the proof is missing from the artifact store");
            }
        }
        if (m_provers.effectiveVerifier() == QStringLiteral("stone")) {
            const std::optional<std::string> proofText =
                m_artifacts.get(ArtifactStore::sha256OfFile(proofPath));
            const QString workDir =
                m_workDir + QLatin1Char('/') + qstr(loaded.query.id) + QStringLiteral("-verify");
            QDir(workDir).removeRecursively();
            verifyWithStone(m_provers, proofText.value_or(std::string()), workDir, context);
            QDir(workDir).removeRecursively();
        } else {
            addArtifact(loaded, "verification.json",
                        verifyBuiltin(proofPath, parts, context).dump(2));
        }
    }
    NewFact fact;
    fact.chain = loaded.query.chain;
    fact.factHash = loaded.query.chain == "L2" ? loaded.query.integrityFactHash.value_or("")
                                               : loaded.query.sharpFactHash.value_or("");
    fact.mocked = mocked;
    loaded.newFact = fact;
}

nlohmann::json ProofService::verifyBuiltin(const std::string& proofPath,
                                           const nlohmann::json& parts, JobContext& context) {
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

void ProofService::reconcile() {
    std::vector<std::string> stuck;
    {
        QSqlQuery rows = m_store.exec(QStringLiteral(
            "SELECT id FROM proof_queries WHERE status IN ('RECEIVED', 'IN_PROGRESS')"));
        while (rows.next()) {
            stuck.push_back(str(rows.value(0)));
        }
    }
    for (const std::string& id : stuck) {
        std::optional<Loaded> loaded = load(id);
        if (!loaded) {
            continue;
        }
        const std::string jobId = inputText(loaded->inputs, "job");
        if (jobId.empty()) {
            continue; // an aggregator waiting for its members
        }
        const std::optional<JobRecord> job = m_jobs.job(qstr(jobId));
        if (!job || job->state != JobState::Failed) {
            continue;
        }
        m_store.write([&](QSqlDatabase&) {
            failIn(*loaded, job->error.toStdString(), "MAX_RETRIES_REACHED");
        });
    }
    m_jobs.wake();
}

} // namespace proofdesk::proof
