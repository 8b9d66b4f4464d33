#include "Router.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace proofdesk::http {

namespace {

constexpr std::size_t kMaxPathParam = 256;

// Whether `path` is the segments' path: literal segments equal, captures non-empty.
bool matches(const std::vector<std::string>& segments, const std::string& path,
             std::vector<std::string>* captures) {
    if (path.empty() || path[0] != '/') {
        return false;
    }
    std::size_t at = 1;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (at > path.size()) {
            return false;
        }
        const std::size_t end = std::min(path.find('/', at), path.size());
        const std::string_view segment(path.data() + at, end - at);
        if (segments[i].empty()) {
            if (segment.empty() || segment.size() > kMaxPathParam) {
                return false; // no id of ours is that long: 404
            }
            captures->emplace_back(segment);
        } else if (segment != segments[i]) {
            return false;
        }
        at = end + 1;
    }
    return at == path.size() + 1;
}

} // namespace

void Router::add(Route route) {
    if (route.execution == Execution::ByKind) {
        route.execution = route.maxBodyBytes > kJsonBodyLimit ? Execution::Upload
                          : route.method == "GET"             ? Execution::Inline
                                                              : Execution::Worker;
    }
    std::vector<std::string> segments;
    // The pattern with each capture as one '*' (a capture holds a '/' itself).
    static const std::string kCapture = "([^/]+)";
    std::string pattern;
    for (std::size_t at = 0; at < route.pattern.size();) {
        if (route.pattern.compare(at, kCapture.size(), kCapture) == 0) {
            pattern.push_back('*');
            at += kCapture.size();
        } else {
            pattern.push_back(route.pattern[at++]);
        }
    }
    if (pattern.empty() || pattern[0] != '/') {
        throw std::logic_error("a route pattern starts with '/': " + pattern);
    }
    std::size_t at = 1;
    while (at <= pattern.size()) {
        const std::size_t end = std::min(pattern.find('/', at), pattern.size());
        const std::string segment = pattern.substr(at, end - at);
        if (segment == "*") {
            segments.emplace_back();
        } else if (segment.find_first_of("()[]^$*+?.|\\{}") == std::string::npos) {
            segments.push_back(segment);
        } else {
            throw std::logic_error("unsupported route pattern " + pattern);
        }
        at = end + 1;
    }
    m_routes.push_back({std::move(route), std::move(segments)});
}

RouteMatch Router::match(const std::string& method, const std::string& path,
                         const std::vector<RouteGroup>& groups) const {
    RouteMatch found;
    std::vector<std::string> allowed;
    for (const CompiledRoute& compiled : m_routes) {
        const Route& route = compiled.route;
        if (std::find(groups.begin(), groups.end(), route.group) == groups.end()) {
            continue;
        }
        std::vector<std::string> captures;
        if (!matches(compiled.segments, path, &captures)) {
            continue;
        }
        if (route.method != method) {
            allowed.push_back(route.method);
            continue;
        }
        found.route = &route;
        found.pathParams = std::move(captures);
        return found;
    }
    if (!allowed.empty()) {
        std::sort(allowed.begin(), allowed.end());
        allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
        for (const std::string& name : allowed) {
            found.allow += (found.allow.empty() ? "" : ", ") + name;
        }
        found.status = 405;
    }
    return found;
}

HttpResponse Router::unmatched(const RouteMatch& match) {
    if (match.status == 405) {
        HttpResponse response = HttpResponse::json(405, {{"message", "METHOD_NOT_ALLOWED"}});
        response.headers.emplace("Allow", match.allow);
        return response;
    }
    return HttpResponse::json(404, {{"message", "NOT_FOUND"}});
}

HttpResponse Router::invoke(const Route& route, const HttpRequest& request) {
    for (int attempt = 1;; ++attempt) {
        try {
            return route.handler(request);
        } catch (const core::ServiceError& error) {
            // Another writer's conflict or a lost connection rolled the request's write back
            // whole (core::Store::write): the request runs again from the start, as the client
            // would on 503 STORE_BUSY, a few times, waiting a little longer each time. Not on
            // the event loop (Inline routes), which must not wait.
            if (core::isStoreBusy(error) && route.execution != Execution::Inline &&
                attempt < kStoreBusyAttempts) {
                thread_local std::minstd_rand jitter(std::random_device{}());
                std::this_thread::sleep_for(
                    std::chrono::milliseconds(20 * attempt + int(jitter() % 20)));
                continue;
            }
            if (error.kind() == core::ErrorKind::Internal) {
                std::cerr << "internal error on " << request.method << ' ' << request.path << ": "
                          << error.what() << std::endl;
            }
            return errorResponse(error, route.errorBody);
        } catch (const std::exception& error) {
            std::cerr << "unexpected error on " << request.method << ' ' << request.path << ": "
                      << error.what() << std::endl;
            return errorResponse(
                core::ServiceError(core::ErrorKind::Internal, "INTERNAL_SERVER_ERROR"),
                route.errorBody);
        }
    }
}

HttpResponse Router::dispatch(HttpRequest& request, const std::vector<RouteGroup>& groups) const {
    RouteMatch found = match(request.method, request.path, groups);
    if (!found.route) {
        return unmatched(found);
    }
    if (request.body.size() > found.route->maxBodyBytes) {
        return HttpResponse::json(413, {{"message", "PAYLOAD_TOO_LARGE"}});
    }
    request.pathParams = std::move(found.pathParams);
    return invoke(*found.route, request);
}

} // namespace proofdesk::http
