#include "Submission.h"

#include "api/Identifiers.h"
#include "cairo/python/PythonHints.h"
#include "cairo/vm/Layout.h"
#include "core/ServiceError.h"

#include <QString>

#include <limits>
#include <tuple>
#include <vector>

namespace proofdesk::proof {
namespace {

namespace enums = api::proof_enums;

[[noreturn]] void badRequest(const char* code, const std::string& detail = {}) {
    throw core::ServiceError(core::ErrorKind::BadRequest, code, detail);
}

// `value` if it is one of `allowed`, `fallback` when absent or empty, else 400 `code`.
std::string oneOf(const std::optional<std::string>& value, const std::string& fallback,
                  const std::vector<std::string>& allowed, const char* code) {
    if (!value || value->empty()) {
        return fallback;
    }
    if (!enums::contains(allowed, *value)) {
        std::string list;
        for (const std::string& option : allowed) {
            list += (list.empty() ? "" : ", ") + option;
        }
        badRequest(code, "\"" + *value + "\" is not one of " + list);
    }
    return *value;
}

} // namespace

CheckedSubmission checkSubmission(const Submission& in, const ProverSettings& provers) {
    CheckedSubmission checked;
    api::ProofQuery& query = checked.query;
    nlohmann::json& inputs = checked.inputs;
    inputs = nlohmann::json::object();
    query.externalId = in.externalId.value_or("");
    query.result = oneOf(in.result, "PROOF_GENERATION", enums::kResults, "INVALID_RESULT");
    query.network = oneOf(in.network, "TESTNET", enums::kNetworks, "INVALID_NETWORK");
    query.cairoVm = oneOf(in.cairoVm, "rust", enums::kCairoVms, "INVALID_CAIRO_VM");
    query.cairoVersion =
        oneOf(in.cairoVersion, "cairo0", enums::kCairoVersions, "INVALID_CAIRO_VERSION");
    query.declaredJobSize =
        oneOf(in.declaredJobSize, "S", enums::kJobSizes, "INVALID_DECLARED_JOB_SIZE");
    query.sharpProver = oneOf(in.sharpProver, "stone", {"stone"}, "INVALID_SHARP_PROVER");
    if (in.hints && !in.hints->empty()) {
        query.hints = oneOf(in.hints, "", enums::kHints, "INVALID_HINTS");
    }
    const std::string mockFact =
        oneOf(in.mockFactHash, "false", {"true", "false"}, "INVALID_MOCK_FACT_HASH");
    inputs["mockFactHash"] = mockFact == "true";
    if (query.cairoVm == "python") {
        if (!provers.pythonHints) {
            badRequest("CAIRO_VM_PYTHON_DISABLED",
                       "cairoVm=python (running the program's Python hints) is turned off on "
                       "this server (proofdesk serve --python-hints on enables it); use "
                       "cairoVm=rust, which runs the native hints");
        }
        std::string why;
        if (!cairo::pythonHintsAvailable(&why)) {
            badRequest("CAIRO_VM_PYTHON_NOT_AVAILABLE",
                       "cairoVm=python cannot run on this server: " + why);
        }
    }
    std::string& layout = checked.layout;
    layout = in.layout.value_or("");
    if (layout.empty()) {
        layout = "auto";
    }
    if (layout == "dynamic") {
        badRequest("INVALID_LAYOUT", "layout dynamic needs layout parameters, which submissions "
                                     "cannot carry; use auto or a named layout");
    }
    if (layout != "auto" && !cairo::layoutNamed(layout)) {
        std::string list = "auto";
        for (const std::string& name : cairo::layoutNames()) {
            list += ", " + name;
        }
        badRequest("INVALID_LAYOUT", "\"" + layout + "\" is not one of " + list);
    }
    inputs["layout"] = layout;
    if (in.stoneVersion) {
        inputs["stoneVersion"] =
            oneOf(in.stoneVersion, "", {"stone5", "stone6"}, "INVALID_STONE_VERSION");
    }
    if (in.memoryVerification) {
        inputs["memoryVerification"] =
            oneOf(in.memoryVerification, "", {"strict", "relaxed", "cairo1"},
                  "INVALID_MEMORY_VERIFICATION");
    }
    std::optional<int>& jobIndex = checked.bucketJobIndex;
    if (in.bucketJobIndex && !in.bucketJobIndex->empty()) {
        bool ok = false;
        const qlonglong value = QString::fromStdString(*in.bucketJobIndex).toLongLong(&ok);
        if (!ok || value < 0 || value > std::numeric_limits<int>::max()) {
            badRequest("INVALID_BUCKET_JOB_INDEX", "bucketJobIndex is an integer from 0 to "
                                                   "2147483647");
        }
        jobIndex = int(value);
    }
    if (jobIndex && (!in.bucketId || in.bucketId->empty())) {
        badRequest("BUCKET_JOB_INDEX_WITHOUT_BUCKET", "bucketJobIndex needs a bucketId");
    }
    if (in.dedupId && !in.dedupId->empty()) {
        query.dedupId = *in.dedupId;
    }
    using Named = std::tuple<const std::optional<std::string>*, const char*, const char*>;
    for (const auto& [value, code, name] :
         {Named{&query.dedupId, "INVALID_DEDUP_ID", "dedupId"},
          Named{&in.externalId, "INVALID_EXTERNAL_ID", "externalId"}}) {
        if (*value) {
            if (const auto problem = api::identifierProblem(**value, api::kMaxIdLength)) {
                badRequest(code, std::string(name) + " " + *problem);
            }
        }
    }

    // Exactly one source.
    const bool hasProgramHash = checked.hasProgramHash = in.programHash && !in.programHash->empty();
    if (in.programFile && hasProgramHash) {
        badRequest("PROGRAM_FILE_AND_PROGRAM_HASH_ARE_EXCLUSIVE",
                   "give programFile or programHash, not both");
    }
    const int sources = int(bool(in.programFile)) + int(hasProgramHash) + int(bool(in.pieFile)) +
                        int(bool(in.proofFile));
    if (sources == 0) {
        badRequest("PROGRAM_FILE_OR_PIE_FILE_OR_PROGRAM_HASH_IS_REQUIRED");
    }
    if (sources > 1) {
        badRequest("CONFLICTING_SOURCES",
                   "give exactly one of programFile, programHash, pieFile and proofFile");
    }
    if (in.inputFile && !in.programFile && !hasProgramHash) {
        badRequest("INPUT_FILE_NEEDS_A_PROGRAM", "inputFile goes with programFile or programHash");
    }
    return checked;
}

} // namespace proofdesk::proof
