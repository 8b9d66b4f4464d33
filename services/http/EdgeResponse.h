#pragma once

#include "HttpTypes.h"
#include "Router.h"

#include <cstdint>
#include <string>

namespace proofdesk::http {

// The reason phrase of a status line ("Not Found"); "Status" for one we do not name.
const char* reasonPhrase(int status);

// An error the edge answers itself (framing, limits, Host, time-outs), in the body shape of the
// route it was meant for (`route` may be null: the default shape).
HttpResponse edgeError(int status, const std::string& code, const std::string& detail,
                       const Route* route);

// Appends to `out` the status line and headers of an answer whose body has `length` bytes, with
// the Connection header the keep-alive decision needs, ending with the blank line.
void appendResponseHead(std::string& out, const HttpResponse& response, std::uint64_t length,
                        bool keepAlive, bool http11);

} // namespace proofdesk::http
