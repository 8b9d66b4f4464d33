#pragma once

#include <stdexcept>
#include <string>

namespace proofdesk::api {

// A request body the server refuses: its error code (UNKNOWN_FIELD, INVALID_FIELD,
// MISSING_FIELD, INVALID_TYPE, or the body's own: INVALID_SELECTOR, INVALID_CHAIN_ID, ...), what
// is wrong, in what(), and the status it is answered with: 400 for a body of the wrong shape,
// 422 for values the spec does not allow (where the route's spec tells the two apart).
class BodyError : public std::runtime_error {
public:
    enum class Status { BadRequest = 400, Unprocessable = 422 };

    BodyError(std::string code, const std::string& detail, Status status = Status::BadRequest)
        : std::runtime_error(detail), m_code(std::move(code)), m_status(status) {}
    const std::string& code() const { return m_code; }
    Status status() const { return m_status; }

private:
    std::string m_code;
    Status m_status;
};

} // namespace proofdesk::api
