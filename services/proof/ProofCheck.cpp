#include "ProofCheck.h"

#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/ProgramHash.h"
#include "core/BoundedJson.h"
#include "core/QtText.h"
#include "crypto/Hex.h"
#include "crypto/Pedersen.h"

#include <QDir>

namespace proofdesk::proof {
namespace {

std::string bytes32Hex(const crypto::Felt& value) {
    return "0x" + crypto::toBytes32(value).toHex().toStdString();
}

std::string hexList(const std::vector<crypto::Felt>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size() && i < 8; ++i) {
        out += (i ? ", " : "") + values[i].toHex();
    }
    return out + (values.size() > 8 ? ", ...]" : "]");
}

} // namespace

bool bootloaderOutputCarriesTask(const std::vector<crypto::Felt>& outputCells,
                                 const crypto::Felt& programHash,
                                 const std::vector<crypto::Felt>& taskOutput) {
    // The bootloader config's two words, the task count 1, then the task's size (2 + its
    // output), program hash and output.
    std::vector<crypto::Felt> expected = {
        crypto::Felt::one(), crypto::Felt::fromU64(2 + taskOutput.size()), programHash};
    expected.insert(expected.end(), taskOutput.begin(), taskOutput.end());
    if (outputCells.size() != 2 + expected.size()) {
        return false;
    }
    return std::equal(expected.begin(), expected.end(), outputCells.begin() + 2);
}

bool bootloaderOutputCarriesTask(const nlohmann::json& outputCells, const std::string& programHash,
                                 const nlohmann::json& taskOutput) {
    const auto felts = [](const nlohmann::json& words) -> std::optional<std::vector<crypto::Felt>> {
        if (!words.is_array()) {
            return std::nullopt;
        }
        std::vector<crypto::Felt> out;
        for (const nlohmann::json& word : words) {
            const auto felt =
                crypto::Felt::parse(word.is_string() ? word.get<std::string>() : std::string());
            if (!felt) {
                return std::nullopt;
            }
            out.push_back(*felt);
        }
        return out;
    };
    const auto cells = felts(outputCells);
    const auto task = felts(taskOutput);
    const auto hash = crypto::Felt::parse(programHash);
    return cells && task && hash && bootloaderOutputCarriesTask(*cells, *hash, *task);
}

ProofCheck::ProofCheck(const ProverSettings& provers, SandboxedWork& sandbox, QString workDir)
    : m_provers(provers), m_sandbox(sandbox), m_workDir(std::move(workDir)) {}

ProvenFacts ProofCheck::check(const WorkingQuery& working, const std::string& proofPath,
                              core::JobContext& context) {
    const bool stone = m_provers.effectiveVerifier() == QStringLiteral("stone");
    nlohmann::json verdict = stone ? verifyWithStoneVerifier(proofPath, working.query.id, context)
                                   : verifyBuiltin(proofPath, working.inputs, context);
    // The verifier said the file's proof holds; what it proves, the server reads itself.
    ProvenFacts proven =
        derive(working, readProvenStatement(proofPath, working.inputs.memoryVerification,
                                            working.inputs.source == SourceKind::Pie));
    proven.verdict = std::move(verdict);
    return proven;
}

ProvenFacts ProofCheck::derive(const WorkingQuery& working, const ProvenStatement& statement) {
    ProvenFacts proven;
    proven.layout = statement.layout;
    proven.nSteps = statement.nSteps;
    const QueryInputs& inputs = working.inputs;
    const auto claimedHash = crypto::Felt::parse(working.query.programHash.value_or(""));
    switch (inputs.source.value_or(SourceKind::Program)) {
    case SourceKind::Proof:
        proven.programHash = statement.programHash.toHex();
        proven.output = statement.output;
        proven.sharpFactHash = statement.sharpFactHash;
        proven.integrityFactHash = bytes32Hex(statement.integrityFactHash);
        return proven;
    case SourceKind::Program:
        if (!statement.programHashIsChain || !claimedHash ||
            statement.programHash != *claimedHash) {
            throw StageFailure(false, "the proof verifies, but it is not of this query's program "
                                      "(it proves program " +
                                          statement.programHash.toHex() + ")");
        }
        if (statement.output != inputs.claimedOutput) {
            throw StageFailure(
                false, "the proof verifies, but it proves the output " + hexList(statement.output) +
                           ", not the output " + hexList(inputs.claimedOutput) +
                           " trace generation reported: the run's report does not match "
                           "its proof (a hint that behaves differently between runs, or a "
                           "forged result), so no fact is registered");
        }
        proven.programHash = claimedHash->toHex();
        proven.output = statement.output;
        break;
    case SourceKind::Pie:
        // A PIE's proof proves the bootloader's run: unless that run carries the PIE as its one
        // task, the fact registered would not be the proof's.
        // The program is the server's bootloader: by its chain hash, or by its words where the
        // layout could not show every builtin it declares (auto takes the cheapest layout with
        // what the task uses: docs/cairo.md).
        const BootloaderHashes bootloader = bootloaderHashes();
        if (statement.programHashIsChain ? statement.programHash != bootloader.chain
                                         : statement.programHash != bootloader.words) {
            throw StageFailure(false, "the proof verifies, but it is not of this server's "
                                      "bootloader (it proves program " +
                                          statement.programHash.toHex() + ")");
        }
        if (!claimedHash ||
            !bootloaderOutputCarriesTask(statement.output, *claimedHash, inputs.claimedOutput)) {
            throw StageFailure(false,
                               "the proof verifies, but its bootloader output does not carry "
                               "this PIE as its one task (task count, size, program hash, "
                               "output)");
        }
        proven.programHash = claimedHash->toHex();
        proven.output = inputs.claimedOutput;
        break;
    }
    const crypto::Felt hash = *crypto::Felt::parse(proven.programHash);
    proven.sharpFactHash = cairo::sharpFactHash(hash, proven.output);
    proven.integrityFactHash = bytes32Hex(cairo::integrityFactHash(hash, proven.output));
    return proven;
}

