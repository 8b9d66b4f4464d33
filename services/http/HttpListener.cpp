#include "HttpListener.h"

#include "HostPolicy.h"
#include "MultipartReader.h"
#include "RequestParser.h"
#include "core/ThreadPool.h"

#include <QDateTime>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace proofdesk::http {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::uint64_t kListenId = 0;
constexpr std::uint64_t kWakeId = 1;

class StringSink : public BodySink {
public:
    bool write(const char* data, std::size_t size) override {
        body.append(data, size);
        return true;
    }
    bool finish() override { return true; }
    std::string body;
};

const char* reasonPhrase(int status) {
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 417:
        return "Expectation Failed";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

// An error the edge answers itself (framing, limits, Host, time-outs).
HttpResponse edgeError(int status, const std::string& code, const std::string& detail,
                       const Route* route) {
    ErrorKind kind = ErrorKind::BadRequest;
    switch (status) {
    case 403:
        kind = ErrorKind::Forbidden;
        break;
    case 408:
        kind = ErrorKind::RequestTimeout;
        break;
    case 413:
        kind = ErrorKind::PayloadTooLarge;
        break;
    case 500:
        kind = ErrorKind::Internal;
        break;
    default:
        break;
    }
    // The request service's routes answer in their own shape; every other edge error is
    // {"message": CODE, "detail": ...}.
    const ErrorBody shape = route && route->errorBody == ErrorBody::StatusAndError
                                ? ErrorBody::StatusAndError
                                : ErrorBody::MessageField;
    HttpResponse response = errorResponse(ServiceError(kind, code, detail), shape);
    if (shape == ErrorBody::StatusAndError && detail.empty()) {
        response.body = R"({"status":"error","error":")" + code + "\"}"; // the spec's order
    }
    response.status = status; // 414, 431, 501, 505 keep their own status
    return response;
}

// Draining: an answer that ends the connection went out; what the client still sends is read and
// dropped for a moment, so closing does not reset the connection before it read the answer.
enum class Phase { Head, Body, Handling, Writing, Draining };

struct Connection {
    std::uint64_t id = 0;
    int fd = -1;
    std::string address;
    Phase phase = Phase::Head;
    RequestParser parser;
    std::string pending; // bytes read while a request was being answered (pipelining)
    StringSink body;
    std::unique_ptr<MultipartReader> multipart;
    RouteMatch match;
    std::string path;
    std::multimap<std::string, std::string> query;
    bool headStarted = false;
    SteadyClock::time_point deadline;
    SteadyClock::time_point started;
    SteadyClock::time_point lastActivity;
    std::string out;
    std::size_t sent = 0;
    int fileFd = -1;
    off_t fileOffset = 0;
    std::uint64_t fileLeft = 0;
    bool closeAfterWrite = false;
    std::size_t drained = 0;
    bool watchingWrites = false;
    bool inEpoll = true;
    bool peerGone = false;
    int requests = 0;
    std::string logMethod;
    std::string logPath;
    int logStatus = 0;

    ~Connection() {
        if (fileFd >= 0) {
            ::close(fileFd);
        }
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

} // namespace

struct HttpListener::Impl {
    class Loop;

    Impl(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
         ListenerLimits limits)
        : router(router), groups(std::move(groups)), log(log), limits(std::move(limits)) {}

    const Router& router;
    std::vector<RouteGroup> groups;
    RequestLog& log;
    ListenerLimits limits;
    int listenFd = -1;
    std::atomic<bool> stopping{false};
    std::atomic<std::uint64_t> nextId{2};
    std::vector<std::unique_ptr<Loop>> loops;
    std::unique_ptr<ThreadPool> workers;
    std::unique_ptr<ThreadPool> uploads;
    std::mutex addressesMutex;
    std::map<std::string, std::size_t> perAddress;
};

class HttpListener::Impl::Loop {
public:
    explicit Loop(Impl& owner) : m_owner(owner) {
        m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
        m_wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        epoll_event wake{};
        wake.events = EPOLLIN;
        wake.data.u64 = kWakeId;
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &wake);
        epoll_event listen{};
        listen.events = EPOLLIN | EPOLLEXCLUSIVE;
        listen.data.u64 = kListenId;
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_owner.listenFd, &listen);
    }
    ~Loop() {
        for (auto& [id, connection] : m_connections) {
            forgetAddress(connection->address);
        }
        m_connections.clear();
        ::close(m_wake);
        ::close(m_epoll);
    }

    void start() {
        m_thread = std::thread([this] { run(); });
    }
    void join() {
        wake();
        if (m_thread.joinable()) {
            m_thread.join();
        }
    }
    // From any thread: runs `task` on this loop.
    void post(std::function<void()> task) {
        {
            std::lock_guard lock(m_postMutex);
            m_posted.push_back(std::move(task));
        }
        wake();
    }

