#include "HttpListener.h"

#include "ListenerLoop.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace proofdesk::http {

struct HttpListener::Impl {
    Impl(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
         ListenerLimits limits)
        : shared(router, std::move(groups), log, std::move(limits)) {}

    ListenerShared shared;
    std::vector<std::unique_ptr<ListenerLoop>> loops;
};

HttpListener::HttpListener(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
                           ListenerLimits limits)
    : m_impl(std::make_unique<Impl>(router, std::move(groups), log, std::move(limits))) {}

HttpListener::~HttpListener() {
    stop();
    if (m_impl->shared.listenFd >= 0) {
        ::close(m_impl->shared.listenFd);
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
    m_impl->shared.listenFd = fd;
    return true;
}

void HttpListener::start() {
    if (m_impl->shared.listenFd < 0 || !m_impl->loops.empty()) {
        return;
    }
    // Every client is a descriptor: allow as many as the hard limit lets us.
    rlimit files{};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    m_impl->shared.stopping = false;
    // Lanes are the callers' projects (or addresses): none holds more than half a pool, so one
    // caller's many slow uploads leave threads for everyone else's.
    const int threads = m_impl->shared.limits.threads;
    const int uploadThreads = m_impl->shared.limits.uploadThreads;
    m_impl->shared.workers = std::make_unique<core::ThreadPool>(threads, std::max(1, threads / 2));
    m_impl->shared.uploads =
        std::make_unique<core::ThreadPool>(uploadThreads, std::max(1, uploadThreads / 2));
    m_impl->shared.loopCount = std::size_t(std::max(1, m_impl->shared.limits.loopThreads));
    for (std::size_t i = 0; i < m_impl->shared.loopCount; ++i) {
        m_impl->loops.push_back(std::make_unique<ListenerLoop>(m_impl->shared));
    }
    for (auto& loop : m_impl->loops) {
        loop->start();
    }
}

void HttpListener::stop() {
    if (m_impl->loops.empty()) {
        return;
    }
    m_impl->shared.stopping = true;
    // Handlers finish first (their answers go nowhere), then the loops and every connection.
    m_impl->shared.workers->stop();
    m_impl->shared.uploads->stop();
    for (auto& loop : m_impl->loops) {
        loop->join();
    }
    m_impl->loops.clear();
    m_impl->shared.workers.reset();
    m_impl->shared.uploads.reset();
    if (m_impl->shared.listenFd >= 0) {
        ::close(m_impl->shared.listenFd);
        m_impl->shared.listenFd = -1;
    }
}

QString HttpListener::baseUrl() const {
    const QString host =
        m_host.contains(QLatin1Char(':')) ? QLatin1Char('[') + m_host + QLatin1Char(']') : m_host;
    return QStringLiteral("http://%1:%2").arg(host).arg(m_port);
}

} // namespace proofdesk::http