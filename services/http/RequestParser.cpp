#include "RequestParser.h"

#include "HeaderText.h"
#include "crypto/HexDigit.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace proofdesk::http {
namespace {

bool isToken(const std::string& text) {
    static const std::string kSpecials = "!#$%&'*+-.^_`|~";
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               kSpecials.find(c) != std::string::npos;
    });
}

bool parseDecimal(const std::string& text, std::uint64_t* out) {
    if (text.empty() || text.size() > 19 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return false;
    }
    *out = std::stoull(text);
    return true;
}

// A chunk size line: hex digits, then optional chunk extensions after ';' (ignored).
bool parseChunkSize(const std::string& line, std::uint64_t* out) {
    const std::string digits = trimSpaces(line.substr(0, line.find(';')));
    if (digits.empty() || digits.size() > 15 ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; })) {
        return false;
    }
    *out = std::stoull(digits, nullptr, 16);
    return true;
}

} // namespace

bool RequestParser::fail(int status, std::string code, std::string detail) {
    m_state = State::Failed;
    m_errorStatus = status;
    m_errorCode = std::move(code);
    m_errorDetail = std::move(detail);
    return false;
}

void RequestParser::reset() {
    const ParseLimits limits = m_limits;
    *this = RequestParser(limits);
}

// Appends to m_line up to and including the next LF; true when a whole line (without CRLF) is
// in `line`.
bool RequestParser::takeLine(const char* data, std::size_t size, std::size_t* used,
                             std::string* line, std::size_t maxLength) {
    const char* end = static_cast<const char*>(std::memchr(data + *used, '\n', size - *used));
    const std::size_t stop = end ? static_cast<std::size_t>(end - data) + 1 : size;
    m_line.append(data + *used, stop - *used);
    *used = stop;
    if (m_line.size() > maxLength) {
        return false;
    }
    if (!end) {
        return false;
    }
    m_line.pop_back(); // LF
    if (!m_line.empty() && m_line.back() == '\r') {
        m_line.pop_back();
    }
    *line = std::move(m_line);
    m_line.clear();
    return true;
}

std::size_t RequestParser::feed(const char* data, std::size_t size) {
    if (m_state == State::Body) {
        return feedBody(data, size);
    }
    std::size_t used = 0;
    while (m_state == State::Head && used < size) {
        const std::size_t before = used;
        std::string line;
        const std::size_t limit =
            m_requestLineDone ? m_limits.maxHeaderBytes : m_limits.maxRequestLine;
        const bool complete = takeLine(data, size, &used, &line, limit);
        m_headBytes += used - before;
        if (!m_requestLineDone && m_line.size() > m_limits.maxRequestLine) {
            fail(414, "URI_TOO_LONG", "the request line is longer than 8 KiB");
            break;
        }
        if (m_headBytes > m_limits.maxHeaderBytes) {
            fail(431, "HEADERS_TOO_LARGE", "the request's headers are larger than 32 KiB");
            break;
        }
        if (!complete) {
            continue;
        }
        if (!m_requestLineDone && line.empty()) {
            continue; // RFC 9112 §2.2: empty lines before a request line are ignored
        }
        if (!headLine(line)) {
            break;
        }
    }
    return used;
}

bool RequestParser::headLine(const std::string& line) {
    if (!m_requestLineDone) {
        const std::size_t first = line.find(' ');
        const std::size_t second = first == std::string::npos ? first : line.find(' ', first + 1);
        if (second == std::string::npos || line.find(' ', second + 1) != std::string::npos) {
            return fail(400, "BAD_REQUEST", "malformed request line");
        }
        m_method = line.substr(0, first);
        m_target = line.substr(first + 1, second - first - 1);
        const std::string version = line.substr(second + 1);
        if (!isToken(m_method) || m_target.empty() || m_target[0] != '/') {
            return fail(400, "BAD_REQUEST", "malformed request line");
        }
        if (version == "HTTP/1.1") {
            m_http11 = true;
        } else if (version == "HTTP/1.0") {
            m_http11 = false;
            m_keepAlive = false;
        } else {
            return fail(505, "HTTP_VERSION_NOT_SUPPORTED", "only HTTP/1.1 and HTTP/1.0");
        }
        m_requestLineDone = true;
        return true;
    }
    if (line.empty()) {
        return finishHead();
    }
    if (line[0] == ' ' || line[0] == '\t') {
        return fail(400, "BAD_REQUEST", "obsolete header line folding");
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos || !isToken(line.substr(0, colon))) {
        return fail(400, "BAD_REQUEST", "malformed header line");
    }
    if (m_headers.size() >= m_limits.maxHeaders) {
        return fail(431, "HEADERS_TOO_LARGE", "more than 100 headers");
    }
    m_headers.emplace(line.substr(0, colon), trimSpaces(line.substr(colon + 1)));
    return true;
}