private:
    void wake() {
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto ignored = ::write(m_wake, &one, sizeof one);
    }

    void run() {
        std::vector<epoll_event> events(256);
        auto nextSweep = SteadyClock::now();
        while (!m_owner.stopping.load()) {
            const int n =
                ::epoll_wait(m_epoll, events.data(), static_cast<int>(events.size()), 250);
            for (int i = 0; i < n; ++i) {
                const std::uint64_t id = events[std::size_t(i)].data.u64;
                const std::uint32_t flags = events[std::size_t(i)].events;
                if (id == kListenId) {
                    acceptAll();
                } else if (id == kWakeId) {
                    runPosted();
                } else if (auto it = m_connections.find(id); it != m_connections.end()) {
                    onEvent(*it->second, flags);
                }
            }
            const auto now = SteadyClock::now();
            if (now >= nextSweep) {
                sweep(now);
                nextSweep = now + std::chrono::milliseconds(250);
            }
        }
    }

    void runPosted() {
        std::uint64_t count = 0;
        [[maybe_unused]] const auto ignored = ::read(m_wake, &count, sizeof count);
        std::vector<std::function<void()>> tasks;
        {
            std::lock_guard lock(m_postMutex);
            tasks.swap(m_posted);
        }
        for (auto& task : tasks) {
            task();
        }
    }

    // --- connections -------------------------------------------------------------------------

    void forgetAddress(const std::string& address) {
        std::lock_guard lock(m_owner.addressesMutex);
        auto it = m_owner.perAddress.find(address);
        if (it != m_owner.perAddress.end() && --it->second == 0) {
            m_owner.perAddress.erase(it);
        }
    }

    void close(Connection& connection) {
        if (connection.inEpoll) {
            ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, connection.fd, nullptr);
        }
        forgetAddress(connection.address);
        m_connections.erase(connection.id); // closes the socket
    }

    // The connection waiting longest for a request (idle keep-alive or a slow head), optionally
    // of one address: the one to drop when a new client needs the room.
    Connection* stalest(const std::string* address) {
        Connection* found = nullptr;
        for (auto& [id, connection] : m_connections) {
            if (connection->phase == Phase::Head && (!address || connection->address == *address) &&
                (!found || connection->lastActivity < found->lastActivity)) {
                found = connection.get();
            }
        }
        return found;
    }

    void acceptAll() {
        const std::size_t perLoop =
            std::max<std::size_t>(1, m_owner.limits.maxConnections / m_owner.loops.size());
        for (;;) {
            sockaddr_storage peer{};
            socklen_t length = sizeof peer;
            const int fd = ::accept4(m_owner.listenFd, reinterpret_cast<sockaddr*>(&peer), &length,
                                     SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                return; // EAGAIN, or out of descriptors: the next wake-up tries again
            }
            char text[INET6_ADDRSTRLEN] = {};
            if (peer.ss_family == AF_INET) {
                ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(&peer)->sin_addr, text,
                            sizeof text);
            } else if (peer.ss_family == AF_INET6) {
                ::inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(&peer)->sin6_addr, text,
                            sizeof text);
            }
            const std::string address = text;
            if (m_connections.size() >= perLoop) {
                if (Connection* victim = stalest(nullptr)) {
                    close(*victim);
                } else {
                    ::close(fd);
                    continue;
                }
            }
            bool full = false;
            {
                std::lock_guard lock(m_owner.addressesMutex);
                full = m_owner.perAddress[address] >= m_owner.limits.maxConnectionsPerAddress;
            }
            if (full) {
                if (Connection* victim = stalest(&address)) {
                    close(*victim);
                } else {
                    ::close(fd);
                    continue;
                }
            }
            {
                std::lock_guard lock(m_owner.addressesMutex);
                ++m_owner.perAddress[address];
            }
            const int yes = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
            auto connection = std::make_unique<Connection>();
            connection->id = m_owner.nextId++;
            connection->fd = fd;
            connection->address = address;
            const auto now = SteadyClock::now();
            connection->lastActivity = now;
            connection->deadline = now + std::chrono::seconds(m_owner.limits.headerTimeoutSeconds);
            epoll_event event{};
            event.events = EPOLLIN | EPOLLRDHUP;
            event.data.u64 = connection->id;
            ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event);
            m_connections.emplace(connection->id, std::move(connection));
        }
    }

    void watch(Connection& connection, std::uint32_t events) {
        epoll_event event{};
        event.events = events;
        event.data.u64 = connection.id;
        ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, connection.fd, &event);
    }

    void onEvent(Connection& connection, std::uint32_t flags) {
        if (connection.phase == Phase::Handling) {
            // Not reading while a handler runs; a peer that is gone is noticed and left out of
            // the loop until the handler is done.
            if (flags & (EPOLLERR | EPOLLHUP)) {
                connection.peerGone = true;
                ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, connection.fd, nullptr);
                connection.inEpoll = false;
            }
            return;
        }
        if (flags & EPOLLERR) {
            close(connection);
            return;
        }
        if (connection.phase == Phase::Draining) {
            drain(connection);
            return;
        }
        if (flags & EPOLLOUT) {
            if (!flush(connection)) {
                return;
            }
        }
        if ((flags & (EPOLLIN | EPOLLRDHUP | EPOLLHUP)) &&
            (connection.phase == Phase::Head || connection.phase == Phase::Body)) {
            readFrom(connection);
        }
    }

    void readFrom(Connection& connection) {
        char buffer[65536];
        const std::uint64_t id = connection.id;
        for (;;) {
            const ssize_t n = ::read(connection.fd, buffer, sizeof buffer);
            if (n > 0) {
                connection.lastActivity = SteadyClock::now();
                if (!consume(connection, buffer, static_cast<std::size_t>(n)) ||
                    !m_connections.count(id)) {
                    return;
                }
                if (connection.phase != Phase::Head && connection.phase != Phase::Body) {
                    return;
                }
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                return;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            close(connection); // the peer closed before a whole request arrived, or an error
            return;
        }
    }

    // Feeds bytes to the request being read. False when the connection was closed.
    bool consume(Connection& connection, const char* data, std::size_t size) {
        const std::uint64_t id = connection.id; // answering may close it
        std::size_t used = 0;
        while (used < size) {
            if (connection.phase == Phase::Handling || connection.phase == Phase::Writing) {
                connection.pending.append(data + used, size - used);
                return true;
            }
            if (connection.phase == Phase::Head && !connection.headStarted) {
                connection.headStarted = true;
                connection.started = SteadyClock::now();
                connection.deadline =
                    connection.started + std::chrono::seconds(m_owner.limits.headerTimeoutSeconds);
            }
            used += connection.parser.feed(data + used, size - used);
            switch (connection.parser.state()) {
            case RequestParser::State::Failed:
                respondAndClose(connection,
                                edgeError(connection.parser.errorStatus(),
                                          connection.parser.errorCode(),
                                          connection.parser.errorDetail(), connection.match.route));
                return false;
            case RequestParser::State::HeadDone:
                if (!onHead(connection) || !m_connections.count(id)) {
                    return false;
                }
                break;
            case RequestParser::State::Body:
                connection.deadline =
                    SteadyClock::now() + std::chrono::seconds(m_owner.limits.readTimeoutSeconds);
                break;
            case RequestParser::State::Complete:
                dispatch(connection);
                if (!m_connections.count(id)) {
                    return false;
                }
                break;
            case RequestParser::State::Head:
                break;
            }
        }
        return true;
    }

    bool onHead(Connection& connection) {
        const RequestParser& parser = connection.parser;
        connection.query.clear();
        splitTarget(parser.target(), &connection.path, &connection.query);
        connection.logMethod = parser.method();
        connection.logPath = connection.path;
        connection.match = m_owner.router.match(parser.method(), connection.path, m_owner.groups);
        const Route* route = connection.match.route;
        std::string refusal;
        if (!requestAllowed(m_owner.limits.access, parser.method(), parser.headers(), &refusal)) {
            respondAndClose(connection, edgeError(403, refusal.substr(0, refusal.find(':')),
                                                  refusal.substr(refusal.find(':') + 2), route));
            return false;
        }
        if (!route) {
            const HttpResponse response = Router::unmatched(connection.match);
            if (parser.hasBody()) {
                respondAndClose(connection, response); // its body is not read
                return false;
            }
            const std::uint64_t id = connection.id;
            connection.parser.beginBody(0, &connection.body);
            respond(connection, response);
            return m_connections.count(id) != 0;
        }
        std::uint64_t limit =
            std::min<std::uint64_t>(route->maxBodyBytes, m_owner.limits.maxUploadBytes);
        BodySink* sink = &connection.body;
        const auto contentType = parser.headers().find("Content-Type");
        const auto boundary = contentType == parser.headers().end()
                                  ? std::nullopt
                                  : multipartBoundary(contentType->second);
        if (route->execution == Execution::Upload && boundary) {
            connection.multipart = std::make_unique<MultipartReader>(*boundary, uploadDir());
            sink = connection.multipart.get();
        } else {
            limit = std::min<std::uint64_t>(limit, kJsonBodyLimit); // held in memory
        }
        if (parser.expectsContinue() && parser.hasBody() &&
            (!parser.headers().count("Content-Length") ||
             std::stoull(parser.headers().find("Content-Length")->second) <= limit)) {
            static const char kContinue[] = "HTTP/1.1 100 Continue\r\n\r\n";
            ::send(connection.fd, kContinue, sizeof kContinue - 1, MSG_NOSIGNAL);
        }
        connection.parser.beginBody(limit, sink);
        if (connection.parser.state() == RequestParser::State::Failed) {
            respondAndClose(connection, edgeError(connection.parser.errorStatus(),
                                                  connection.parser.errorCode(),
                                                  connection.parser.errorDetail(), route));
            return false;
        }
        connection.phase = Phase::Body;
        connection.deadline =
            SteadyClock::now() + std::chrono::seconds(m_owner.limits.readTimeoutSeconds);
        if (connection.parser.state() == RequestParser::State::Complete) {
            dispatch(connection);
        }
        return true;
    }

    std::string uploadDir() const {
        if (!m_owner.limits.uploadDir.empty()) {
            return m_owner.limits.uploadDir;
        }
        const char* temp = std::getenv("TMPDIR");
        return temp && *temp ? temp : "/tmp";
    }

    void dispatch(Connection& connection) {
        auto request = std::make_shared<HttpRequest>();
        request->method = connection.parser.method();
        request->path = connection.path;
        request->headers = connection.parser.headers();
        request->query = std::move(connection.query);
        request->body = std::move(connection.body.body);
        request->pathParams = std::move(connection.match.pathParams);
        request->remoteAddress = connection.address;
        if (connection.multipart) {
            for (UploadedPart& part : connection.multipart->takeParts()) {
                std::string name = part.name;
                request->parts.emplace(std::move(name), std::move(part));
            }
            connection.multipart.reset();
        }
        const Route& route = *connection.match.route;
        connection.phase = Phase::Handling;
        watch(connection, 0);
        if (route.execution == Execution::Inline) {
            respond(connection, Router::invoke(route, *request));
            return;
        }
        ThreadPool& pool =
            route.execution == Execution::Upload ? *m_owner.uploads : *m_owner.workers;
        const std::uint64_t id = connection.id;
        pool.post([this, id, request, &route]() mutable {
            HttpResponse response = Router::invoke(route, *request);
            request.reset(); // spilled uploads are removed before the answer goes out
            post([this, id, answer = std::make_shared<HttpResponse>(std::move(response))] {
                auto it = m_connections.find(id);
                if (it != m_connections.end()) {
                    respond(*it->second, std::move(*answer));
                }
            });
        });
    }

    // --- answers -----------------------------------------------------------------------------

    void respondAndClose(Connection& connection, const HttpResponse& response) {
        connection.closeAfterWrite = true;
        respond(connection, response);
    }

    void respond(Connection& connection, HttpResponse response) {
        if (connection.peerGone) {
            record(connection, response.status);
            close(connection);
            return;
        }
        const RequestParser& parser = connection.parser;
        ++connection.requests;
        const bool keepAlive = !connection.closeAfterWrite && parser.keepAlive() &&
                               connection.requests < m_owner.limits.keepAliveMaxRequests &&
                               !m_owner.stopping.load();
        connection.closeAfterWrite = !keepAlive;
        std::uint64_t length = response.body.size();
        if (!response.filePath.empty()) {
            connection.fileFd = ::open(response.filePath.c_str(), O_RDONLY | O_CLOEXEC);
            struct stat info {};
            if (connection.fileFd < 0 || ::fstat(connection.fileFd, &info) != 0) {
                response = edgeError(500, "INTERNAL_SERVER_ERROR", {}, nullptr);
                length = response.body.size();
            } else {
                length = static_cast<std::uint64_t>(info.st_size);
                connection.fileLeft = length;
                connection.fileOffset = 0;
            }
        }
        std::string& out = connection.out;
        out.clear();
        connection.sent = 0;
        out += "HTTP/1.1 " + std::to_string(response.status) + " " + reasonPhrase(response.status) +
               "\r\n";
        out += "Content-Type: " + response.contentType + "\r\n";
        out += "Content-Length: " + std::to_string(length) + "\r\n";
        if (!keepAlive) {
            out += "Connection: close\r\n";
        } else if (!parser.http11()) {
            out += "Connection: keep-alive\r\n";
        }
        for (const auto& [name, value] : response.headers) {
            out += name + ": " + value + "\r\n";
        }
        out += "\r\n";
        if (response.filePath.empty()) {
            out += response.body;
        }
        record(connection, response.status);
        connection.phase = Phase::Writing;
        connection.deadline =
            SteadyClock::now() + std::chrono::seconds(m_owner.limits.writeTimeoutSeconds);
        flush(connection);
    }

    void record(Connection& connection, int status) {
        RequestLogEntry entry;
        entry.atMs = QDateTime::currentMSecsSinceEpoch();
        entry.method = QString::fromStdString(connection.logMethod);
        entry.path = QString::fromStdString(connection.logPath);
        entry.status = status;
        entry.milliseconds =
            std::chrono::duration<double, std::milli>(SteadyClock::now() - connection.started)
                .count();
        m_owner.log.record(entry);
    }

    // Writes what it can. False when the connection was closed.
    bool flush(Connection& connection) {
        while (connection.sent < connection.out.size()) {
            const ssize_t n = ::send(connection.fd, connection.out.data() + connection.sent,
                                     connection.out.size() - connection.sent, MSG_NOSIGNAL);
            if (n > 0) {
                connection.sent += static_cast<std::size_t>(n);
                connection.deadline =
                    SteadyClock::now() + std::chrono::seconds(m_owner.limits.writeTimeoutSeconds);
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                waitForWritable(connection);
                return true;
            }
            close(connection);
            return false;
        }
        while (connection.fileLeft > 0) {
            const ssize_t n = ::sendfile(
                connection.fd, connection.fileFd, &connection.fileOffset,
                static_cast<std::size_t>(std::min<std::uint64_t>(connection.fileLeft, 1 << 20)));
            if (n > 0) {
                connection.fileLeft -= static_cast<std::uint64_t>(n);
                connection.deadline =
                    SteadyClock::now() + std::chrono::seconds(m_owner.limits.writeTimeoutSeconds);
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                waitForWritable(connection);
                return true;
            }
            close(connection);
            return false;
        }
        if (connection.fileFd >= 0) {
            ::close(connection.fileFd);
            connection.fileFd = -1;
        }
        if (connection.closeAfterWrite) {
            linger(connection);
            return false;
        }
        const std::uint64_t id = connection.id;
        nextRequest(connection);
        return m_connections.count(id) != 0;
    }

    void linger(Connection& connection) {
        ::shutdown(connection.fd, SHUT_WR);
        connection.phase = Phase::Draining;
        connection.drained = 0;
        connection.deadline = SteadyClock::now() + std::chrono::seconds(2);
        watch(connection, EPOLLIN | EPOLLRDHUP);
    }

    void drain(Connection& connection) {
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::read(connection.fd, buffer, sizeof buffer);
            if (n > 0 && (connection.drained += static_cast<std::size_t>(n)) < (16u << 20)) {
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                return;
            }
            close(connection); // the client is done, or sent too much
            return;
        }
    }

    void waitForWritable(Connection& connection) {
        if (!connection.watchingWrites) {
            connection.watchingWrites = true;
            watch(connection, EPOLLOUT | EPOLLRDHUP);
        }
    }

    void nextRequest(Connection& connection) {
        connection.parser.reset();
        connection.body.body.clear();
        connection.multipart.reset();
        connection.match = RouteMatch{};
        connection.out.clear();
        connection.sent = 0;
        connection.phase = Phase::Head;
        connection.headStarted = false;
        connection.watchingWrites = false;
        const auto now = SteadyClock::now();
        connection.lastActivity = now;
        connection.deadline = now + std::chrono::seconds(m_owner.limits.keepAliveTimeoutSeconds);
        watch(connection, EPOLLIN | EPOLLRDHUP);
        if (!connection.pending.empty()) {
            const std::string pending = std::move(connection.pending);
            connection.pending.clear();
            consume(connection, pending.data(), pending.size());
        }
    }

    void sweep(SteadyClock::time_point now) {
        std::vector<Connection*> expired;
        for (auto& [id, connection] : m_connections) {
            if (connection->phase != Phase::Handling && now >= connection->deadline) {
                expired.push_back(connection.get());
            }
        }
        for (Connection* connection : expired) {
            if (connection->phase == Phase::Draining) {
                close(*connection);
                continue;
            }
            const bool answer = connection->phase == Phase::Body ||
                                (connection->phase == Phase::Head && connection->headStarted);
            if (answer) {
                respondAndClose(*connection,
                                edgeError(408, "REQUEST_TIMEOUT", {}, connection->match.route));
            } else {
                close(*connection);
            }
        }
    }

    Impl& m_owner;
    int m_epoll = -1;
    int m_wake = -1;
    std::thread m_thread;
    std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> m_connections;
    std::mutex m_postMutex;
    std::vector<std::function<void()>> m_posted;
};