ProofCheck::BootloaderHashes ProofCheck::bootloaderHashes() {
    std::lock_guard lock(m_bootloaderMutex);
    if (!m_bootloaderHashes || m_bootloaderHashes->first != m_provers.bootloaderProgram) {
        try {
            const cairo::Program bootloader =
                cairo::Program::fromFile(m_provers.bootloaderProgram.toStdString());
            crypto::Felt fold = crypto::Felt::zero();
            for (const crypto::Felt& word : bootloader.data) {
                fold = crypto::pedersenHash(fold, word);
            }
            const crypto::Felt words =
                crypto::pedersenHash(fold, crypto::Felt::fromU64(bootloader.data.size()));
            m_bootloaderHashes = {m_provers.bootloaderProgram,
                                  {cairo::programHash(bootloader), words}};
        } catch (const std::exception& failure) {
            throw StageFailure(false, std::string("the bootloader program cannot be read: ") +
                                          failure.what());
        }
    }
    return m_bootloaderHashes->second;
}

nlohmann::json ProofCheck::verifyWithStoneVerifier(const std::string& proofPath,
                                                   const std::string& queryId,
                                                   core::JobContext& context) const {
    std::string proofText;
    if (!core::readFileBounded(proofPath, std::uint64_t{256} << 20, &proofText)) {
        throw StageFailure(true, "the proof is missing from the artifact store");
    }
    const QString workDir =
        m_workDir + QLatin1Char('/') + core::qstr(queryId) + QStringLiteral("-verify");
    QDir(workDir).removeRecursively();
    const QString said = verifyWithStone(m_provers, proofText, workDir, context);
    QDir(workDir).removeRecursively();
    return {{"valid", true},
            {"verifier", "stone"},
            {"verifierPath", m_provers.stoneVerifier.toStdString()},
            {"verifierOutput", said.toStdString()}};
}

nlohmann::json ProofCheck::verifyBuiltin(const std::string& proofPath, const QueryInputs& inputs,
                                         core::JobContext& context) const {
    const auto cancelled = [&context] { return context.stopRequested(); };
    tasks::VerifyRequest request;
    request.stoneVersion = inputs.stoneVersion;
    request.memoryVerification = inputs.memoryVerification;
    const tasks::VerifyResult verdict =
        m_sandbox.verify({{tasks::slot::kProof, proofPath}}, request, cancelled);
    if (!verdict.valid) {
        std::string reason = "the proof does not verify: " + verdict.failedCheck;
        if (request.stoneVersion && verdict.failedStage == "out-of-domain check") {
            // Say so when the other public-input serialisation is the one the proof was made with.
            tasks::VerifyRequest either;
            either.memoryVerification = inputs.memoryVerification;
            const tasks::VerifyResult other =
                m_sandbox.verify({{tasks::slot::kProof, proofPath}}, either, cancelled);
            if (other.valid) {
                reason = "stoneVersion " + *request.stoneVersion +
                         " was given, but the proof was made with " + other.stoneVersion +
                         " (its public input is serialised that way)";
            }
        }
        throw StageFailure(false, reason);
    }
    if (request.memoryVerification && verdict.statementError) {
        throw StageFailure(false, "memoryVerification " + *request.memoryVerification + ": " +
                                      *verdict.statementError);
    }
    return verdict.verdict;
}

} // namespace proofdesk::proof
