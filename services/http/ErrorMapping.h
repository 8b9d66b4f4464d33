#pragma once

#include "HttpTypes.h"
#include "core/ServiceError.h"

namespace proofdesk::http {

// How a route spells its error bodies (the three APIs differ, route by route; docs/api.md).
enum class ErrorBody {
    ErrorField,            // {"error": CODE}
    MessageField,          // {"message": CODE}
    StatusAndError,        // {"status": "error", "error": CODE}   (request service submit-request)
    MessageExceptInternal, // {"message": CODE}, but {"error": "INTERNAL_SERVER_ERROR"} (docs/api.md
                           // item 8: GET /core-query/{id})
};

// The one place that knows HTTP status codes for service errors.
int statusFor(core::ErrorKind kind);

// Body: the code in the route's field, plus "detail" when the error has one, plus extra fields.
// A payment-required error that carries `paymentRequired` and `paymentRequiredHeader` (x402) is
// answered with exactly those two fields and the header PAYMENT-REQUIRED.
HttpResponse errorResponse(const core::ServiceError& error, ErrorBody shape);

} // namespace proofdesk::http
