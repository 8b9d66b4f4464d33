#pragma once

#include "RequestLog.h"
#include "Router.h"

#include <QString>

#include <memory>
#include <thread>

namespace httplib {
class Server;
}

namespace proofdesk::http {

struct ListenerLimits {
    int threads = 16;
    int readTimeoutSeconds = 10;
    int writeTimeoutSeconds = 30;
    int keepAliveTimeoutSeconds = 2; // also bounds how long stop() waits for idle clients
    int keepAliveMaxRequests = 1000;
    std::size_t maxUploadBytes = std::size_t(256) << 20; // whole request body; beyond it: 413
};

// One bound address serving some route groups of a shared Router, on its own thread pool.
class HttpListener {
public:
    HttpListener(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
                 ListenerLimits limits = {});
    ~HttpListener();
    HttpListener(const HttpListener&) = delete;
    HttpListener& operator=(const HttpListener&) = delete;

    // Binds host:port (port 0 = any free port). Returns false with `error` set on failure.
    bool bind(const QString& host, int port, QString* error);
    // Serves on a background thread until stop().
    void start();
    void stop();

    QString host() const { return m_host; }
    int port() const { return m_port; }
    QString baseUrl() const;

private:
    const Router& m_router;
    std::vector<RouteGroup> m_groups;
    RequestLog& m_log;
    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    QString m_host;
    int m_port = 0;
    int m_listenSocket = -1; // the listening socket, seen in the socket-options callback
};

} // namespace proofdesk::http
