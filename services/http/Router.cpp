#include "Router.h"

#include <algorithm>
#include <iostream>

namespace proofdesk::http {

void Router::add(Route route) {
    std::regex regex(route.pattern, std::regex::ECMAScript | std::regex::optimize);
    m_routes.push_back({std::move(route), std::move(regex)});
}

HttpResponse Router::dispatch(HttpRequest& request, const std::vector<RouteGroup>& groups) const {
    std::vector<std::string> allowed;
    for (const CompiledRoute& compiled : m_routes) {
        const Route& route = compiled.route;
        if (std::find(groups.begin(), groups.end(), route.group) == groups.end()) {
            continue;
        }
        std::smatch match;
        if (!std::regex_match(request.path, match, compiled.regex)) {
            continue;
        }
        if (route.method != request.method) {
            allowed.push_back(route.method);
            continue;
        }
        if (request.body.size() > route.maxBodyBytes) {
            return HttpResponse::json(413, {{"message", "PAYLOAD_TOO_LARGE"}});
        }
        request.pathParams.clear();
        for (std::size_t i = 1; i < match.size(); ++i) {
            request.pathParams.push_back(match[i].str());
        }
        try {
            return route.handler(request);
        } catch (const ServiceError& error) {
            if (error.kind() == ErrorKind::Internal) {
                std::cerr << "internal error on " << request.method << ' ' << request.path << ": "
                          << error.what() << std::endl;
            }
            return errorResponse(error, route.errorBody);
        } catch (const std::exception& error) {
            std::cerr << "unexpected error on " << request.method << ' ' << request.path << ": "
                      << error.what() << std::endl;
            return errorResponse(ServiceError(ErrorKind::Internal, "INTERNAL_SERVER_ERROR"),
                                 route.errorBody);
        }
    }
    if (!allowed.empty()) {
        std::sort(allowed.begin(), allowed.end());
        allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
        std::string allow;
        for (const std::string& method : allowed) {
            allow += (allow.empty() ? "" : ", ") + method;
        }
        HttpResponse response = HttpResponse::json(405, {{"message", "METHOD_NOT_ALLOWED"}});
        response.headers.emplace("Allow", allow);
        return response;
    }
    return HttpResponse::json(404, {{"message", "NOT_FOUND"}});
}

} // namespace proofdesk::http
