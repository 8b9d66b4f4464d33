// libFuzzer target: the HTTP edge's request reader and multipart reader, fed the input in pieces
// of a size the first byte chooses (as a socket delivers them). Every input ends in a complete
// request, a refusal with a 4xx/5xx status, or a need for more bytes; the multipart reader never
// keeps more than its memory limit of a part in memory.

#include "http/MultipartReader.h"
#include "http/RequestParser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>

using namespace proofdesk::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const std::size_t piece = 1 + data[0] % 64;
    const char* bytes = reinterpret_cast<const char*>(data + 1);
    const std::size_t length = size - 1;
    static const std::string spill = std::filesystem::temp_directory_path().string();

    RequestParser parser;
    std::unique_ptr<MultipartReader> multipart;
    struct Sink : BodySink {
        bool write(const char*, std::size_t) override { return true; }
        bool finish() override { return true; }
    } plain;
    std::size_t at = 0;
    while (at < length && parser.state() != RequestParser::State::Failed &&
           parser.state() != RequestParser::State::Complete) {
        const std::size_t take = std::min(piece, length - at);
        std::size_t used = 0;
        while (used < take && parser.state() != RequestParser::State::Failed &&
               parser.state() != RequestParser::State::Complete) {
            used += parser.feed(bytes + at + used, take - used);
            if (parser.state() == RequestParser::State::HeadDone) {
                auto type = parser.headers().find("Content-Type");
                const auto boundary =
                    type == parser.headers().end() ? std::nullopt : multipartBoundary(type->second);
                MultipartReader::Limits limits;
                limits.memoryLimit = 64; // spill early, so the file path is fuzzed too
                if (boundary) {
                    multipart = std::make_unique<MultipartReader>(*boundary, spill, limits);
                }
                parser.beginBody(4096,
                                 multipart ? static_cast<BodySink*>(multipart.get()) : &plain);
            }
        }
        at += take;
    }
    if (parser.state() == RequestParser::State::Failed &&
        (parser.errorStatus() < 400 || parser.errorStatus() > 599 || parser.errorCode().empty())) {
        std::abort();
    }
    if (parser.state() == RequestParser::State::Complete && multipart) {
        for (const UploadedPart& part : multipart->takeParts()) {
            if (part.content.size() > 64 || (part.spilled && part.bytes().size() != part.size)) {
                std::abort();
            }
        }
    }
    return 0;
}
