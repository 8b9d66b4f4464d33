#pragma once

#include "Provers.h"
#include "QueryInputs.h"
#include "api/ProofWire.h"
#include "sandbox/SandboxRunner.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace proofdesk::proof {

// An uploaded file: its bytes in `content`, or, for a large upload the HTTP edge streamed to
// disk, in the file at `path` (`content` then empty).
struct UploadedFile {
    std::string filename;
    std::string content;
    std::string path = {};
    std::uint64_t size = 0;

    bool onDisk() const { return !path.empty(); }
    std::uint64_t byteCount() const { return onDisk() ? size : content.size(); }
    // As an input of a sandboxed run.
    sandbox::SandboxInput asInput(const std::string& name) const {
        return {name, path, onDisk() ? std::string() : content};
    }
};

// What a query starts from: exactly one of these.
struct ProgramFileSource { // a compiled program, run with its input
    UploadedFile program;
    std::optional<UploadedFile> input;
};
struct ProgramHashSource { // a registered program, named by its hash as the caller wrote it
    std::string programHash;
    std::optional<UploadedFile> input;
};
struct PieSource { // a Cairo PIE, already a trace
    UploadedFile pie;
};
struct ProofSource { // a Stone proof, to be verified
    UploadedFile proof;
};
using QuerySource = std::variant<ProgramFileSource, ProgramHashSource, PieSource, ProofSource>;

// One submission, typed by the HTTP edge (POST /core-query's parts, or a /v1 route's), with the
// spec's defaults applied. The service checks only what needs it: the layout, the Python hints
// setting, the files, the program hash, the bucket.
struct CoreQueryRequest {
    std::string externalId;
    std::optional<std::string> dedupId;
    api::QueryResult result = api::QueryResult::ProofGeneration;
    api::Network network = api::Network::Testnet;
    api::CairoVm cairoVm = api::CairoVm::Rust;
    api::CairoVersion cairoVersion = api::CairoVersion::Cairo0;
    api::JobSize declaredJobSize = api::JobSize::S;
    std::optional<api::GrowerHints> hints;
    bool mockFactHash = false;
    std::string layout = "auto"; // "auto" or a layout's name
    // The proof's profile, "time" or "size" (our extension); the server's default when absent.
    std::optional<std::string> optimize;
    std::optional<api::StoneVersion> stoneVersion;
    std::optional<api::MemoryVerification> memoryVerification;
    std::optional<std::string> bucketId;
    std::optional<int> bucketJobIndex; // only with a bucketId
    QuerySource source;

    // The source's parts, null where the source has none.
    const UploadedFile* programFile() const;
    const std::string* programHash() const;
    const UploadedFile* inputFile() const;
    const UploadedFile* pieFile() const;
    const UploadedFile* proofFile() const;
    bool runsProgram() const { return programFile() || programHash(); }
};

// Who submits: the API key and its project.
struct Caller {
    QString keyId;
    QString keyName;
    QString projectId;
};

// A request's record and the inputs its stages read, after the service's own checks: the first
// step of ProofIntake::submit. Every failure is a 400 with a named code.
struct CheckedRequest {
    // The record's options: externalId, dedupId, result, network, cairoVm, cairoVersion,
    // declaredJobSize, sharpProver, hints.
    api::ProofQuery query;
    // What the stages read: mockFactHash, layout, and stoneVersion and memoryVerification when
    // given.
    QueryInputs inputs;
    std::string layout; // "auto" or a layout's name
};
CheckedRequest checkRequest(const CoreQueryRequest& request, const ProverSettings& provers);

} // namespace proofdesk::proof
