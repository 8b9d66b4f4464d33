#pragma once

#include "Provers.h"
#include "api/ProofWire.h"
#include "sandbox/SandboxRunner.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <cstdint>
#include <optional>
#include <string>

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

// One submission as every submitting route hands it in: POST /core-query's parts, or a /v1
// route's parts mapped onto them. Absent parts are nullopt; the service applies defaults.
struct Submission {
    std::optional<std::string> externalId, dedupId, sharpProver, layout, cairoVm, cairoVersion,
        result, mockFactHash, network, programHash, bucketId, declaredJobSize, bucketJobIndex,
        hints, stoneVersion, memoryVerification;
    std::optional<UploadedFile> programFile, inputFile, pieFile, proofFile;
};

// Who submits: the API key and its project.
struct Caller {
    QString keyId;
    QString keyName;
    QString projectId;
};

// A submission's options and its choice of source, checked before any file is read: the first
// step of ProofIntake::submit. Every failure is a 400 with a named code.
struct CheckedSubmission {
    // The record's options: externalId, dedupId, result, network, cairoVm, cairoVersion,
    // declaredJobSize, sharpProver, hints.
    api::ProofQuery query;
    // What the stages read: mockFactHash, layout, and stoneVersion and memoryVerification when
    // given.
    nlohmann::json inputs;
    std::string layout; // "auto" or a layout's name
    std::optional<int> bucketJobIndex;
    bool hasProgramHash = false; // the source is a registered program's hash
};
CheckedSubmission checkSubmission(const Submission& in, const ProverSettings& provers);

} // namespace proofdesk::proof
