// The proof service's /v1 routes: trace generation, trace generation with proof generation (also
// unversioned), PIE proof on L1, proof verification on L2, program registration.

#include "ProofRouteSupport.h"
#include "SubmissionParts.h"

namespace proofdesk::routes {
namespace {

// The parts of a request to a /v1 route, refusing any the route does not read.
Parts partsOf(const HttpRequest& request, const api::V1Route& route) {
    return Parts(request, std::set<std::string>(route.parts.begin(), route.parts.end()));
}

// /v1 trace routes take cairoVersion "0" (the only one they support).
void checkTraceCairoVersion(const Parts& parts) {
    const std::string version = parts.required("cairoVersion", "MISSING_CAIRO_VERSION");
    if (version != "0" && version != "cairo0") {
        badRequest("UNSUPPORTED_CAIRO_VERSION", "only cairoVersion 0 is supported here");
    }
}

// A /v1 trace route's program: a file or a registered program's hash, with its input.
proof::QuerySource programSourceOf(const Parts& parts) {
    return sourceOf(parts.file("programFile"), parts.text("programHash"), parts.file("inputFile"),
                    std::nullopt, std::nullopt);
}

HttpResponse v1TraceGeneration(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kTraceGeneration);
    checkTraceCairoVersion(parts);
    proof::CoreQueryRequest submission;
    submission.source = programSourceOf(parts);
    submission.result = api::QueryResult::TraceGeneration;
    return created(services.proofs.intake().submit(caller, submission));
}

HttpResponse v1L1ProofGenerationVerification(const ProofRouteServices& services,
                                             const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kL1ProofGenerationVerification);
    std::optional<proof::UploadedFile> pieFile = parts.file("pieFile");
    if (!pieFile) {
        badRequest("MISSING_PIE_FILE", "pieFile is required");
    }
    proof::CoreQueryRequest submission;
    submission.source = proof::PieSource{std::move(*pieFile)};
    submission.mockFactHash =
        mockFactHashOf(parts.required("mockFactHash", "MISSING_MOCK_FACT_HASH"));
    submission.result = api::QueryResult::ProofVerificationOnL1;
    return created(services.proofs.intake().submit(caller, submission));
}

// Also served unversioned, as /trace-generation-proof-generation.
HttpResponse v1TraceGenerationProofGeneration(const ProofRouteServices& services,
                                              const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kTraceGenerationProofGeneration);
    checkTraceCairoVersion(parts);
    const std::string prover = parts.text("prover").value_or("vendor_sharp");
    if (prover != "vendor_sharp" && prover != "stone" && !prover.empty()) {
        badRequest("INVALID_PROVER", "prover is vendor_sharp (the server's configured prover)");
    }
    proof::CoreQueryRequest submission;
    submission.source = programSourceOf(parts);
    submission.layout = layoutOf(parts);
    submission.optimize = optimizeOf(parts);
    submission.result = api::QueryResult::ProofGeneration;
    return created(services.proofs.intake().submit(caller, submission));
}

HttpResponse v1L2ProofVerification(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kL2ProofVerification);
    std::optional<proof::UploadedFile> proofFile = parts.file("proofFile");
    if (!proofFile) {
        badRequest("MISSING_PROOF_FILE", "proofFile is required");
    }
    proof::CoreQueryRequest submission;
    submission.source = proof::ProofSource{std::move(*proofFile)};
    submission.mockFactHash =
        mockFactHashOf(parts.required("mockFactHash", "MISSING_MOCK_FACT_HASH"));
    submission.stoneVersion = optionalEnumPart<api::StoneVersion>(
        parts.required("stoneVersion", "MISSING_STONE_VERSION"), "INVALID_STONE_VERSION");
    submission.memoryVerification = optionalEnumPart<api::MemoryVerification>(
        parts.required("memoryVerification", "MISSING_MEMORY_VERIFICATION"),
        "INVALID_MEMORY_VERIFICATION");
    submission.result = api::QueryResult::ProofVerificationOnL2;
    return created(services.proofs.intake().submit(caller, submission));
}

HttpResponse v1SubmitProgram(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kSubmitProgram);
    const auto programFile = parts.file("programFile");
    if (!programFile) {
        badRequest("MISSING_PROGRAM_FILE", "programFile is required");
    }
    const std::string version = parts.required("cairoVersion", "MISSING_CAIRO_VERSION");
    const bool cairo1 = version == "1" || version == "cairo1";
    if (!cairo1 && version != "0" && version != "cairo0") {
        badRequest("INVALID_CAIRO_VERSION", "cairoVersion is 0 (cairo0) or 1 (cairo1)");
    }
    return HttpResponse::json(
        201, {{"programHash", services.proofs.intake().submitProgram(
                                  caller, *programFile, cairo1 ? "cairo1" : "cairo0")}});
}

} // namespace

void addV1Routes(Router& router, const ProofRouteServices& services) {
    const auto message = ErrorBody::MessageField;
    addNamedRoutes<ProofRouteServices>(
        router, RouteGroup::Proof, services,
        {{"POST", api::v1::kTraceGeneration.path, message, kUploadBodyLimit, v1TraceGeneration,
          Execution::ByKind, Access::ApiKey},
         {"POST", api::v1::kL1ProofGenerationVerification.path, message, kUploadBodyLimit,
          v1L1ProofGenerationVerification, Execution::ByKind, Access::ApiKey},
         {"POST", api::v1::kTraceGenerationProofGeneration.path, message, kUploadBodyLimit,
          v1TraceGenerationProofGeneration, Execution::ByKind, Access::ApiKey},
         {"POST", "/trace-generation-proof-generation", message, kUploadBodyLimit,
          v1TraceGenerationProofGeneration, Execution::ByKind, Access::ApiKey},
         {"POST", api::v1::kL2ProofVerification.path, message, kUploadBodyLimit,
          v1L2ProofVerification, Execution::ByKind, Access::ApiKey},
         {"POST", api::v1::kSubmitProgram.path, message, kUploadBodyLimit, v1SubmitProgram,
          Execution::ByKind, Access::ApiKey}});
}

} // namespace proofdesk::routes
