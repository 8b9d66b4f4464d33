#include "ProofVerifier.h"

#include "air/Layout.h"
#include "core/BoundedJson.h"
#include "crypto/HexDigit.h"

#include <chrono>

namespace proofdesk::stark {
namespace {

constexpr std::size_t kMaxProofBytes = std::size_t(64) << 20;

void readStatementInto(Verdict& verdict, const VerifyOptions& options) {
    std::shared_ptr<const air::LayoutSpec> layout;
    try {
        layout = air::layoutFor(verdict.publicInput->layout, verdict.publicInput->dynamicParams);
    } catch (const std::runtime_error& e) {
        verdict.statementError = e.what();
        return;
    }
    try {
        validatePublicInput(*verdict.publicInput, *layout);
    } catch (const Rejection& rejection) {
        verdict.statementError = rejection.what();
        return;
    }
    std::vector<MemoryVerification> modes;
    if (options.memoryVerification) {
        modes = {*options.memoryVerification};
    } else {
        modes = {MemoryVerification::Strict, MemoryVerification::Relaxed,
                 MemoryVerification::Cairo1};
    }
    for (const MemoryVerification mode : modes) {
        try {
            verdict.statement = readStatement(*verdict.publicInput, mode);
            verdict.statementError.clear();
            return;
        } catch (const Rejection& rejection) {
            if (verdict.statementError.empty()) {
                verdict.statementError = rejection.what();
            }
        }
    }
}

} // namespace

std::vector<std::uint8_t> proofBytesFromHex(const std::string& hex) {
    std::size_t at = hex.starts_with("0x") || hex.starts_with("0X") ? 2 : 0;
    const std::size_t digits = hex.size() - at;
    if (digits % 2 != 0) {
        throw Rejection(Stage::Transcript, "proof_hex has an odd number of hex digits");
    }
    if (digits / 2 > kMaxProofBytes) {
        throw Rejection(Stage::Transcript, "proof_hex holds " + withThousands(digits / 2) +
                                               " bytes, more than the limit of " +
                                               withThousands(kMaxProofBytes));
    }
    std::vector<std::uint8_t> bytes;
    bytes.reserve(digits / 2);
    for (; at < hex.size(); at += 2) {
        const int high = crypto::hexDigitValue(static_cast<unsigned char>(hex[at]));
        const int low = crypto::hexDigitValue(static_cast<unsigned char>(hex[at + 1]));
        if (high < 0 || low < 0) {
            throw Rejection(Stage::Transcript,
                            "proof_hex has a non-hex character at offset " + std::to_string(at));
        }
        bytes.push_back(std::uint8_t(high * 16 + low));
    }
    return bytes;
}

Verdict verifyStoneProof(const nlohmann::json& proof, const VerifyOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    Verdict verdict;
    const auto finish = [&] {
        verdict.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count();
        return verdict;
    };
    const auto fail = [&](const Rejection& rejection) {
        verdict.valid = false;
        verdict.failedStage = rejection.stage();
        verdict.failedCheck = rejection.what();
        return finish();
    };
    try {
        if (!proof.is_object()) {
            throw Rejection(Stage::Parameters, "not a STARK proof: a Stone proof is a JSON object");
        }
        if (proof.value("mocked", false) || !proof.contains("proof_hex")) {
            throw Rejection(Stage::Parameters,
                            "not a STARK proof: it has no proof_hex (a mocked proof?)");
        }
        const auto& hex = proof.at("proof_hex");
        if (!hex.is_string()) {
            throw Rejection(Stage::Transcript, "proof_hex is not a string");
        }
        if (!proof.contains("proof_parameters") || !proof.contains("public_input")) {
            throw Rejection(Stage::Parameters,
                            "not a STARK proof: proof_parameters or public_input is missing");
        }
        verdict.parameters = parseProofParameters(proof.at("proof_parameters"));
        verdict.securityBits = securityBits(*verdict.parameters);
        verdict.publicInput = parsePublicInput(proof.at("public_input"));
        std::vector<std::uint8_t> bytes = proofBytesFromHex(hex.get<std::string>());
        readStatementInto(verdict, options);

        std::vector<SeedVariant> variants;
        if (options.seedVariant) {
            variants = {*options.seedVariant};
        } else {
            variants = {SeedVariant::Stone6, SeedVariant::Stone5};
        }
        std::optional<Rejection> first;
        for (const SeedVariant variant : variants) {
            verdict.seedVariant = variant;
            try {
                verdict.trace =
                    verifyStark(*verdict.parameters, *verdict.publicInput, variant, bytes);
                verdict.valid = true;
                return finish();
            } catch (const Rejection& rejection) {
                // Only the out-of-domain check tells the seeds apart; any later failure is final.
                if (rejection.stage() != Stage::OutOfDomain || variants.size() == 1) {
                    return fail(rejection);
                }
                if (!first) {
                    first = rejection;
                }
            }
        }
        verdict.seedVariant.reset();
        return fail(Rejection(Stage::OutOfDomain, std::string(first->what()) +
                                                      " (under both the stone6 and the stone5 "
                                                      "public input serialisation)"));
    } catch (const Rejection& rejection) {
        return fail(rejection);
    } catch (const std::exception& e) {
        return fail(
            Rejection(Stage::Parameters, std::string("cannot read the proof: ") + e.what()));
    }
}

Verdict verifyStoneProofText(std::string_view text, const VerifyOptions& options) {
    std::string why;
    const nlohmann::json proof = core::parseJsonBounded(text, &why);
    if (proof.is_discarded()) {
        Verdict verdict;
        verdict.failedStage = Stage::Parameters;
        verdict.failedCheck = "not JSON: " + why;
        return verdict;
    }
    return verifyStoneProof(proof, options);
}

} // namespace proofdesk::stark
