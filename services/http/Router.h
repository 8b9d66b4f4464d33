#pragma once

#include "ErrorMapping.h"
#include "HttpTypes.h"

#include <functional>
#include <regex>
#include <string>
#include <vector>

namespace proofdesk::http {

using RouteHandler = std::function<HttpResponse(const HttpRequest&)>;

// Which API a route belongs to; a listener serves a set of groups.
enum class RouteGroup { Request, Proof, Auth };

struct Route {
    std::string method;
    std::string pattern; // anchored regex over the path; captures become pathParams
    RouteGroup group;
    ErrorBody errorBody;
    std::size_t maxBodyBytes;
    RouteHandler handler;
};

constexpr std::size_t kJsonBodyLimit = 1u << 20;     // 1 MiB
constexpr std::size_t kUploadBodyLimit = 256u << 20; // 256 MiB (multipart)

// The routes table: matches method and path, gives JSON 404 / 405 / 413, turns ServiceErrors into
// the route's error body, and anything unexpected into INTERNAL_SERVER_ERROR.
class Router {
public:
    void add(Route route);
    HttpResponse dispatch(HttpRequest& request, const std::vector<RouteGroup>& groups) const;

private:
    struct CompiledRoute {
        Route route;
        std::regex regex;
    };
    std::vector<CompiledRoute> m_routes;
};

} // namespace proofdesk::http
