#include "HttpListener.h"

#include <httplib.h>

#include <QDateTime>

#include <sys/socket.h>

#include <chrono>

namespace proofdesk::http {
namespace {

thread_local std::chrono::steady_clock::time_point t_requestStart;

HttpRequest toRequest(const httplib::Request& in) {
    HttpRequest out;
    out.method = in.method;
    out.path = in.path;
    for (const auto& [name, value] : in.headers) {
        out.headers.emplace(name, value);
    }
    for (const auto& [name, value] : in.params) {
        out.query.emplace(name, value);
    }
    out.body = in.body;
    for (const auto& [name, file] : in.files) {
        out.parts.emplace(name,
                          UploadedPart{file.name, file.filename, file.content_type, file.content});
    }
    out.remoteAddress = in.remote_addr;
    return out;
}

// Bodies for the statuses the server library produces on its own (before any route runs).
std::string libraryErrorBody(int status) {
    switch (status) {
    case 413:
        return R"({"message":"PAYLOAD_TOO_LARGE"})";
    case 400:
        return R"({"message":"BAD_REQUEST"})";
    case 404:
        return R"({"message":"NOT_FOUND"})";
    case 414:
        return R"({"message":"URI_TOO_LONG"})";
    default:
        return R"({"message":"HTTP_ERROR"})";
    }
}

} // namespace

HttpListener::HttpListener(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
                           ListenerLimits limits)
    : m_router(router), m_groups(std::move(groups)), m_log(log),
      m_server(std::make_unique<httplib::Server>()) {
    httplib::Server& server = *m_server;
    const int threads = limits.threads;
    server.new_task_queue = [threads] {
        return new httplib::ThreadPool(static_cast<size_t>(threads));
    };
    server.set_read_timeout(limits.readTimeoutSeconds, 0);
    server.set_write_timeout(limits.writeTimeoutSeconds, 0);
    server.set_keep_alive_timeout(limits.keepAliveTimeoutSeconds);
    server.set_keep_alive_max_count(static_cast<size_t>(limits.keepAliveMaxRequests));
    server.set_payload_max_length(limits.maxUploadBytes);
    // SO_REUSEADDR only: restarting right after a stop works, but a second live server on the
    // same port is refused. (The library's default adds SO_REUSEPORT on Linux, which would let
    // two servers share a port and split its connections between them.)
    server.set_socket_options([this](socket_t sock) {
        int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
        m_listenSocket = sock;
    });
    // Headers and body go out in separate writes; without this, Nagle's algorithm meets the
    // peer's delayed ACK and every keep-alive response stalls ~40 ms.
    server.set_tcp_nodelay(true);

    auto handle = [this](const httplib::Request& in, httplib::Response& out) {
        HttpRequest request = toRequest(in);
        HttpResponse response = m_router.dispatch(request, m_groups);
        out.status = response.status;
        for (const auto& [name, value] : response.headers) {
            out.set_header(name.c_str(), value);
        }
        out.set_content(response.body, response.contentType.c_str());
    };
    server.set_pre_routing_handler([handle](const httplib::Request& in, httplib::Response& out) {
        t_requestStart = std::chrono::steady_clock::now();
        // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112
        // §6.3), but the library would read a POST's body until the client closes the connection
        // (so `curl -X POST` without data waited for the read timeout). Such requests are
        // answered here, before the library tries to read.
        const bool bodyMethod = in.method == "POST" || in.method == "PUT" || in.method == "PATCH" ||
                                in.method == "DELETE";
        if (bodyMethod && !in.has_header("Content-Length") && !in.has_header("Transfer-Encoding")) {
            handle(in, out);
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
    const std::string any = ".*";
    server.Get(any, handle);
    server.Post(any, handle);
    server.Put(any, handle);
    server.Delete(any, handle);
    server.Patch(any, handle);
    server.Options(any, handle);
    // Only reached for statuses produced by the library itself (no route ran, body empty).
    const httplib::Server::HandlerWithResponse libraryErrors = [](const httplib::Request& req,
                                                                  httplib::Response& res) {
        if (!res.body.empty()) {
            return httplib::Server::HandlerResponse::Unhandled;
        }
        // A body shorter than its Content-Length means the read timed out: 408 (DESIGN §6).
        if (res.status == 400 && req.has_header("Content-Length") &&
            req.body.size() <
                std::strtoull(req.get_header_value("Content-Length").c_str(), nullptr, 10)) {
            res.status = 408;
            res.set_content(req.path == "/submit-request"
                                ? R"({"status":"error","error":"REQUEST_TIMEOUT"})"
                                : R"({"message":"REQUEST_TIMEOUT"})",
                            "application/json");
            return httplib::Server::HandlerResponse::Handled;
        }
        res.set_content(libraryErrorBody(res.status), "application/json");
        return httplib::Server::HandlerResponse::Handled;
    };
    server.set_error_handler(libraryErrors);
    server.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
        const auto elapsed = std::chrono::steady_clock::now() - t_requestStart;
        RequestLogEntry entry;
        entry.atMs = QDateTime::currentMSecsSinceEpoch();
        entry.method = QString::fromStdString(req.method);
        entry.path = QString::fromStdString(req.path);
        entry.status = res.status;
        entry.milliseconds = std::chrono::duration<double, std::milli>(elapsed).count();
        m_log.record(entry);
    });
}

HttpListener::~HttpListener() {
    stop();
}

bool HttpListener::bind(const QString& host, int port, QString* error) {
    const std::string h = host.toStdString();
    if (port == 0) {
        const int bound = m_server->bind_to_any_port(h);
        if (bound <= 0) {
            if (error) {
                *error = QStringLiteral("cannot bind %1 on any port").arg(host);
            }
            return false;
        }
        m_port = bound;
    } else {
        if (!m_server->bind_to_port(h, port)) {
            if (error) {
                *error = QStringLiteral("cannot bind %1:%2 (in use or not permitted)")
                             .arg(host)
                             .arg(port);
            }
            return false;
        }
        m_port = port;
    }
    m_host = host;
    // The library listens with a backlog of 5 (compiled into Debian's libcpp-httplib): 64 clients
    // connecting at once overflow it, and each dropped SYN costs its client a 1 s retransmit.
    // Listening again on the bound socket raises the backlog (Linux allows it).
    if (m_listenSocket >= 0) {
        ::listen(m_listenSocket, SOMAXCONN);
    }
    return true;
}

void HttpListener::start() {
    m_thread = std::thread([this] { m_server->listen_after_bind(); });
    // stop() only works once the accept loop runs; wait for it (bounded).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!m_server->is_running() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
    }
}

void HttpListener::stop() {
    if (m_thread.joinable()) {
        m_server->stop();
        m_thread.join();
    }
}

QString HttpListener::baseUrl() const {
    const QString host =
        m_host.contains(QLatin1Char(':')) ? QLatin1Char('[') + m_host + QLatin1Char(']') : m_host;
    return QStringLiteral("http://%1:%2").arg(host).arg(m_port);
}

} // namespace proofdesk::http
