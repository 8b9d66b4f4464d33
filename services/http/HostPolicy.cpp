#include "HostPolicy.h"

#include <algorithm>
#include <cctype>

namespace proofdesk::http {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// "host", "host:port", "[v6]" or "[v6]:port" -> the host, lower-case, without brackets.
std::string hostOf(const std::string& authority) {
    std::string text = lower(authority);
    if (!text.empty() && text[0] == '[') {
        const std::size_t close = text.find(']');
        return close == std::string::npos ? std::string() : text.substr(1, close - 1);
    }
    if (std::count(text.begin(), text.end(), ':') == 1) {
        text = text.substr(0, text.find(':'));
    }
    if (!text.empty() && text.back() == '.') {
        text.pop_back();
    }
    return text;
}

bool isIpv4Loopback(const std::string& host) {
    int parts = 0;
    int value = -1;
    int first = -1;
    for (char c : host + ".") {
        if (c == '.') {
            if (value < 0 || value > 255) {
                return false;
            }
            if (parts == 0) {
                first = value;
            }
            ++parts;
            value = -1;
        } else if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
            if (value > 255) {
                return false;
            }
        } else {
            return false;
        }
    }
    return parts == 4 && first == 127;
}

// "host:port" of an authority, lower-case, with the scheme's default port made explicit.
std::string withPort(const std::string& authority, const std::string& scheme) {
    std::string text = lower(authority);
    bool hasPort = false;
    if (!text.empty() && text[0] == '[') {
        const std::size_t close = text.find(']');
        hasPort = close != std::string::npos && close + 1 < text.size() && text[close + 1] == ':';
    } else {
        hasPort = std::count(text.begin(), text.end(), ':') == 1;
    }
    if (!hasPort) {
        text += scheme == "https" ? ":443" : ":80";
    }
    return text;
}

bool allowedName(const AccessPolicy& policy, const std::string& host) {
    if (isLoopbackName(host)) {
        return true;
    }
    return std::any_of(policy.allowedHosts.begin(), policy.allowedHosts.end(),
                       [&host](const std::string& allowed) { return lower(allowed) == host; });
}

} // namespace

bool isLoopbackName(const std::string& host) {
    const std::string name = lower(host);
    const std::string suffix = ".localhost";
    return name == "localhost" || name == "::1" || isIpv4Loopback(name) ||
           (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

bool requestAllowed(const AccessPolicy& policy, const std::string& method,
                    const HttpRequest::HeaderMap& headers, std::string* why) {
    const auto hostHeader = headers.find("Host");
    const std::string host =
        hostHeader == headers.end() ? std::string() : hostOf(hostHeader->second);
    if (policy.loopbackOnly && hostHeader != headers.end() && !allowedName(policy, host)) {
        *why = "HOST_NOT_ALLOWED: this server answers requests for localhost only (Host \"" +
               hostHeader->second.substr(0, 100) +
               "\"); start it with --allow-host NAME to accept that name";
        return false;
    }
    if (method == "GET" || method == "HEAD" || method == "OPTIONS") {
        return true;
    }
    const auto origin = headers.find("Origin");
    if (origin == headers.end()) {
        return true; // not a browser: no cross-site request to refuse
    }
    // Only the server's own origin: the scheme's host and port are the request's Host (another
    // port on localhost is another site, such as a page served by some other local program).
    const std::string value = lower(origin->second);
    const std::size_t scheme = value.find("://");
    const std::string originScheme = scheme == std::string::npos ? "" : value.substr(0, scheme);
    const std::string originAuthority =
        scheme == std::string::npos ? std::string() : value.substr(scheme + 3);
    const std::string originHost = hostOf(originAuthority);
    // A loopback listener speaks plain HTTP; https is a name served through a TLS proxy.
    const bool ownScheme =
        originScheme == "http" || (originScheme == "https" && !isLoopbackName(originHost));
    const bool ownOrigin =
        ownScheme && !originHost.empty() && hostHeader != headers.end() &&
        originAuthority.find('/') == std::string::npos &&
        withPort(originAuthority, originScheme) == withPort(hostHeader->second, originScheme) &&
        (!policy.loopbackOnly || allowedName(policy, originHost));
    if (!ownOrigin) {
        *why = "ORIGIN_NOT_ALLOWED: a web page of another site (Origin \"" +
               origin->second.substr(0, 100) + "\") cannot change anything here";
        return false;
    }
    return true;
}

} // namespace proofdesk::http
