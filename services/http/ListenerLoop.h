#pragma once

// The listener's event loops (HttpListener.h): each reads requests and writes answers on its
// own epoll set and never waits on a handler. ListenerLoop.cpp accepts, reads and dispatches;
// ListenerAnswers.cpp writes answers and readies the connection for the next request.

#include "BodyMemory.h"
#include "HttpListener.h"
#include "MultipartReader.h"
#include "RequestParser.h"
#include "core/ThreadPool.h"

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace proofdesk::http {

using SteadyClock = std::chrono::steady_clock;

// A body held in memory (JSON), within the request's share of the listener's body memory.
class StringSink : public BodySink {
public:
    bool write(const char* data, std::size_t size) override {
        if (lease && !lease->take(size)) {
            return false;
        }
        body.append(data, size);
        return true;
    }
    bool finish() override { return true; }
    int errorStatus() const override { return 503; }
    std::string errorCode() const override { return "SERVER_BUSY"; }
    std::string errorDetail() const override {
        return "the server holds as many request bodies in memory as it may: try again shortly";
    }
    std::string body;
    BodyMemoryLease* lease = nullptr;
};

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
    std::shared_ptr<BodyMemoryLease> memory; // the body's share of the listener's body memory
    std::string lane; // whose request it is: the API key's project, else the client's address
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

// What the loops of one listener share.
struct ListenerShared {
    ListenerShared(const Router& router, std::vector<RouteGroup> groups, RequestLog& log,
                   ListenerLimits limits)
        : router(router), groups(std::move(groups)), log(log), limits(std::move(limits)) {}

    const Router& router;
    std::vector<RouteGroup> groups;
    RequestLog& log;
    ListenerLimits limits;
    int listenFd = -1;
    std::size_t loopCount = 1;
    std::atomic<bool> stopping{false};
    std::atomic<std::uint64_t> nextId{2};
    std::unique_ptr<core::ThreadPool> workers;
    std::unique_ptr<core::ThreadPool> uploads;
    BodyMemory bodyMemory{limits.bodyMemoryBytes};
    std::atomic<std::size_t> bodyMemoryPeak{0}; // since memory was last given back to the system
    std::mutex addressesMutex;
    std::map<std::string, std::size_t> perAddress;
};

class ListenerLoop {
public:
    explicit ListenerLoop(ListenerShared& owner);
    ~ListenerLoop();
    ListenerLoop(const ListenerLoop&) = delete;
    ListenerLoop& operator=(const ListenerLoop&) = delete;

    void start();
    void join();
    // From any thread: runs `task` on this loop.
    void post(std::function<void()> task);

private:
    void wake();
    void run();
    void runPosted();

    // --- connections -------------------------------------------------------------------------
    void forgetAddress(const std::string& address);
    void close(Connection& connection);
    // The connection waiting longest for a request (idle keep-alive or a slow head), optionally
    // of one address: the one to drop when a new client needs the room.
    Connection* stalest(const std::string* address);
    void acceptAll();
    void watch(Connection& connection, std::uint32_t events);
    void onEvent(Connection& connection, std::uint32_t flags);
    void readFrom(Connection& connection);
    // Feeds bytes to the request being read. False when the connection was closed.
    bool consume(Connection& connection, const char* data, std::size_t size);
    bool onHead(Connection& connection);
    std::string uploadDir() const;
    void dispatch(Connection& connection);
    // Answers 408 to, or closes, the connections past their deadline.
    void sweep(SteadyClock::time_point now);

    // --- answers -----------------------------------------------------------------------------
    void respondAndClose(Connection& connection, const HttpResponse& response);
    void respond(Connection& connection, HttpResponse response);
    void record(Connection& connection, int status);
    // Writes what it can. False when the connection was closed.
    bool flush(Connection& connection);
    void linger(Connection& connection);
    void drain(Connection& connection);
    void waitForWritable(Connection& connection);
    void nextRequest(Connection& connection);

    ListenerShared& m_owner;
    int m_epoll = -1;
    int m_wake = -1;
    std::thread m_thread;
    std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> m_connections;
    std::mutex m_postMutex;
    std::vector<std::function<void()>> m_posted;
};

} // namespace proofdesk::http
