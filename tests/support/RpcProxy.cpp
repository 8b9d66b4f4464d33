#include "RpcProxy.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace proofdesk::test {

RpcProxy::RpcProxy(const QString& upstream)
    : m_upstream(upstream.toStdString()), m_server(std::make_unique<httplib::Server>()) {
    m_server->Post("/", [this](const httplib::Request& request, httplib::Response& response) {
        Fault fault;
        std::string method;
        {
            std::lock_guard lock(m_mutex);
            fault = m_fault;
            method = m_method;
        }
        const bool hit =
            fault != Fault::None && request.body.find("\"" + method + "\"") != std::string::npos;
        if (hit && fault == Fault::Unavailable) {
            response.status = 503;
            response.set_content("upstream unavailable", "text/plain");
            return;
        }
        if (hit && fault == Fault::Malformed) {
            response.set_content("{\"jsonrpc\":\"2.0\",\"id\":", "application/json");
            return;
        }
        if (hit && fault == Fault::Hold) {
            ++m_held;
            std::unique_lock lock(m_mutex);
            m_released.wait_for(lock, std::chrono::seconds(30), [this] { return m_releasedFlag; });
        }
        std::string answer = forward(request.body);
        if (hit && fault == Fault::TamperHeader) {
            nlohmann::json parsed = nlohmann::json::parse(answer);
            auto tamper = [](nlohmann::json& item) {
                if (item.contains("result") && item["result"].is_object()) {
                    item["result"]["gasUsed"] = "0x1234";
                }
            };
            if (parsed.is_array()) {
                for (auto& item : parsed) {
                    tamper(item);
                }
            } else {
                tamper(parsed);
            }
            answer = parsed.dump();
        }
        response.set_content(answer, "application/json");
    });
    const int port = m_server->bind_to_any_port("127.0.0.1");
    m_url = QStringLiteral("http://127.0.0.1:%1").arg(port);
    m_thread = std::thread([this] { m_server->listen_after_bind(); });
    while (!m_server->is_running()) {
        std::this_thread::yield();
    }
}

RpcProxy::~RpcProxy() {
    release();
    m_server->stop();
    m_thread.join();
}

void RpcProxy::setFault(Fault fault, const std::string& method) {
    std::lock_guard lock(m_mutex);
    m_fault = fault;
    m_method = method;
    m_releasedFlag = false;
    m_held = 0;
}

void RpcProxy::release() {
    {
        std::lock_guard lock(m_mutex);
        m_releasedFlag = true;
    }
    m_released.notify_all();
}

std::string RpcProxy::forward(const std::string& body) {
    httplib::Client client(m_upstream);
    client.set_read_timeout(std::chrono::seconds(30));
    const auto reply = client.Post("/", body, "application/json");
    return reply ? reply->body : std::string("{}");
}

} // namespace proofdesk::test
