#include "SubmissionParts.h"

#include "api/Identifiers.h"

#include <QString>

#include <limits>

namespace proofdesk::routes {
namespace {

// bucketJobIndex: an integer from 0 to 2^31 - 1.
std::optional<int> bucketJobIndexOf(const std::optional<std::string>& value) {
    if (absentOrEmpty(value)) {
        return std::nullopt;
    }
    bool ok = false;
    const qlonglong index = QString::fromStdString(*value).toLongLong(&ok);
    if (!ok || index < 0 || index > std::numeric_limits<int>::max()) {
        badRequest("INVALID_BUCKET_JOB_INDEX", "bucketJobIndex is an integer from 0 to 2147483647");
    }
    return int(index);
}

// dedupId and externalId: identifiers of at most api::kMaxIdLength characters.
void checkIdentifier(const std::optional<std::string>& value, const char* code, const char* name) {
    if (value) {
        if (const auto problem = api::identifierProblem(*value, api::kMaxIdLength)) {
            badRequest(code, std::string(name) + " " + *problem);
        }
    }
}

} // namespace

std::string layoutOf(const Parts& parts) {
    const std::optional<std::string> layout = parts.text("layout");
    return absentOrEmpty(layout) ? "auto" : *layout;
}

std::optional<std::string> optimizeOf(const Parts& parts) {
    const std::optional<std::string> optimize = parts.text("optimize");
    if (absentOrEmpty(optimize)) {
        return std::nullopt;
    }
    if (*optimize != "time" && *optimize != "size") {
        badRequest("INVALID_OPTIMIZE", "\"" + *optimize + "\" is not one of time, size");
    }
    return optimize;
}

bool mockFactHashOf(const std::optional<std::string>& value) {
    if (absentOrEmpty(value) || *value == "false") {
        return false;
    }
    if (*value != "true") {
        badRequest("INVALID_MOCK_FACT_HASH", "\"" + *value + "\" is not one of true, false");
    }
    return true;
}

proof::QuerySource sourceOf(std::optional<proof::UploadedFile> programFile,
                            const std::optional<std::string>& programHash,
                            std::optional<proof::UploadedFile> inputFile,
                            std::optional<proof::UploadedFile> pieFile,
                            std::optional<proof::UploadedFile> proofFile) {
    const bool hasProgramHash = !absentOrEmpty(programHash);
    if (programFile && hasProgramHash) {
        badRequest("PROGRAM_FILE_AND_PROGRAM_HASH_ARE_EXCLUSIVE",
                   "give programFile or programHash, not both");
    }
    const int sources =
        int(bool(programFile)) + int(hasProgramHash) + int(bool(pieFile)) + int(bool(proofFile));
    if (sources == 0) {
        badRequest("PROGRAM_FILE_OR_PIE_FILE_OR_PROGRAM_HASH_IS_REQUIRED");
    }
    if (sources > 1) {
        badRequest("CONFLICTING_SOURCES",
                   "give exactly one of programFile, programHash, pieFile and proofFile");
    }
    if (inputFile && !programFile && !hasProgramHash) {
        badRequest("INPUT_FILE_NEEDS_A_PROGRAM", "inputFile goes with programFile or programHash");
    }
    if (programFile) {
        return proof::ProgramFileSource{std::move(*programFile), std::move(inputFile)};
    }
    if (hasProgramHash) {
        return proof::ProgramHashSource{*programHash, std::move(inputFile)};
    }
    if (pieFile) {
        return proof::PieSource{std::move(*pieFile)};
    }
    return proof::ProofSource{std::move(*proofFile)};
}

proof::CoreQueryRequest coreQueryRequestOf(const Parts& parts) {
    proof::CoreQueryRequest request;
    request.externalId = parts.text("externalId").value_or("");
    request.result =
        enumPart(parts.text("result"), api::QueryResult::ProofGeneration, "INVALID_RESULT");
    request.network = enumPart(parts.text("network"), api::Network::Testnet, "INVALID_NETWORK");
    request.cairoVm = enumPart(parts.text("cairoVm"), api::CairoVm::Rust, "INVALID_CAIRO_VM");
    request.cairoVersion =
        enumPart(parts.text("cairoVersion"), api::CairoVersion::Cairo0, "INVALID_CAIRO_VERSION");
    request.declaredJobSize =
        enumPart(parts.text("declaredJobSize"), api::JobSize::S, "INVALID_DECLARED_JOB_SIZE");
    const std::optional<std::string> prover = parts.text("sharpProver");
    if (!absentOrEmpty(prover) && *prover != "stone") {
        badRequest("INVALID_SHARP_PROVER", "\"" + *prover + "\" is not one of stone");
    }
    request.hints = optionalEnumPart<api::GrowerHints>(parts.text("hints"), "INVALID_HINTS");
    request.mockFactHash = mockFactHashOf(parts.text("mockFactHash"));
    request.layout = layoutOf(parts);
    request.optimize = optimizeOf(parts);
    request.stoneVersion =
        optionalEnumPart<api::StoneVersion>(parts.text("stoneVersion"), "INVALID_STONE_VERSION");
    request.memoryVerification = optionalEnumPart<api::MemoryVerification>(
        parts.text("memoryVerification"), "INVALID_MEMORY_VERIFICATION");
    request.bucketJobIndex = bucketJobIndexOf(parts.text("bucketJobIndex"));
    const std::optional<std::string> bucketId = parts.text("bucketId");
    if (!absentOrEmpty(bucketId)) {
        request.bucketId = bucketId;
    } else if (request.bucketJobIndex) {
        badRequest("BUCKET_JOB_INDEX_WITHOUT_BUCKET", "bucketJobIndex needs a bucketId");
    }
    const std::optional<std::string> dedupId = parts.text("dedupId");
    if (!absentOrEmpty(dedupId)) {
        request.dedupId = dedupId;
    }
    checkIdentifier(request.dedupId, "INVALID_DEDUP_ID", "dedupId");
    checkIdentifier(parts.text("externalId"), "INVALID_EXTERNAL_ID", "externalId");
    request.source =
        sourceOf(parts.file("programFile"), parts.text("programHash"), parts.file("inputFile"),
                 parts.file("pieFile"), parts.file("proofFile"));
    return request;
}

} // namespace proofdesk::routes
