#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace httplib {
class Client;
}

namespace proofdesk::test {

struct Reply {
    int status = 0;
    std::string body;
    std::multimap<std::string, std::string> headers;
    nlohmann::json json() const; // null if the body is not JSON
    std::string header(const std::string& name) const;
};

using Headers = std::multimap<std::string, std::string>;

// One part of a multipart/form-data body; a file part has a filename.
struct Part {
    std::string name;
    std::string content;
    std::string filename = {};
    std::string contentType = {};
};

// A blocking HTTP client for tests (keep-alive, loopback).
class TestHttp {
public:
    explicit TestHttp(const QString& baseUrl);
    ~TestHttp();

    Reply get(const std::string& path, const Headers& headers = {});
    Reply post(const std::string& path, const std::string& body, const Headers& headers = {},
               const std::string& contentType = "application/json");
    Reply postJson(const std::string& path, const nlohmann::json& body,
                   const Headers& headers = {});
    Reply postMultipart(const std::string& path, const std::vector<Part>& parts,
                        const Headers& headers = {});
    Reply send(const std::string& method, const std::string& path);

private:
    std::unique_ptr<httplib::Client> m_client;
};

} // namespace proofdesk::test

// Compares two JSON values by their canonical dump (QCOMPARE cannot take nlohmann::json).
#define COMPARE_JSON(actual, expected)                                                             \
    QCOMPARE(nlohmann::json(actual).dump(), nlohmann::json(expected).dump())
