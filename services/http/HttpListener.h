#pragma once

#include "RequestLog.h"
#include "Router.h"

#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::http {

// Which Host and Origin values a listener accepts (DNS rebinding, docs/security.md). A loopback
// listener answers only requests naming a loopback host or one of `allowedHosts`; requests that
// change state are refused when their Origin names another site.
struct AccessPolicy {
    bool loopbackOnly = true; // false with --allow-remote: any Host
    std::vector<std::string> allowedHosts;
};

struct ListenerLimits {
    int threads = 16;                // handlers that may wait (writes, sandboxed reads)
    int uploadThreads = 4;           // handlers of multipart uploads, apart from the others
    int loopThreads = 2;             // event loops reading and writing sockets
    int headerTimeoutSeconds = 10;   // a request's head must arrive within this
    int readTimeoutSeconds = 10;     // a body with no byte for this long: 408
    int writeTimeoutSeconds = 30;    // an answer the client does not read for this long: closed
    int keepAliveTimeoutSeconds = 5; // idle between requests; also bounds how long stop() waits
    int keepAliveMaxRequests = 1000;
    std::size_t maxConnections = 4096;           // beyond it the stalest idle one is dropped
    std::size_t maxConnectionsPerAddress = 2048; // the same, per client address
    std::size_t maxUploadBytes = std::size_t(256) << 20; // whole request body; beyond it: 413
    // Request bodies held in memory: all connections together, and one request (its JSON body,
    // or its multipart parts that stay in memory; the rest of an upload goes to disk).
    std::size_t bodyMemoryBytes = std::size_t(64) << 20;
    std::size_t requestMemoryBytes = std::size_t(1) << 20;
    std::string uploadDir; // large multipart parts are written here (empty: the temp dir)
    AccessPolicy access;
    // The project an API key speaks for; throws core::ServiceError (MISSING_API_KEY,
    // INVALID_API_KEY) as the routes' own check does: routes with Access::ApiKey are answered
    // that error at the header stage, before their body is read (docs/security.md).
    std::function<std::string(const std::string& apiKey)> apiKeyProject;
};

// One bound address serving some route groups of a shared Router: event loops (epoll) read
// requests and write answers, never waiting on a handler, so slow or idle clients cost a socket
// each and nothing else; handlers run inline (quick reads) or on worker pools.
class HttpListener {
public:
    HttpListener(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
                 ListenerLimits limits = {});
    ~HttpListener();
    HttpListener(const HttpListener&) = delete;
    HttpListener& operator=(const HttpListener&) = delete;

    // Binds host:port (port 0 = any free port). Returns false with `error` set on failure.
    bool bind(const QString& host, int port, QString* error);
    // Serves on background threads until stop().
    void start();
    void stop();

    QString host() const { return m_host; }
    int port() const { return m_port; }
    QString baseUrl() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    QString m_host;
    int m_port = 0;
};

} // namespace proofdesk::http
