#pragma once

#include "HttpListener.h"
#include "HttpTypes.h"

#include <string>

namespace proofdesk::http {

// Whether a host name (a Host header's or an Origin's, port removed) names this machine's
// loopback: localhost, *.localhost, 127.0.0.0/8 or ::1.
bool isLoopbackName(const std::string& host);

// DNS rebinding and cross-site requests (docs/security.md): a loopback listener answers only a
// Host naming loopback or an allowed host; a request that may change state (not GET, HEAD or
// OPTIONS) is refused when it carries an Origin naming any other site. On refusal `why` is
// "CODE: sentence".
bool requestAllowed(const AccessPolicy& policy, const std::string& method,
                    const HttpRequest::HeaderMap& headers, std::string* why);

} // namespace proofdesk::http
