#include "ErrorMapping.h"

namespace proofdesk::http {

int statusFor(core::ErrorKind kind) {
    switch (kind) {
    case core::ErrorKind::BadRequest:
        return 400;
    case core::ErrorKind::Unauthenticated:
        return 401;
    case core::ErrorKind::PaymentRequired:
        return 402;
    case core::ErrorKind::Forbidden:
        return 403;
    case core::ErrorKind::NotFound:
        return 404;
    case core::ErrorKind::RequestTimeout:
        return 408;
    case core::ErrorKind::Conflict:
        return 409;
    case core::ErrorKind::PayloadTooLarge:
        return 413;
    case core::ErrorKind::Unprocessable:
        return 422;
    case core::ErrorKind::TooManyRequests:
        return 429;
    case core::ErrorKind::Internal:
        return 500;
    case core::ErrorKind::Unavailable:
        return 503;
    }
    return 500;
}

HttpResponse errorResponse(const core::ServiceError& error, ErrorBody shape) {
    const nlohmann::json& extra = error.extra();
    if (error.kind() == core::ErrorKind::PaymentRequired && extra.contains("paymentRequired") &&
        extra.contains("paymentRequiredHeader")) {
        HttpResponse response =
            HttpResponse::json(402, {{"paymentRequired", extra["paymentRequired"]},
                                     {"paymentRequiredHeader", extra["paymentRequiredHeader"]}});
        response.headers.emplace("PAYMENT-REQUIRED",
                                 extra["paymentRequiredHeader"].get<std::string>());
        return response;
    }
    nlohmann::json body = nlohmann::json::object();
    switch (shape) {
    case ErrorBody::ErrorField:
        body["error"] = error.code();
        break;
    case ErrorBody::MessageField:
        body["message"] = error.code();
        break;
    case ErrorBody::StatusAndError:
        body["status"] = "error";
        body["error"] = error.code();
        break;
    case ErrorBody::MessageExceptInternal:
        body[error.kind() == core::ErrorKind::Internal ? "error" : "message"] = error.code();
        break;
    }
    // Internal errors keep their details in the server log, not in the response.
    if (!error.detail().empty() && error.kind() != core::ErrorKind::Internal) {
        body["detail"] = error.detail();
    }
    for (const auto& [key, value] : extra.items()) {
        body[key] = value;
    }
    return HttpResponse::json(statusFor(error.kind()), body);
}

} // namespace proofdesk::http
