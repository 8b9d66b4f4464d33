#include "JsonRpcClient.h"
#include "core/BoundedJson.h"

#include "ChainError.h"

#include <httplib.h>

#include <QUrl>

#include <chrono>
#include <map>
#include <thread>

namespace proofdesk::chain {

JsonRpcClient::JsonRpcClient(const QString& url, RpcSettings settings)
    : m_url(url), m_settings(settings) {
    const QUrl parsed(url);
    if (!parsed.isValid() ||
        (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https")) ||
        parsed.host().isEmpty()) {
        throw ChainError("the RPC URL " + url.toStdString() + " is not an http(s) URL");
    }
    const int defaultPort = parsed.scheme() == QLatin1String("https") ? 443 : 80;
    const QString originText = parsed.scheme() + QStringLiteral("://") + parsed.host() +
                               QStringLiteral(":") + QString::number(parsed.port(defaultPort));
    const std::string origin = originText.toStdString();
    m_path = parsed.path(QUrl::FullyEncoded).toStdString();
    if (m_path.empty()) {
        m_path = "/";
    }
    if (parsed.hasQuery()) {
        m_path += "?" + parsed.query(QUrl::FullyEncoded).toStdString();
    }
    m_http = std::make_unique<httplib::Client>(origin);
    const auto timeout = std::chrono::milliseconds(m_settings.timeoutMs);
    m_http->set_connection_timeout(timeout);
    m_http->set_read_timeout(timeout);
    m_http->set_write_timeout(timeout);
    m_http->set_keep_alive(true);
    m_http->set_follow_location(false);
}

JsonRpcClient::~JsonRpcClient() = default;

nlohmann::json JsonRpcClient::post(const nlohmann::json& body, const std::string& what) {
    const std::string text = body.dump();
    std::string lastProblem;
    int backoff = m_settings.backoffMs;
    for (int attempt = 1; attempt <= m_settings.attempts; ++attempt) {
        if (attempt > 1) {
            if (m_cancelled && m_cancelled()) {
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(backoff));
            backoff *= 2;
        }
        const httplib::Result result = m_http->Post(m_path, text, "application/json");
        if (!result) {
            lastProblem = "no answer (" + httplib::to_string(result.error()) + ")";
            continue;
        }
        const int status = result->status;
        if (status == 429 || status >= 500) {
            lastProblem = "HTTP " + std::to_string(status);
            continue;
        }
        if (status != 200) {
            throw ChainError("the RPC at " + m_url.toStdString() + " answered " + what +
                             " with HTTP " + std::to_string(status));
        }
        nlohmann::json parsed = core::parseJsonBounded(result->body);
        if (parsed.is_discarded()) {
            throw ChainError("the RPC at " + m_url.toStdString() + " answered " + what +
                             " with malformed JSON: " + result->body.substr(0, 120));
        }
        return parsed;
    }
    throw ChainError("the RPC at " + m_url.toStdString() + " did not answer " + what + " after " +
                         std::to_string(m_settings.attempts) + " attempts: " + lastProblem,
                     true);
}

namespace {

nlohmann::json resultOf(const nlohmann::json& response, const std::string& method,
                        const QString& url) {
    if (!response.is_object()) {
        throw ChainError("the RPC at " + url.toStdString() + " answered " + method +
                         " with something other than a JSON-RPC response");
    }
    if (const auto error = response.find("error"); error != response.end() && !error->is_null()) {
        std::string message =
            error->is_object() && error->contains("message") && (*error)["message"].is_string()
                ? (*error)["message"].get<std::string>()
                : error->dump();
        throw ChainError("the RPC at " + url.toStdString() + " refused " + method + ": " + message);
    }
    const auto result = response.find("result");
    if (result == response.end()) {
        throw ChainError("the RPC at " + url.toStdString() + " answered " + method +
                         " without a result");
    }
    return *result;
}

} // namespace

nlohmann::json JsonRpcClient::call(const std::string& method, const nlohmann::json& params) {
    const nlohmann::json body{
        {"jsonrpc", "2.0"}, {"id", m_nextId++}, {"method", method}, {"params", params}};
    return resultOf(post(body, method), method, m_url);
}

std::vector<nlohmann::json> JsonRpcClient::batch(const std::vector<RpcCall>& calls) {
    std::vector<nlohmann::json> results(calls.size());
    const std::size_t chunk = std::size_t(std::max(1, m_settings.batchSize));
    for (std::size_t start = 0; start < calls.size(); start += chunk) {
        const std::size_t end = std::min(calls.size(), start + chunk);
        nlohmann::json body = nlohmann::json::array();
        std::map<long long, std::size_t> slotOfId;
        for (std::size_t i = start; i < end; ++i) {
            const long long id = m_nextId++;
            slotOfId[id] = i;
            body.push_back({{"jsonrpc", "2.0"},
                            {"id", id},
                            {"method", calls[i].method},
                            {"params", calls[i].params}});
        }
        const std::string what =
            "a batch of " + std::to_string(end - start) + " " + calls[start].method + " calls";
        const nlohmann::json answer = post(body, what);
        if (!answer.is_array()) {
            // A node that does not batch answers with one error object.
            resultOf(answer, what, m_url);
            throw ChainError("the RPC at " + m_url.toStdString() + " answered " + what +
                             " with something other than an array");
        }
        std::size_t answered = 0;
        for (const nlohmann::json& response : answer) {
            const auto id = response.is_object() ? response.find("id") : response.end();
            if (id == response.end() || !id->is_number_integer() ||
                !slotOfId.count(id->get<long long>())) {
                throw ChainError("the RPC at " + m_url.toStdString() + " answered " + what +
                                 " with an unknown id");
            }
            const std::size_t slot = slotOfId[id->get<long long>()];
            results[slot] = resultOf(response, calls[slot].method, m_url);
            ++answered;
        }
        if (answered != end - start) {
            throw ChainError("the RPC at " + m_url.toStdString() + " answered " +
                             std::to_string(answered) + " of " + what);
        }
    }
    return results;
}

} // namespace proofdesk::chain