bool RequestParser::finishHead() {
    const auto lengths = m_headers.count("Content-Length");
    const auto encodings = m_headers.count("Transfer-Encoding");
    if (lengths > 1) {
        return fail(400, "BAD_REQUEST", "more than one Content-Length");
    }
    if (encodings > 0 && lengths > 0) {
        return fail(400, "BAD_REQUEST", "both Content-Length and Transfer-Encoding");
    }
    if (encodings > 1) {
        return fail(400, "BAD_REQUEST", "more than one Transfer-Encoding");
    }
    if (encodings == 1) {
        if (lowerAscii(m_headers.find("Transfer-Encoding")->second) != "chunked" || !m_http11) {
            return fail(501, "NOT_IMPLEMENTED", "Transfer-Encoding other than chunked");
        }
        m_chunked = true;
    }
    if (lengths == 1 && !parseDecimal(m_headers.find("Content-Length")->second, &m_contentLength)) {
        return fail(400, "BAD_REQUEST", "Content-Length is not a number");
    }
    if (m_http11 && m_headers.count("Host") != 1) {
        return fail(400, "BAD_REQUEST", "an HTTP/1.1 request has exactly one Host");
    }
    if (auto it = m_headers.find("Connection"); it != m_headers.end()) {
        const std::string value = lowerAscii(it->second);
        if (value.find("close") != std::string::npos) {
            m_keepAlive = false;
        } else if (value.find("keep-alive") != std::string::npos) {
            m_keepAlive = true;
        }
    }
    if (auto it = m_headers.find("Expect"); it != m_headers.end()) {
        if (lowerAscii(it->second) != "100-continue") {
            return fail(417, "EXPECTATION_FAILED", "only Expect: 100-continue");
        }
        m_expectContinue = m_http11;
    }
    m_state = State::HeadDone;
    return true;
}

void RequestParser::beginBody(std::uint64_t maxBodyBytes, BodySink* sink) {
    m_sink = sink;
    m_maxBody = maxBodyBytes;
    if (!m_chunked && m_contentLength > maxBodyBytes) {
        fail(413, "PAYLOAD_TOO_LARGE");
        return;
    }
    m_bodyState = m_chunked ? BodyState::ChunkSize : BodyState::Length;
    m_state = State::Body;
    if (!m_chunked && m_contentLength == 0) {
        if (m_sink->finish()) {
            m_state = State::Complete;
        } else {
            fail(m_sink->errorStatus(), m_sink->errorCode(), m_sink->errorDetail());
        }
    }
}

bool RequestParser::deliver(const char* data, std::size_t size) {
    m_bodyBytes += size;
    if (m_bodyBytes > m_maxBody) {
        return fail(413, "PAYLOAD_TOO_LARGE");
    }
    if (size > 0 && !m_sink->write(data, size)) {
        return fail(m_sink->errorStatus(), m_sink->errorCode(), m_sink->errorDetail());
    }
    return true;
}

