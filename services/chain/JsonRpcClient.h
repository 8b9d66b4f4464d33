#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace httplib {
class Client;
}

namespace proofdesk::chain {

struct RpcSettings {
    int timeoutMs = 15000; // connect, read and write, per HTTP exchange
    int attempts = 3;      // per call, for transient failures (no answer, HTTP 429 or 5xx)
    int backoffMs = 200;   // doubled after every failed attempt
    int batchSize = 200;   // calls per JSON-RPC batch
};

struct RpcCall {
    std::string method;
    nlohmann::json params;
};

// A synchronous Ethereum JSON-RPC 2.0 client over HTTP(S), for the request service's worker
// threads: timeouts, retries with backoff for transient failures, and batching. Errors are
// ChainErrors whose reason names the URL and the method; transient() tells whether trying the
// whole action again may help.
class JsonRpcClient {
public:
    JsonRpcClient(const QString& url, RpcSettings settings = {});
    ~JsonRpcClient();
    JsonRpcClient(const JsonRpcClient&) = delete;
    JsonRpcClient& operator=(const JsonRpcClient&) = delete;

    // Returns the call's "result" (which may be null).
    nlohmann::json call(const std::string& method, const nlohmann::json& params);
    // Results in the order of `calls`, sent in batches of settings.batchSize.
    std::vector<nlohmann::json> batch(const std::vector<RpcCall>& calls);

    // Polled between retries; returning true gives up at once (the job engine is stopping).
    void setCancelled(std::function<bool()> cancelled) { m_cancelled = std::move(cancelled); }
    const QString& url() const { return m_url; }

private:
    nlohmann::json post(const nlohmann::json& body, const std::string& what);

    QString m_url;
    std::string m_path;
    RpcSettings m_settings;
    std::unique_ptr<httplib::Client> m_http;
    std::function<bool()> m_cancelled;
    long long m_nextId = 1;
};

} // namespace proofdesk::chain
