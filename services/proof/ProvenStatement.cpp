#include "ProvenStatement.h"

#include "Provers.h"
#include "core/BoundedJson.h"
#include "stark/Rejection.h"
#include "stark/proof/PublicInput.h"
#include "stark/proof/Statement.h"

namespace proofdesk::proof {
namespace {

// A proof the verifier accepted is a few MiB at most; anything larger is not read here.
constexpr std::uint64_t kMaxProofBytes = std::uint64_t{256} << 20;

} // namespace

ProvenStatement readProvenStatement(const std::string& proofPath,
                                    const std::optional<std::string>& memoryVerification,
                                    bool bootloader) {
    std::string text;
    if (!core::readFileBounded(proofPath, kMaxProofBytes, &text)) {
        throw StageFailure(true, "the proof file cannot be read");
    }
    std::string why;
    const nlohmann::json proof = core::parseJsonBounded(text, &why);
    text.clear();
    if (!proof.is_object() || !proof.contains("public_input")) {
        throw StageFailure(false, "the proof has no public input" +
                                      (why.empty() ? std::string() : ": it is " + why));
    }
    std::vector<stark::MemoryVerification> modes = {stark::MemoryVerification::Strict,
                                                    stark::MemoryVerification::Relaxed,
                                                    stark::MemoryVerification::Cairo1};
    if (memoryVerification && !memoryVerification->empty()) {
        const auto named = stark::memoryVerificationNamed(*memoryVerification);
        if (!named) {
            throw StageFailure(false, "unknown memoryVerification " + *memoryVerification);
        }
        modes = {*named};
    }
    const auto provenOf = [](const stark::Statement& statement) {
        ProvenStatement out;
        out.layout = statement.layout;
        out.nSteps = statement.nSteps;
        out.memoryVerification = stark::memoryVerificationName(statement.memoryVerification);
        out.programHashIsChain = statement.programHash.has_value();
        out.programHash = statement.programHash.value_or(statement.programWordsHash);
        out.output = statement.output;
        out.sharpFactHash = statement.sharpFactHash;
        out.integrityFactHash = statement.integrityFactHash;
        return out;
    };
    try {
        const stark::PublicInput input = stark::parsePublicInput(proof.at("public_input"));
        if (bootloader) {
            return provenOf(stark::readBootloaderStatement(input));
        }
        std::string firstError;
        for (const stark::MemoryVerification mode : modes) {
            try {
                return provenOf(stark::readStatement(input, mode));
            } catch (const stark::Rejection& rejection) {
                if (firstError.empty()) {
                    firstError = rejection.what();
                }
            }
        }
        throw StageFailure(false, "the proof's statement cannot be read: " + firstError);
    } catch (const stark::Rejection& rejection) {
        throw StageFailure(false, std::string("the proof's public input cannot be read: ") +
                                      rejection.what());
    }
}

} // namespace proofdesk::proof
