#include "MultipartReader.h"

#include "HeaderText.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

namespace proofdesk::http {
namespace {

// `key=value; key="quoted \" value"` parameters after the first `;` of a header value.
std::vector<std::pair<std::string, std::string>> parameters(const std::string& value) {
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t at = value.find(';');
    while (at != std::string::npos && at < value.size()) {
        ++at;
        const std::size_t equals = value.find('=', at);
        if (equals == std::string::npos) {
            break;
        }
        const std::string key = lowerAscii(trimSpaces(value.substr(at, equals - at)));
        std::size_t pos = equals + 1;
        while (pos < value.size() && (value[pos] == ' ' || value[pos] == '\t')) {
            ++pos;
        }
        std::string parsed;
        if (pos < value.size() && value[pos] == '"') {
            ++pos;
            while (pos < value.size() && value[pos] != '"') {
                if (value[pos] == '\\' && pos + 1 < value.size()) {
                    ++pos;
                }
                parsed += value[pos++];
            }
            at = value.find(';', pos);
        } else {
            const std::size_t end = value.find(';', pos);
            parsed = trimSpaces(
                value.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
            at = end;
        }
        out.emplace_back(key, parsed);
    }
    return out;
}

} // namespace

std::optional<std::string> multipartBoundary(const std::string& contentType) {
    const std::string type = lowerAscii(trimSpaces(contentType.substr(0, contentType.find(';'))));
    if (type != "multipart/form-data") {
        return std::nullopt;
    }
    for (const auto& [key, value] : parameters(contentType)) {
        if (key == "boundary" && !value.empty() && value.size() <= 70) {
            return value;
        }
    }
    return std::nullopt;
}

MultipartReader::MultipartReader(std::string boundary, std::string spillDir, Limits limits,
                                 BodyMemoryLease* lease)
    : m_delimiter("\r\n--" + boundary), m_spillDir(std::move(spillDir)), m_limits(limits),
      m_lease(lease), m_buffer("\r\n") {
} // so that a boundary on the very first line is found like the others

MultipartReader::~MultipartReader() {
    if (m_file) {
        std::fclose(m_file);
    }
}

bool MultipartReader::fail(std::string detail, int status, std::string code) {
    m_state = State::Failed;
    m_errorStatus = status;
    m_errorCode = std::move(code);
    m_errorDetail = std::move(detail);
    return false;
}

bool MultipartReader::write(const char* data, std::size_t size) {
    if (m_state == State::Failed) {
        return false;
    }
    if (m_state == State::Done) {
        return true; // the epilogue is ignored
    }
    m_buffer.append(data, size);
    return process();
}

bool MultipartReader::finish() {
    if (m_state == State::Failed) {
        return false;
    }
    if (m_state != State::Done) {
        return fail("the body ends before the closing boundary");
    }
    return true;
}

bool MultipartReader::process() {
    const std::size_t keep = m_delimiter.size() - 1; // a delimiter may straddle two writes
    for (;;) {
        switch (m_state) {
        case State::Preamble: {
            const std::size_t at = m_buffer.find(m_delimiter);
            if (at == std::string::npos) {
                if (m_buffer.size() > keep) {
                    m_buffer.erase(0, m_buffer.size() - keep);
                }
                return true;
            }
            m_buffer.erase(0, at + m_delimiter.size());
            m_state = State::AfterBoundary;
            break;
        }
        case State::AfterBoundary:
            if (m_buffer.size() < 2) {
                return true;
            }
            if (m_buffer.compare(0, 2, "--") == 0) {
                m_state = State::Done;
                m_buffer.clear();
                return true;
            }
            if (m_buffer.compare(0, 2, "\r\n") != 0) {
                return fail("a boundary is not followed by a line end");
            }
            m_buffer.erase(0, 2);
            m_state = State::PartHeaders;
            break;
        case State::PartHeaders: {
            std::size_t end = 0;
            std::size_t skip = 0;
            if (m_buffer.compare(0, 2, "\r\n") == 0) {
                skip = 2; // no headers at all
            } else if ((end = m_buffer.find("\r\n\r\n")) != std::string::npos) {
                skip = end + 4;
            } else {
                if (m_buffer.size() > m_limits.maxPartHeaderBytes) {
                    return fail("a part's headers are larger than 8 KiB");
                }
                return true;
            }
            if (skip > m_limits.maxPartHeaderBytes) {
                return fail("a part's headers are larger than 8 KiB");
            }
            const std::string block = skip == 2 ? std::string() : m_buffer.substr(0, end + 2);
            m_buffer.erase(0, skip);
            if (!startPart(block)) {
                return false;
            }
            m_state = State::PartBody;
            break;
        }
        case State::PartBody: {
            const std::size_t at = m_buffer.find(m_delimiter);
            if (at == std::string::npos) {
                if (m_buffer.size() > keep) {
                    const std::size_t take = m_buffer.size() - keep;
                    if (!appendToPart(m_buffer.data(), take)) {
                        return false;
                    }
                    m_buffer.erase(0, take);
                }
                return true;
            }
            if (!appendToPart(m_buffer.data(), at) || !endPart()) {
                return false;
            }
            m_buffer.erase(0, at + m_delimiter.size());
            m_state = State::AfterBoundary;
            break;
        }
        case State::Done:
        case State::Failed:
            return m_state == State::Done;
        }
    }
}

bool MultipartReader::startPart(const std::string& headerBlock) {
    if (m_parts.size() >= m_limits.maxParts) {
        return fail("more than " + std::to_string(m_limits.maxParts) + " parts");
    }
    m_part = UploadedPart{};
    bool named = false;
    std::size_t at = 0;
    while (at < headerBlock.size()) {
        const std::size_t end = headerBlock.find("\r\n", at);
        const std::string line = headerBlock.substr(at, end - at);
        at = end == std::string::npos ? headerBlock.size() : end + 2;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) {
            return fail("a part header has no ':'");
        }
        const std::string name = lowerAscii(trimSpaces(line.substr(0, colon)));
        const std::string value = trimSpaces(line.substr(colon + 1));
        if (name == "content-disposition") {
            if (lowerAscii(trimSpaces(value.substr(0, value.find(';')))) != "form-data") {
                return fail("a part is not form-data");
            }
            for (const auto& [key, parameter] : parameters(value)) {
                if (key == "name") {
                    m_part.name = parameter;
                    named = true;
                } else if (key == "filename") {
                    m_part.filename = parameter;
                }
            }
        } else if (name == "content-type") {
            m_part.contentType = value;
        }
    }
    if (!named) {
        return fail("a part has no Content-Disposition name");
    }
    return true;
}

bool MultipartReader::appendToPart(const char* data, std::size_t size) {
    if (size == 0) {
        return true;
    }
    m_part.size += size;
    if (!m_file && (m_part.content.size() + size > m_limits.memoryLimit ||
                    (m_lease && !m_lease->take(size)))) {
        std::string path = m_spillDir + "/upload-XXXXXX";
        const int fd = ::mkstemp(path.data());
        if (fd < 0 || !(m_file = ::fdopen(fd, "wb"))) {
            if (fd >= 0) {
                ::close(fd);
                ::unlink(path.c_str());
            }
            return fail("cannot store the upload on disk", 500, "INTERNAL_SERVER_ERROR");
        }
        m_part.spilled = std::make_shared<SpilledFile>(path);
        if (std::fwrite(m_part.content.data(), 1, m_part.content.size(), m_file) !=
            m_part.content.size()) {
            return fail("cannot store the upload on disk", 500, "INTERNAL_SERVER_ERROR");
        }
        if (m_lease) {
            m_lease->giveBack(m_part.content.size());
        }
        m_part.content.clear();
        m_part.content.shrink_to_fit();
    }
    if (m_file) {
        if (std::fwrite(data, 1, size, m_file) != size) {
            return fail("cannot store the upload on disk", 500, "INTERNAL_SERVER_ERROR");
        }
        return true;
    }
    m_part.content.append(data, size);
    return true;
}

bool MultipartReader::endPart() {
    if (m_file) {
        const bool ok = std::fclose(m_file) == 0;
        m_file = nullptr;
        if (!ok) {
            return fail("cannot store the upload on disk", 500, "INTERNAL_SERVER_ERROR");
        }
    }
    m_parts.push_back(std::move(m_part));
    m_part = UploadedPart{};
    return true;
}

} // namespace proofdesk::http
