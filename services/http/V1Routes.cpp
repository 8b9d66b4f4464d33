// The proof service's /v1 routes: trace generation, trace generation with proof generation (also
// unversioned), PIE proof on L1, proof verification on L2, program registration.

#include "ProofRouteSupport.h"

namespace proofdesk::http {
namespace {

// The parts of a request to a /v1 route, refusing any the route does not read.
Parts partsOf(const HttpRequest& request, const api::V1Route& route) {
    return Parts(request, std::set<std::string>(route.parts.begin(), route.parts.end()));
}

// /v1 trace routes take cairoVersion "0" (the only one they support).
std::string traceCairoVersion(const Parts& parts) {
    const std::string version = parts.required("cairoVersion", "MISSING_CAIRO_VERSION");
    if (version != "0" && version != "cairo0") {
        badRequest("UNSUPPORTED_CAIRO_VERSION", "only cairoVersion 0 is supported here");
    }
    return "cairo0";
}

HttpResponse v1TraceGeneration(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kTraceGeneration);
    proof::Submission submission;
    submission.cairoVersion = traceCairoVersion(parts);
    submission.programFile = parts.file("programFile");
    submission.programHash = parts.text("programHash");
    submission.inputFile = parts.file("inputFile");
    submission.result = "TRACE_GENERATION";
    return created(services.proofs.intake().submit(caller, submission));
}

HttpResponse v1L1ProofGenerationVerification(const ProofRouteServices& services,
                                             const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kL1ProofGenerationVerification);
    proof::Submission submission;
    submission.pieFile = parts.file("pieFile");
    if (!submission.pieFile) {
        badRequest("MISSING_PIE_FILE", "pieFile is required");
    }
    submission.mockFactHash = parts.required("mockFactHash", "MISSING_MOCK_FACT_HASH");
    submission.result = "PROOF_VERIFICATION_ON_L1";
    return created(services.proofs.intake().submit(caller, submission));
}

// Also served unversioned, as /trace-generation-proof-generation.
HttpResponse v1TraceGenerationProofGeneration(const ProofRouteServices& services,
                                              const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kTraceGenerationProofGeneration);
    proof::Submission submission;
    submission.cairoVersion = traceCairoVersion(parts);
    const std::string prover = parts.text("prover").value_or("vendor_sharp");
    if (prover != "vendor_sharp" && prover != "stone" && !prover.empty()) {
        badRequest("INVALID_PROVER", "prover is vendor_sharp (the server's configured prover)");
    }
    submission.programFile = parts.file("programFile");
    submission.programHash = parts.text("programHash");
    submission.inputFile = parts.file("inputFile");
    submission.layout = parts.text("layout");
    submission.result = "PROOF_GENERATION";
    return created(services.proofs.intake().submit(caller, submission));
}

HttpResponse v1L2ProofVerification(const ProofRouteServices& services, const HttpRequest& request) {
    const proof::Caller caller = callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kL2ProofVerification);
    proof::Submission submission;
    submission.proofFile = parts.file("proofFile");
    if (!submission.proofFile) {
        badRequest("MISSING_PROOF_FILE", "proofFile is required");
    }
    submission.mockFactHash = parts.required("mockFactHash", "MISSING_MOCK_FACT_HASH");
    submission.stoneVersion = parts.required("stoneVersion", "MISSING_STONE_VERSION");
    submission.memoryVerification =
        parts.required("memoryVerification", "MISSING_MEMORY_VERIFICATION");
    submission.result = "PROOF_VERIFICATION_ON_L2";
    return created(services.proofs.intake().submit(caller, submission));
}

HttpResponse v1SubmitProgram(const ProofRouteServices& services, const HttpRequest& request) {
    callerOf(request, services.keys);
    const Parts parts = partsOf(request, api::v1::kSubmitProgram);
    const auto programFile = parts.file("programFile");
    if (!programFile) {
        badRequest("MISSING_PROGRAM_FILE", "programFile is required");
    }
    const std::string version = parts.required("cairoVersion", "MISSING_CAIRO_VERSION");
    if (version == "1" || version == "cairo1") {
        badRequest("CAIRO1_PROGRAMS_NOT_SUPPORTED", "this server registers Cairo 0 programs");
    }
    if (version != "0" && version != "cairo0") {
        badRequest("INVALID_CAIRO_VERSION", "cairoVersion is 0");
    }
    return HttpResponse::json(
        201, {{"programHash", services.proofs.intake().submitProgram(*programFile, "cairo0")}});
}

} // namespace

void addV1Routes(Router& router, const ProofRouteServices& services) {
    const auto message = ErrorBody::MessageField;
    addNamedRoutes<ProofRouteServices>(
        router, RouteGroup::Proof, services,
        {{"POST", api::v1::kTraceGeneration.path, message, kUploadBodyLimit, v1TraceGeneration},
         {"POST", api::v1::kL1ProofGenerationVerification.path, message, kUploadBodyLimit,
          v1L1ProofGenerationVerification},
         {"POST", api::v1::kTraceGenerationProofGeneration.path, message, kUploadBodyLimit,
          v1TraceGenerationProofGeneration},
         {"POST", "/trace-generation-proof-generation", message, kUploadBodyLimit,
          v1TraceGenerationProofGeneration},
         {"POST", api::v1::kL2ProofVerification.path, message, kUploadBodyLimit,
          v1L2ProofVerification},
         {"POST", api::v1::kSubmitProgram.path, message, kUploadBodyLimit, v1SubmitProgram}});
}

} // namespace proofdesk::http
