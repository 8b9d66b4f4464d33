#pragma once

#include "ErrorMapping.h"
#include "HttpTypes.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace proofdesk::http {

using RouteHandler = std::function<HttpResponse(const HttpRequest&)>;

// Which API a route belongs to; a listener serves a set of groups.
enum class RouteGroup { Request, Proof, Auth };

// Where a route's handler runs. The event loop reads and writes sockets and never blocks on a
// handler: a handler that may wait (a write transaction, a sandboxed child, a file) runs on a
// worker pool; uploads have a pool of their own so they cannot starve the other requests.
// Unless a route says otherwise, Router::add chooses: multipart uploads on the upload pool, GET
// (a read) inline, anything else on the worker pool.
enum class Execution { ByKind, Worker, Upload, Inline };

// Who may send a route a request. ApiKey routes are refused at the header stage, before any
// byte of their body is read, unless the request carries a valid API key (header api-key or
// x-api-key, or query apiKey); their handlers still read the key's project themselves.
enum class Access { Open, ApiKey };

struct Route {
    std::string method;
    // The path, segment by segment: literal segments and "([^/]+)" (one non-empty segment,
    // captured into pathParams). Nothing else is accepted.
    std::string pattern;
    RouteGroup group;
    ErrorBody errorBody;
    std::size_t maxBodyBytes;
    RouteHandler handler;
    // Inline only for quick reads that never wait on a lock (WAL readers do not); a GET that
    // writes or reads files says Worker.
    Execution execution = Execution::ByKind;
    Access access = Access::Open;
};

// What matching a method and path found: a route, or the status (404, 405) and Allow header.
struct RouteMatch {
    const Route* route = nullptr;
    std::vector<std::string> pathParams;
    int status = 404;
    std::string allow;
};

// A route whose handler is a named function of the services it uses, `handler(services,
// request)`: route files list these in one table (addNamedRoutes), so every handler has a name to
// grep for, to read in a stack trace and to name a test after. `Services` is a small struct of
// references, copied into each route.
template <typename Services> struct NamedRoute {
    const char* method;
    const char* pattern;
    ErrorBody errorBody;
    std::size_t maxBodyBytes;
    HttpResponse (*handler)(const Services&, const HttpRequest&);
    Execution execution = Execution::ByKind;
    Access access = Access::Open;
};

// How many times a request whose write the store rolled back (503 STORE_BUSY: a conflict with
// another writer, a lost connection) is run before that is its answer (Router::invoke).
constexpr int kStoreBusyAttempts = 3;
constexpr std::size_t kJsonBodyLimit = 1u << 20;     // 1 MiB
constexpr std::size_t kUploadBodyLimit = 256u << 20; // 256 MiB (multipart)

// The routes table: matches method and path, gives JSON 404 / 405 / 413, turns ServiceErrors into
// the route's error body, and anything unexpected into INTERNAL_SERVER_ERROR.
class Router {
public:
    void add(Route route);
    RouteMatch match(const std::string& method, const std::string& path,
                     const std::vector<RouteGroup>& groups) const;
    // Runs a matched route's handler, mapping its errors to the route's error body; a request
    // whose write was rolled back as STORE_BUSY runs again (kStoreBusyAttempts, not Inline).
    static HttpResponse invoke(const Route& route, const HttpRequest& request);
    // A response for no route (404, or 405 with Allow).
    static HttpResponse unmatched(const RouteMatch& match);
    // match + body limit + invoke, for requests built in memory (tests, fuzzing).
    HttpResponse dispatch(HttpRequest& request, const std::vector<RouteGroup>& groups) const;

private:
    struct CompiledRoute {
        Route route;
        std::vector<std::string> segments; // empty string: a capture
    };
    std::vector<CompiledRoute> m_routes;
};

// Adds `routes`, all of `group`, to `router`.
template <typename Services>
void addNamedRoutes(Router& router, RouteGroup group, const Services& services,
                    std::initializer_list<NamedRoute<Services>> routes) {
    for (const NamedRoute<Services>& named : routes) {
        router.add({named.method, named.pattern, group, named.errorBody, named.maxBodyBytes,
                    [services, handler = named.handler](const HttpRequest& request) {
                        return handler(services, request);
                    },
                    named.execution, named.access});
    }
}

} // namespace proofdesk::http
