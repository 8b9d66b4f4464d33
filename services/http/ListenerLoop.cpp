#include "ListenerLoop.h"

#include "ApiKeyLocation.h"
#include "EdgeResponse.h"
#include "ErrorMapping.h"
#include "HostPolicy.h"
#include "core/ServiceError.h"

#include <malloc.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace proofdesk::http {
namespace {

constexpr std::uint64_t kListenId = 0;
constexpr std::uint64_t kWakeId = 1;

} // namespace

ListenerLoop::ListenerLoop(ListenerShared& owner) : m_owner(owner) {
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

ListenerLoop::~ListenerLoop() {
    for (auto& [id, connection] : m_connections) {
        forgetAddress(connection->address);
    }
    m_connections.clear();
    ::close(m_wake);
    ::close(m_epoll);
}

void ListenerLoop::start() {
    m_thread = std::thread([this] { run(); });
}

void ListenerLoop::join() {
    wake();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

// From any thread: runs `task` on this loop.
void ListenerLoop::post(std::function<void()> task) {
    {
        std::lock_guard lock(m_postMutex);
        m_posted.push_back(std::move(task));
    }
    wake();
}

void ListenerLoop::wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto ignored = ::write(m_wake, &one, sizeof one);
}

void ListenerLoop::run() {
    std::vector<epoll_event> events(256);
    auto nextSweep = SteadyClock::now();
    while (!m_owner.stopping.load()) {
        const int n = ::epoll_wait(m_epoll, events.data(), static_cast<int>(events.size()), 250);
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

void ListenerLoop::runPosted() {
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

void ListenerLoop::forgetAddress(const std::string& address) {
    std::lock_guard lock(m_owner.addressesMutex);
    auto it = m_owner.perAddress.find(address);
    if (it != m_owner.perAddress.end() && --it->second == 0) {
        m_owner.perAddress.erase(it);
    }
}

void ListenerLoop::close(Connection& connection) {
    if (connection.inEpoll) {
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, connection.fd, nullptr);
    }
    forgetAddress(connection.address);
    m_connections.erase(connection.id); // closes the socket
}

// The connection waiting longest for a request (idle keep-alive or a slow head), optionally
// of one address: the one to drop when a new client needs the room.
Connection* ListenerLoop::stalest(const std::string* address) {
    Connection* found = nullptr;
    for (auto& [id, connection] : m_connections) {
        if (connection->phase == Phase::Head && (!address || connection->address == *address) &&
            (!found || connection->lastActivity < found->lastActivity)) {
            found = connection.get();
        }
    }
    return found;
}

void ListenerLoop::acceptAll() {
    const std::size_t perLoop =
        std::max<std::size_t>(1, m_owner.limits.maxConnections / m_owner.loopCount);
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

void ListenerLoop::watch(Connection& connection, std::uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = connection.id;
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, connection.fd, &event);
}

void ListenerLoop::onEvent(Connection& connection, std::uint32_t flags) {
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

void ListenerLoop::readFrom(Connection& connection) {
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
bool ListenerLoop::consume(Connection& connection, const char* data, std::size_t size) {
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

bool ListenerLoop::onHead(Connection& connection) {
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
    // A route that needs a key is refused before any byte of its body is read.
    connection.lane = connection.address;
    if (route->access == Access::ApiKey && m_owner.limits.apiKeyProject) {
        try {
            connection.lane =
                m_owner.limits.apiKeyProject(apiKeyIn(parser.headers(), connection.query));
        } catch (const core::ServiceError& error) {
            respondAndClose(connection, errorResponse(error, route->errorBody));
            return false;
        }
    }
    connection.memory =
        std::make_shared<BodyMemoryLease>(&m_owner.bodyMemory, m_owner.limits.requestMemoryBytes);
    connection.body.lease = connection.memory.get();
    std::uint64_t limit =
        std::min<std::uint64_t>(route->maxBodyBytes, m_owner.limits.maxUploadBytes);
    BodySink* sink = &connection.body;
    const auto contentType = parser.headers().find("Content-Type");
    const auto boundary = contentType == parser.headers().end()
                              ? std::nullopt
                              : multipartBoundary(contentType->second);
    if (route->execution == Execution::Upload && boundary) {
        connection.multipart = std::make_unique<MultipartReader>(
            *boundary, uploadDir(), MultipartReader::Limits{}, connection.memory.get());
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
        respondAndClose(connection,
                        edgeError(connection.parser.errorStatus(), connection.parser.errorCode(),
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

std::string ListenerLoop::uploadDir() const {
    if (!m_owner.limits.uploadDir.empty()) {
        return m_owner.limits.uploadDir;
    }
    const char* temp = std::getenv("TMPDIR");
    return temp && *temp ? temp : "/tmp";
}

void ListenerLoop::dispatch(Connection& connection) {
    auto request = std::make_shared<HttpRequest>();
    request->method = connection.parser.method();
    request->path = connection.path;
    request->headers = connection.parser.headers();
    request->query = std::move(connection.query);
    request->body = std::move(connection.body.body);
    request->pathParams = std::move(connection.match.pathParams);
    request->remoteAddress = connection.address;
    request->memory = std::move(connection.memory); // given back when the handler is done
    connection.body.lease = nullptr;
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
    core::ThreadPool& pool =
        route.execution == Execution::Upload ? *m_owner.uploads : *m_owner.workers;
    const std::uint64_t id = connection.id;
    pool.post(connection.lane, [this, id, request, &route]() mutable {
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

void ListenerLoop::sweep(SteadyClock::time_point now) {
    // Once bodies held many MiB and are gone again, the allocator is asked to give the memory
    // back to the system (freed heap pages otherwise stay with the process).
    const std::size_t used = m_owner.bodyMemory.used();
    std::size_t peak = m_owner.bodyMemoryPeak.load();
    while (used > peak && !m_owner.bodyMemoryPeak.compare_exchange_weak(peak, used)) {
    }
    if (used == 0 && m_owner.bodyMemoryPeak.exchange(0) >= (std::size_t(16) << 20)) {
        ::malloc_trim(0);
    }
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
} // namespace proofdesk::http
