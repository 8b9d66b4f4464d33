#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace proofdesk::core {

// What went wrong, in domain terms. Only services/http knows which HTTP status each kind maps to.
enum class ErrorKind {
    BadRequest,
    Unauthenticated,
    Forbidden,
    NotFound,
    Conflict,
    PaymentRequired,
    PayloadTooLarge,
    Unprocessable,
    RequestTimeout,
    TooManyRequests,
    Internal,
    Unavailable, // a part of the server this request needs cannot run (503)
};

// A typed service error: a kind, a stable code string (the body value clients match on), an
// optional human-readable detail and optional extra fields that some routes add to the body.
class ServiceError : public std::runtime_error {
public:
    ServiceError(ErrorKind kind, std::string code, std::string detail = {},
                 nlohmann::json extra = nlohmann::json::object())
        : std::runtime_error(detail.empty() ? code : code + ": " + detail), m_kind(kind),
          m_code(std::move(code)), m_detail(std::move(detail)), m_extra(std::move(extra)) {}

    ErrorKind kind() const { return m_kind; }
    const std::string& code() const { return m_code; }
    const std::string& detail() const { return m_detail; }
    const nlohmann::json& extra() const { return m_extra; }

private:
    ErrorKind m_kind;
    std::string m_code;
    std::string m_detail;
    nlohmann::json m_extra;
};

// The store could not take a write now (Store's 503 STORE_BUSY: another writer changed the same
// records, or the connection went, a restart among others): nothing of it was kept, and the same
// work may simply run again.
inline bool isStoreBusy(const ServiceError& error) {
    return error.kind() == ErrorKind::Unavailable && error.code() == "STORE_BUSY";
}

} // namespace proofdesk::core