std::size_t RequestParser::feedBody(const char* data, std::size_t size) {
    std::size_t used = 0;
    while (m_state == State::Body && (used < size || m_bodyState == BodyState::Length)) {
        switch (m_bodyState) {
        case BodyState::Length: {
            const std::uint64_t left = m_contentLength - m_bodyBytes;
            const std::size_t take = static_cast<std::size_t>(
                std::min<std::uint64_t>(left, static_cast<std::uint64_t>(size - used)));
            if (!deliver(data + used, take)) {
                return used;
            }
            used += take;
            if (m_bodyBytes == m_contentLength) {
                if (!m_sink->finish()) {
                    fail(m_sink->errorStatus(), m_sink->errorCode(), m_sink->errorDetail());
                    return used;
                }
                m_state = State::Complete;
            }
            if (used == size) {
                return used;
            }
            break;
        }
        case BodyState::ChunkSize:
        case BodyState::ChunkDataEnd:
        case BodyState::Trailers: {
            std::string line;
            const std::size_t before = used;
            const bool complete = takeLine(data, size, &used, &line, 1024);
            if (m_bodyState == BodyState::Trailers) {
                m_trailerBytes += used - before;
                if (m_trailerBytes > m_limits.maxHeaderBytes) {
                    fail(431, "HEADERS_TOO_LARGE", "chunked trailers larger than 32 KiB");
                    return used;
                }
            }
            if (!complete) {
                if (m_line.size() > 1024 && m_bodyState != BodyState::Trailers) {
                    fail(400, "BAD_REQUEST", "malformed chunked body");
                }
                break;
            }
            if (m_bodyState == BodyState::ChunkDataEnd) {
                if (!line.empty()) {
                    fail(400, "BAD_REQUEST", "malformed chunked body");
                    return used;
                }
                m_bodyState = BodyState::ChunkSize;
            } else if (m_bodyState == BodyState::ChunkSize) {
                if (!parseChunkSize(line, &m_chunkLeft)) {
                    fail(400, "BAD_REQUEST", "malformed chunk size");
                    return used;
                }
                if (m_chunkLeft > m_maxBody - std::min(m_maxBody, m_bodyBytes)) {
                    fail(413, "PAYLOAD_TOO_LARGE");
                    return used;
                }
                m_bodyState = m_chunkLeft == 0 ? BodyState::Trailers : BodyState::ChunkData;
            } else if (line.empty()) { // the end of the trailers, and of the request
                if (!m_sink->finish()) {
                    fail(m_sink->errorStatus(), m_sink->errorCode(), m_sink->errorDetail());
                    return used;
                }
                m_state = State::Complete;
            }
            break;
        }
        case BodyState::ChunkData: {
            const std::size_t take = static_cast<std::size_t>(
                std::min<std::uint64_t>(m_chunkLeft, static_cast<std::uint64_t>(size - used)));
            if (!deliver(data + used, take)) {
                return used;
            }
            used += take;
            m_chunkLeft -= take;
            if (m_chunkLeft == 0) {
                m_bodyState = BodyState::ChunkDataEnd;
            }
            break;
        }
        }
    }
    return used;
}

} // namespace proofdesk::http

namespace proofdesk::http {
namespace {

std::string percentDecode(const std::string& text, bool plusIsSpace) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto digit = [&text](std::size_t at) {
            return crypto::hexDigitValue(static_cast<unsigned char>(text[at]));
        };
        if (c == '%' && i + 2 < text.size() && digit(i + 1) >= 0 && digit(i + 2) >= 0) {
            out += static_cast<char>(digit(i + 1) * 16 + digit(i + 2));
            i += 2;
        } else if (c == '+' && plusIsSpace) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

void splitTarget(const std::string& target, std::string* path,
                 std::multimap<std::string, std::string>* query) {
    const std::size_t mark = target.find('?');
    *path = percentDecode(target.substr(0, mark), false);
    if (mark == std::string::npos) {
        return;
    }
    const std::string text = target.substr(mark + 1);
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t end = text.find('&', at);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string pair = text.substr(at, end - at);
        if (!pair.empty()) {
            const std::size_t equals = pair.find('=');
            query->emplace(percentDecode(pair.substr(0, equals), true),
                           equals == std::string::npos
                               ? std::string()
                               : percentDecode(pair.substr(equals + 1), true));
        }
        at = end + 1;
    }
}

} // namespace proofdesk::http
