#include "TestHttp.h"

#include <httplib.h>

namespace proofdesk::test {
namespace {

Reply toReply(const httplib::Result& result) {
    Reply reply;
    if (!result) {
        reply.status = -1;
        reply.body = httplib::to_string(result.error());
        return reply;
    }
    reply.status = result->status;
    reply.body = result->body;
    for (const auto& [name, value] : result->headers) {
        reply.headers.emplace(name, value);
    }
    return reply;
}

httplib::Headers toHeaders(const Headers& headers) {
    httplib::Headers out;
    for (const auto& [name, value] : headers) {
        out.emplace(name, value);
    }
    return out;
}

} // namespace

nlohmann::json Reply::json() const {
    nlohmann::json value = nlohmann::json::parse(body, nullptr, false);
    return value.is_discarded() ? nlohmann::json() : value;
}

std::string Reply::header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

TestHttp::TestHttp(const QString& baseUrl)
    : m_client(std::make_unique<httplib::Client>(baseUrl.toStdString())) {
    m_client->set_keep_alive(true);
    m_client->set_tcp_nodelay(true);
    m_client->set_read_timeout(30, 0);
}

TestHttp::~TestHttp() = default;

Reply TestHttp::get(const std::string& path, const Headers& headers) {
    return toReply(m_client->Get(path, toHeaders(headers)));
}

Reply TestHttp::post(const std::string& path, const std::string& body, const Headers& headers,
                     const std::string& contentType) {
    return toReply(m_client->Post(path, toHeaders(headers), body, contentType));
}

Reply TestHttp::postJson(const std::string& path, const nlohmann::json& body,
                         const Headers& headers) {
    return post(path, body.dump(), headers);
}

Reply TestHttp::postMultipart(const std::string& path, const std::vector<Part>& parts,
                              const Headers& headers) {
    httplib::MultipartFormDataItems items;
    for (const Part& part : parts) {
        items.push_back({part.name, part.content, part.filename, part.contentType});
    }
    return toReply(m_client->Post(path, toHeaders(headers), items));
}

Reply TestHttp::send(const std::string& method, const std::string& path) {
    httplib::Request request;
    request.method = method;
    request.path = path;
    return toReply(m_client->send(request));
}

} // namespace proofdesk::test
