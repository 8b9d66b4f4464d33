#include "ErrorMapping.h"

namespace proofdesk::http {

int statusFor(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::BadRequest:
        return 400;
    case ErrorKind::Unauthenticated:
        return 401;
    case ErrorKind::PaymentRequired:
        return 402;
    case ErrorKind::Forbidden:
        return 403;
    case ErrorKind::NotFound:
        return 404;
    case ErrorKind::RequestTimeout:
        return 408;
    case ErrorKind::Conflict:
        return 409;
    case ErrorKind::PayloadTooLarge:
        return 413;
    case ErrorKind::Unprocessable:
        return 422;
    case ErrorKind::TooManyRequests:
        return 429;
    case ErrorKind::Internal:
        return 500;
    case ErrorKind::Unavailable:
        return 503;
    }
    return 500;
}

HttpResponse errorResponse(const ServiceError& error, ErrorBody shape) {
    const nlohmann::json& extra = error.extra();
    if (error.kind() == ErrorKind::PaymentRequired && extra.contains("paymentRequired") &&
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
        body[error.kind() == ErrorKind::Internal ? "error" : "message"] = error.code();
        break;
    }
    // Internal errors keep their details in the server log, not in the response.
    if (!error.detail().empty() && error.kind() != ErrorKind::Internal) {
        body["detail"] = error.detail();
    }
    for (const auto& [key, value] : extra.items()) {
        body[key] = value;
    }
    return HttpResponse::json(statusFor(error.kind()), body);
}

} // namespace proofdesk::http
