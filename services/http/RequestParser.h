#pragma once

#include "HttpTypes.h"

#include <cstdint>
#include <string>

namespace proofdesk::http {

// Where a request's body goes as it arrives (a string, or the streaming multipart reader).
class BodySink {
public:
    virtual ~BodySink() = default;
    // False refuses the body: the parser stops with the sink's status and code.
    virtual bool write(const char* data, std::size_t size) = 0;
    // The whole body has arrived.
    virtual bool finish() = 0;
    virtual int errorStatus() const { return 400; }
    virtual std::string errorCode() const { return "BAD_REQUEST"; }
    virtual std::string errorDetail() const { return {}; }
};

struct ParseLimits {
    std::size_t maxRequestLine = 8 * 1024;
    std::size_t maxHeaderBytes = 32 * 1024; // the whole header block
    std::size_t maxHeaders = 100;
};

// An incremental HTTP/1.1 request reader, fed bytes as they arrive. It stops after the headers
// (so the caller can choose the body's limit and sink from the route) and after the body. The
// framing rules of RFC 9112 are enforced: Transfer-Encoding only as "chunked" and never with a
// Content-Length, one Content-Length of digits only, a Host on HTTP/1.1, and bodies counted against
// the limit whichever way they are framed.
class RequestParser {
public:
    enum class State { Head, HeadDone, Body, Complete, Failed };

    explicit RequestParser(ParseLimits limits = {}) : m_limits(limits) {}

    // Consumes bytes until the head is done, the request is complete or an error; returns how
    // many it used. Call again with the rest after beginBody().
    std::size_t feed(const char* data, std::size_t size);
    // After HeadDone: read a body of at most `maxBodyBytes` into `sink` (not owned). A larger
    // Content-Length fails at once with 413; a chunked body as soon as it passes the limit.
    void beginBody(std::uint64_t maxBodyBytes, BodySink* sink);
    // Starts over for the next request of a keep-alive connection.
    void reset();

    State state() const { return m_state; }
    bool headStarted() const { return m_headBytes > 0; }
    int errorStatus() const { return m_errorStatus; }
    const std::string& errorCode() const { return m_errorCode; }
    const std::string& errorDetail() const { return m_errorDetail; }

    // The head, valid from HeadDone on.
    const std::string& method() const { return m_method; }
    const std::string& target() const { return m_target; }
    const HttpRequest::HeaderMap& headers() const { return m_headers; }
    bool http11() const { return m_http11; }
    bool keepAlive() const { return m_keepAlive; }
    bool expectsContinue() const { return m_expectContinue; }
    bool hasBody() const { return m_chunked || m_contentLength > 0; }
    std::uint64_t bodyBytes() const { return m_bodyBytes; }

private:
    enum class BodyState { Length, ChunkSize, ChunkData, ChunkDataEnd, Trailers };

    bool fail(int status, std::string code, std::string detail = {});
    bool headLine(const std::string& line);
    bool finishHead();
    std::size_t feedBody(const char* data, std::size_t size);
    bool takeLine(const char* data, std::size_t size, std::size_t* used, std::string* line,
                  std::size_t maxLength);
    bool deliver(const char* data, std::size_t size);

    ParseLimits m_limits;
    State m_state = State::Head;
    std::string m_line; // a line not yet complete
    std::size_t m_headBytes = 0;
    bool m_requestLineDone = false;
    int m_errorStatus = 0;
    std::string m_errorCode;
    std::string m_errorDetail;

    std::string m_method;
    std::string m_target;
    HttpRequest::HeaderMap m_headers;
    bool m_http11 = true;
    bool m_keepAlive = true;
    bool m_expectContinue = false;
    bool m_chunked = false;
    std::uint64_t m_contentLength = 0;

    BodyState m_bodyState = BodyState::Length;
    BodySink* m_sink = nullptr;
    std::uint64_t m_maxBody = 0;
    std::uint64_t m_bodyBytes = 0;
    std::uint64_t m_chunkLeft = 0;
    std::size_t m_trailerBytes = 0;
};

} // namespace proofdesk::http

namespace proofdesk::http {

// A request target's path (percent-decoded) and query parameters (percent-decoded, '+' as a
// space), as the routes see them.
void splitTarget(const std::string& target, std::string* path,
                 std::multimap<std::string, std::string>* query);

} // namespace proofdesk::http
