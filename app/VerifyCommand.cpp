#include "Commands.h"

#include "core/BoundedJson.h"
#include "stark/verifier/ProofVerifier.h"
#include "stark/verifier/VerdictJson.h"

#include <cstdio>
#include <iostream>
#include <string>

using namespace proofdesk::stark;

namespace {

const char* kUsage =
    "usage: proofdesk verify [--in_file] PROOF.json [--json] [--stone_version stone5|stone6]\n"
    "         [--memory_verification strict|relaxed|cairo1] [--dynamic_params FILE]\n"
    "  Verifies a Stone proof (proof_hex, proof_parameters, public_input) with Proofdesk's own\n"
    "  verifier and prints the verdict, the first failed check, the statement and its facts.\n"
    "  Exit status: 0 valid, 1 invalid, 2 unreadable input or usage error.\n"
    "  --stone_version: the public input serialisation the channel was seeded with (default:\n"
    "    whichever of stone6 and stone5 the proof was made with).\n"
    "  --memory_verification: how the public memory reads as program and output (default:\n"
    "    the first of strict, relaxed and cairo1 that holds).\n"
    "  --dynamic_params: a JSON object of the `dynamic` layout's parameters, for a proof whose\n"
    "    public input does not carry them (Stone's proofs do; they must then agree).\n";

constexpr std::uint64_t kMaxProofFile = std::uint64_t(256) << 20;
constexpr std::uint64_t kMaxParamsFile = std::uint64_t(1) << 20;

// Puts the parameters of FILE into the proof's public input; false (with a message on stderr)
// when they cannot be read or contradict the ones the proof states.
bool addDynamicParams(nlohmann::json& proof, const std::string& path) {
    std::string text;
    if (!proofdesk::core::readFileBounded(path, kMaxParamsFile, &text)) {
        std::fprintf(stderr,
                     "proofdesk verify: cannot read %s (missing, not a file, or over 1 MiB)\n",
                     path.c_str());
        return false;
    }
    std::string why;
    const nlohmann::json params = proofdesk::core::parseJsonBounded(text, &why);
    if (params.is_discarded() || !params.is_object()) {
        std::fprintf(stderr, "proofdesk verify: %s is not a JSON object of parameters%s%s\n",
                     path.c_str(), why.empty() ? "" : ": ", why.c_str());
        return false;
    }
    if (!proof.is_object() || !proof.contains("public_input") ||
        !proof["public_input"].is_object()) {
        return true; // the verifier says what is missing
    }
    nlohmann::json& input = proof["public_input"];
    if (input.contains("dynamic_params") && !input["dynamic_params"].is_null() &&
        input["dynamic_params"] != params) {
        std::fprintf(stderr,
                     "proofdesk verify: the proof's public input states other dynamic_params "
                     "than %s\n",
                     path.c_str());
        return false;
    }
    input["dynamic_params"] = params;
    return true;
}

} // namespace

int runVerifyCommand(int argc, char** argv) {
    std::string path;
    std::string dynamicParamsPath;
    bool json = false;
    VerifyOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                throw std::invalid_argument(arg + " needs a value");
            }
            return argv[++i];
        };
        try {
            if (arg == "--help" || arg == "-h") {
                std::fputs(kUsage, stdout);
                return 0;
            } else if (arg == "--json") {
                json = true;
            } else if (arg == "--dynamic_params") {
                dynamicParamsPath = next();
            } else if (arg == "--in_file" || arg == "--in-file") {
                path = next();
            } else if (arg == "--stone_version") {
                const std::string value = next();
                if (value != "stone5" && value != "stone6") {
                    throw std::invalid_argument("--stone_version is stone5 or stone6");
                }
                options.seedVariant = value == "stone5" ? SeedVariant::Stone5 : SeedVariant::Stone6;
            } else if (arg == "--memory_verification") {
                options.memoryVerification = memoryVerificationNamed(next());
                if (!options.memoryVerification) {
                    throw std::invalid_argument(
                        "--memory_verification is strict, relaxed or cairo1");
                }
            } else if (!arg.starts_with("--") && path.empty()) {
                path = arg;
            } else {
                throw std::invalid_argument("unknown argument " + arg);
            }
        } catch (const std::invalid_argument& e) {
            std::fprintf(stderr, "proofdesk verify: %s\n%s", e.what(), kUsage);
            return 2;
        }
    }
    if (path.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    std::string text;
    if (!proofdesk::core::readFileBounded(path, kMaxProofFile, &text)) {
        std::fprintf(stderr,
                     "proofdesk verify: cannot read %s (missing, not a file, or over 256 "
                     "MiB)\n",
                     path.c_str());
        return 2;
    }
    std::string why;
    nlohmann::json proof = proofdesk::core::parseJsonBounded(text, &why);
    if (proof.is_discarded()) {
        std::fprintf(stderr, "proofdesk verify: %s is not JSON: %s\n", path.c_str(), why.c_str());
        return 2;
    }
    if (!dynamicParamsPath.empty() && !addDynamicParams(proof, dynamicParamsPath)) {
        return 2;
    }
    const Verdict verdict = verifyStoneProof(proof, options);
    if (json) {
        std::cout << verdictJson(verdict).dump(2) << "\n";
    } else {
        std::cout << verdictSummary(verdict);
    }
    return verdict.valid ? 0 : 1;
}
