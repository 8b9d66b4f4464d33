#include "CoreQueryRequest.h"

#include "cairo/python/PythonHints.h"
#include "cairo/vm/Layout.h"
#include "core/ServiceError.h"

namespace proofdesk::proof {
namespace {

[[noreturn]] void badRequest(const char* code, const std::string& detail = {}) {
    throw core::ServiceError(core::ErrorKind::BadRequest, code, detail);
}

// cairoVm=python runs the program's Python hints: only where the server allows and can.
void checkPythonHints(const ProverSettings& provers) {
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

// `dynamic` takes Proofdesk's placement of its columns (cairo::defaultDynamicParams), with the
// program's builtins: submissions carry no layout parameters.
void checkLayout(const std::string& layout) {
    if (layout != "auto" && !cairo::isLayoutName(layout)) {
        std::string list = "auto";
        for (const std::string& name : cairo::layoutNames()) {
            list += ", " + name;
        }
        list += ", dynamic";
        badRequest("INVALID_LAYOUT", "\"" + layout + "\" is not one of " + list);
    }
}

template <typename Source, typename Member>
auto partOf(const QuerySource& source, Member Source::*member) {
    const Source* held = std::get_if<Source>(&source);
    return held ? &(held->*member) : nullptr;
}

} // namespace

const UploadedFile* CoreQueryRequest::programFile() const {
    return partOf(source, &ProgramFileSource::program);
}
const std::string* CoreQueryRequest::programHash() const {
    return partOf(source, &ProgramHashSource::programHash);
}
const UploadedFile* CoreQueryRequest::inputFile() const {
    const std::optional<UploadedFile>* input = partOf(source, &ProgramFileSource::input);
    if (!input) {
        input = partOf(source, &ProgramHashSource::input);
    }
    return input && *input ? &**input : nullptr;
}
const UploadedFile* CoreQueryRequest::pieFile() const {
    return partOf(source, &PieSource::pie);
}
const UploadedFile* CoreQueryRequest::proofFile() const {
    return partOf(source, &ProofSource::proof);
}

CheckedRequest checkRequest(const CoreQueryRequest& request, const ProverSettings& provers) {
    CheckedRequest checked;
    api::ProofQuery& query = checked.query;
    query.externalId = request.externalId;
    query.dedupId = request.dedupId;
    query.result = api::nameOf(request.result);
    query.network = api::nameOf(request.network);
    query.cairoVm = api::nameOf(request.cairoVm);
    query.cairoVersion = api::nameOf(request.cairoVersion);
    query.declaredJobSize = api::nameOf(request.declaredJobSize);
    // Who will prove it; the proof stage records who did (a mocked fact's proof is the mock's).
    query.sharpProver = request.mockFactHash ? "mock" : provers.proverName();
    if (request.hints) {
        query.hints = api::nameOf(*request.hints);
    }
    if (request.cairoVm == api::CairoVm::Python) {
        checkPythonHints(provers);
    }
    checkLayout(request.layout);
    checked.layout = request.layout;
    QueryInputs& inputs = checked.inputs;
    inputs.mockFactHash = request.mockFactHash;
    inputs.layout = request.layout;
    inputs.optimize = request.optimize;
    if (request.stoneVersion) {
        inputs.stoneVersion = api::nameOf(*request.stoneVersion);
    }
    if (request.memoryVerification) {
        inputs.memoryVerification = api::nameOf(*request.memoryVerification);
    }
    return checked;
}

} // namespace proofdesk::proof
