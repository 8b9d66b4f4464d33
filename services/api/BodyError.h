#pragma once

#include <stdexcept>
#include <string>

namespace proofdesk::api {

// A request body the server refuses: its error code (UNKNOWN_FIELD, INVALID_FIELD,
// MISSING_FIELD, INVALID_TYPE) and what is wrong, in what(). The routes answer it with 400.
class BodyError : public std::runtime_error {
public:
    BodyError(std::string code, const std::string& detail)
        : std::runtime_error(detail), m_code(std::move(code)) {}
    const std::string& code() const { return m_code; }

private:
    std::string m_code;
};

} // namespace proofdesk::api
