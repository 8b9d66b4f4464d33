#include "ListenerLoop.h"

#include "EdgeResponse.h"

#include <QDateTime>

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace proofdesk::http {

void ListenerLoop::respondAndClose(Connection& connection, const HttpResponse& response) {
    connection.closeAfterWrite = true;
    respond(connection, response);
}

void ListenerLoop::respond(Connection& connection, HttpResponse response) {
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
    connection.out.clear(); // its capacity is kept for the next answer
    connection.sent = 0;
    appendResponseHead(connection.out, response, length, keepAlive, parser.http11());
    if (response.filePath.empty()) {
        connection.out += response.body;
    }
    record(connection, response.status);
    connection.phase = Phase::Writing;
    connection.deadline =
        SteadyClock::now() + std::chrono::seconds(m_owner.limits.writeTimeoutSeconds);
    flush(connection);
}

void ListenerLoop::record(Connection& connection, int status) {
    RequestLogEntry entry;
    entry.atMs = QDateTime::currentMSecsSinceEpoch();
    entry.method = QString::fromStdString(connection.logMethod);
    entry.path = QString::fromStdString(connection.logPath);
    entry.status = status;
    entry.milliseconds =
        std::chrono::duration<double, std::milli>(SteadyClock::now() - connection.started).count();
    m_owner.log.record(entry);
}

// Writes what it can. False when the connection was closed.
bool ListenerLoop::flush(Connection& connection) {
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

void ListenerLoop::linger(Connection& connection) {
    ::shutdown(connection.fd, SHUT_WR);
    connection.phase = Phase::Draining;
    connection.drained = 0;
    connection.deadline = SteadyClock::now() + std::chrono::seconds(2);
    watch(connection, EPOLLIN | EPOLLRDHUP);
}

void ListenerLoop::drain(Connection& connection) {
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

void ListenerLoop::waitForWritable(Connection& connection) {
    if (!connection.watchingWrites) {
        connection.watchingWrites = true;
        watch(connection, EPOLLOUT | EPOLLRDHUP);
    }
}

void ListenerLoop::nextRequest(Connection& connection) {
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
} // namespace proofdesk::http
