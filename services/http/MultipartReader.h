#pragma once

#include "BodyMemory.h"
#include "HttpTypes.h"
#include "RequestParser.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::http {

// The boundary of a multipart/form-data Content-Type, if it is one.
std::optional<std::string> multipartBoundary(const std::string& contentType);

// Reads a multipart/form-data body as it arrives: each part's content stays in memory while it is
// small and moves to a file in `spillDir` once it passes `memoryLimit` or the request's share of
// body memory (`lease`) runs out, so an upload never costs its size in memory. Anything malformed
// is refused with 400 MALFORMED_MULTIPART.
class MultipartReader : public BodySink {
public:
    struct Limits {
        std::size_t memoryLimit = 256 * 1024; // per part, before it is written to a file
        std::size_t maxParts = 64;
        std::size_t maxPartHeaderBytes = 8 * 1024;
    };

    MultipartReader(std::string boundary, std::string spillDir, Limits limits,
                    BodyMemoryLease* lease = nullptr);
    MultipartReader(std::string boundary, std::string spillDir)
        : MultipartReader(std::move(boundary), std::move(spillDir), Limits{}) {}
    ~MultipartReader() override;

    bool write(const char* data, std::size_t size) override;
    bool finish() override;
    int errorStatus() const override { return m_errorStatus; }
    std::string errorCode() const override { return m_errorCode; }
    std::string errorDetail() const override { return m_errorDetail; }

    std::vector<UploadedPart> takeParts() { return std::move(m_parts); }

private:
    enum class State { Preamble, AfterBoundary, PartHeaders, PartBody, Done, Failed };

    bool fail(std::string detail, int status = 400, std::string code = "MALFORMED_MULTIPART");
    bool process();
    bool startPart(const std::string& headerBlock);
    bool appendToPart(const char* data, std::size_t size);
    bool endPart();

    std::string m_delimiter; // CRLF "--" boundary
    std::string m_spillDir;
    Limits m_limits;
    BodyMemoryLease* m_lease;
    State m_state = State::Preamble;
    std::string m_buffer; // bytes not yet placed (a possible delimiter prefix, headers)
    std::vector<UploadedPart> m_parts;
    UploadedPart m_part;
    std::FILE* m_file = nullptr;
    int m_errorStatus = 400;
    std::string m_errorCode;
    std::string m_errorDetail;
};

} // namespace proofdesk::http
