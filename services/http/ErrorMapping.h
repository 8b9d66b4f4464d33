#pragma once

#include "HttpTypes.h"
#include "core/ServiceError.h"

namespace proofdesk::http {

// How a route spells its error bodies (spec §4 and §7 differ per route).
enum class ErrorBody {
    ErrorField,     // {"error": CODE}
    MessageField,   // {"message": CODE}
    StatusAndError, // {"status": "error", "error": CODE}   (request service submit-request)
};

// The one place that knows HTTP status codes for service errors.
int statusFor(ErrorKind kind);

// Body: the code in the route's field, plus "detail" when the error has one, plus extra fields.
HttpResponse errorResponse(const ServiceError& error, ErrorBody shape);

} // namespace proofdesk::http
