#include "EdgeResponse.h"

#include "ErrorMapping.h"

namespace proofdesk::http {

const char* reasonPhrase(int status) {
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 417:
        return "Expectation Failed";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

HttpResponse edgeError(int status, const std::string& code, const std::string& detail,
                       const Route* route) {
    core::ErrorKind kind = core::ErrorKind::BadRequest;
    switch (status) {
    case 403:
        kind = core::ErrorKind::Forbidden;
        break;
    case 408:
        kind = core::ErrorKind::RequestTimeout;
        break;
    case 413:
        kind = core::ErrorKind::PayloadTooLarge;
        break;
    case 500:
        kind = core::ErrorKind::Internal;
        break;
    default:
        break;
    }
    // The request service's routes answer in their own shape; every other edge error is
    // {"message": CODE, "detail": ...}.
    const ErrorBody shape = route && route->errorBody == ErrorBody::StatusAndError
                                ? ErrorBody::StatusAndError
                                : ErrorBody::MessageField;
    HttpResponse response = errorResponse(core::ServiceError(kind, code, detail), shape);
    if (shape == ErrorBody::StatusAndError && detail.empty()) {
        response.body = R"({"status":"error","error":")" + code + "\"}"; // the spec's order
    }
    response.status = status; // 414, 431, 501, 505 keep their own status
    return response;
}

void appendResponseHead(std::string& out, const HttpResponse& response, std::uint64_t length,
                        bool keepAlive, bool http11) {
    out += "HTTP/1.1 " + std::to_string(response.status) + " " + reasonPhrase(response.status) +
           "\r\n";
    out += "Content-Type: " + response.contentType + "\r\n";
    out += "Content-Length: " + std::to_string(length) + "\r\n";
    if (!keepAlive) {
        out += "Connection: close\r\n";
    } else if (!http11) {
        out += "Connection: keep-alive\r\n";
    }
    for (const auto& [name, value] : response.headers) {
        out += name + ": " + value + "\r\n";
    }
    out += "\r\n";
}

} // namespace proofdesk::http
