#pragma once

#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace httplib {
class Server;
}

namespace proofdesk::test {

// A JSON-RPC proxy in front of a dev chain that can misbehave on purpose: answer one method
// with HTTP 503 (a node going down mid-query), with malformed JSON, with a tampered block
// header, or hold it until released.
class RpcProxy {
public:
    explicit RpcProxy(const QString& upstream);
    ~RpcProxy();
    QString url() const { return m_url; }

    enum class Fault { None, Unavailable, Malformed, TamperHeader, Hold };
    // Also resets heldRequests().
    void setFault(Fault fault, const std::string& method);
    void release(); // lets held requests through
    int heldRequests() const { return m_held.load(); }

private:
    std::string forward(const std::string& body);

    std::string m_upstream;
    QString m_url;
    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_released;
    Fault m_fault = Fault::None;
    std::string m_method;
    bool m_releasedFlag = false;
    std::atomic<int> m_held{0};
};

} // namespace proofdesk::test