HttpListener::HttpListener(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
                           ListenerLimits limits)
    : m_impl(std::make_unique<Impl>(router, std::move(groups), log, std::move(limits))) {}

HttpListener::~HttpListener() {
    stop();
    if (m_impl->listenFd >= 0) {
        ::close(m_impl->listenFd);
    }
}

bool HttpListener::bind(const QString& host, int port, QString* error) {
    const auto fail = [&](const QString& why) {
        if (error) {
            *error = why;
        }
        return false;
    };
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (::getaddrinfo(host.toStdString().c_str(), service.c_str(), &hints, &found) != 0 || !found) {
        return fail(QStringLiteral("cannot bind %1: not an address").arg(host));
    }
    const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    // SO_REUSEADDR only: restarting right after a stop works, but a second live server on the
    // same port is refused.
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    const bool bound = fd >= 0 && ::bind(fd, found->ai_addr, found->ai_addrlen) == 0 &&
                       ::listen(fd, SOMAXCONN) == 0;
    ::freeaddrinfo(found);
    if (!bound) {
        if (fd >= 0) {
            ::close(fd);
        }
        return fail(port == 0 ? QStringLiteral("cannot bind %1 on any port").arg(host)
                              : QStringLiteral("cannot bind %1:%2 (in use or not permitted)")
                                    .arg(host)
                                    .arg(port));
    }
    sockaddr_storage local{};
    socklen_t length = sizeof local;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length);
    m_port = local.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&local)->sin6_port)
                                         : ntohs(reinterpret_cast<sockaddr_in*>(&local)->sin_port);
    m_host = host;
    m_impl->listenFd = fd;
    return true;
}

