#include "VerdictJson.h"

#include <cmath>
#include <sstream>

namespace proofdesk::stark {
namespace {

nlohmann::json hexList(const std::vector<crypto::Felt>& values) {
    nlohmann::json out = nlohmann::json::array();
    for (const crypto::Felt& value : values) {
        out.push_back(value.toHex());
    }
    return out;
}

nlohmann::json statementJson(const Statement& statement) {
    nlohmann::json out = {
        {"memoryVerification", memoryVerificationName(statement.memoryVerification)},
        {"programWordsHash", statement.programWordsHash.toHex()},
        {"programLength", statement.programWords.size()},
        {"output", hexList(statement.output)},
        {"sharpFactHash", statement.sharpFactHash},
        {"integrityFactHash", statement.integrityFactHash.toHex()}};
    out["programHash"] = statement.programHash ? nlohmann::json(statement.programHash->toHex())
                                               : nlohmann::json(nullptr);
    out["builtins"] =
        statement.builtins ? nlohmann::json(*statement.builtins) : nlohmann::json(nullptr);
    return out;
}

} // namespace

nlohmann::json verdictJson(const Verdict& verdict) {
    nlohmann::json out = {{"valid", verdict.valid}};
    if (verdict.failedStage) {
        out["failedStage"] = stageName(*verdict.failedStage);
        out["failedCheck"] = verdict.failedCheck;
    }
    if (verdict.publicInput) {
        out["layout"] = verdict.publicInput->layout;
        out["nSteps"] = verdict.publicInput->nSteps;
    }
    if (verdict.seedVariant) {
        out["stoneVersion"] = seedVariantName(*verdict.seedVariant);
    }
    if (verdict.parameters) {
        const ProofParameters& p = *verdict.parameters;
        out["securityBits"] = verdict.securityBits;
        out["parameters"] = {{"channelHash", p.channelHash},
                             {"commitmentHash", p.commitmentHash},
                             {"verifierFriendlyCommitmentHash", p.verifierFriendlyCommitmentHash},
                             {"nVerifierFriendlyCommitmentLayers", p.verifierFriendlyLayers},
                             {"powHash", p.powHash},
                             {"logNCosets", p.logCosets},
                             {"friStepList", p.friSteps},
                             {"lastLayerDegreeBound", p.lastLayerDegreeBound},
                             {"nQueries", p.queries},
                             {"proofOfWorkBits", p.proofOfWorkBits}};
    }
    if (verdict.statement) {
        out["statement"] = statementJson(*verdict.statement);
    } else if (!verdict.statementError.empty()) {
        out["statementError"] = verdict.statementError;
    }
    out["milliseconds"] = std::round(verdict.milliseconds * 100) / 100;
    return out;
}

std::string verdictSummary(const Verdict& verdict) {
    std::ostringstream out;
    if (verdict.valid) {
        out << "VALID: the proof verifies\n";
    } else {
        out << "INVALID: " << verdict.failedCheck << "\n";
        if (verdict.failedStage) {
            out << "  failed at:      " << stageName(*verdict.failedStage) << "\n";
        }
    }
    if (verdict.publicInput) {
        out << "  layout:         " << verdict.publicInput->layout << ", "
            << verdict.publicInput->nSteps << " steps\n";
    }
    if (verdict.seedVariant) {
        out << "  public input:   " << seedVariantName(*verdict.seedVariant) << " serialisation\n";
    }
    if (verdict.parameters) {
        const ProofParameters& p = *verdict.parameters;
        out << "  channel:        " << p.channelHash << ", commitments " << p.commitmentHash;
        if (p.verifierFriendlyLayers > 0) {
            out << " (" << p.verifierFriendlyCommitmentHash << " for the top "
                << p.verifierFriendlyLayers << " layers)";
        }
        out << "\n  security:       " << verdict.securityBits << " bits (" << p.queries
            << " queries × " << p.logCosets << " + " << p.proofOfWorkBits << " proof-of-work bits)";
        if (verdict.securityBits < 80) {
            out << " — weak";
        }
        out << "\n";
    }
    if (verdict.statement) {
        const Statement& s = *verdict.statement;
        out << "  statement:      " << memoryVerificationName(s.memoryVerification)
            << " memory, program of " << s.programWords.size() << " words, output of "
            << s.output.size() << "\n";
        if (s.programHash) {
            out << "  program hash:   " << s.programHash->toHex() << "\n";
        } else {
            out << "  program hash:   unknown (the builtins the program declares are not in the "
                   "public memory)\n";
        }
        out << "  words hash:     " << s.programWordsHash.toHex()
            << " (the Cairo verifier's hash of the program words)\n";
        out << "  output:        ";
        for (std::size_t i = 0; i < s.output.size() && i < 8; ++i) {
            out << " " << s.output[i].toHex();
        }
        out << (s.output.size() > 8 ? " …\n" : "\n");
        out << "  SHARP fact:     " << s.sharpFactHash << "\n";
        out << "  Integrity fact: " << s.integrityFactHash.toHex() << "\n";
    } else if (!verdict.statementError.empty()) {
        out << "  statement:      unreadable: " << verdict.statementError << "\n";
    }
    out << "  checked in:     " << std::round(verdict.milliseconds * 10) / 10 << " ms\n";
    return out.str();
}

} // namespace proofdesk::stark