void HttpListener::start() {
    if (m_impl->listenFd < 0 || !m_impl->loops.empty()) {
        return;
    }
    // Every client is a descriptor: allow as many as the hard limit lets us.
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    m_impl->stopping = false;
    m_impl->workers = std::make_unique<ThreadPool>(m_impl->limits.threads);
    m_impl->uploads = std::make_unique<ThreadPool>(m_impl->limits.uploadThreads);
    for (int i = 0; i < std::max(1, m_impl->limits.loopThreads); ++i) {
        m_impl->loops.push_back(std::make_unique<Impl::Loop>(*m_impl));
    }
    for (auto& loop : m_impl->loops) {
        loop->start();
    }
}

void HttpListener::stop() {
    if (m_impl->loops.empty()) {
        return;
    }
    m_impl->stopping = true;
    // Handlers finish first (their answers go nowhere), then the loops and every connection.
    m_impl->workers->stop();
    m_impl->uploads->stop();
    for (auto& loop : m_impl->loops) {
        loop->join();
    }
    m_impl->loops.clear();
    m_impl->workers.reset();
    m_impl->uploads.reset();
    if (m_impl->listenFd >= 0) {
        ::close(m_impl->listenFd);
        m_impl->listenFd = -1;
    }
}

QString HttpListener::baseUrl() const {
    const QString host =
        m_host.contains(QLatin1Char(':')) ? QLatin1Char('[') + m_host + QLatin1Char(']') : m_host;
    return QStringLiteral("http://%1:%2").arg(host).arg(m_port);
}

} // namespace proofdesk::http
