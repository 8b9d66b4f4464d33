// libFuzzer target: multipart/form-data bodies as the server sees them. A real LocalServer runs
// in-process on a loopback port; each input is POSTed as the body of /core-query and of
// /v1/trace-generation (boundary "fuzzboundary", a valid API key), so the HTTP library's
// multipart parser, our part checks and the proof service's validation all run. Every answer
// must be JSON and never a 500 INTERNAL_SERVER_ERROR; a crash of the server is a crash here.

#include "auth/ApiKeyRegistry.h"
#include "server/LocalServer.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace proofdesk;

namespace {

// On tmpfs when there is one: every accepted submission is written with fsync.
QString scratchTemplate() {
    return QFileInfo(QStringLiteral("/dev/shm")).isWritable()
               ? QStringLiteral("/dev/shm/proofdesk-fuzz-XXXXXX")
               : QDir::tempPath() + QStringLiteral("/proofdesk-fuzz-XXXXXX");
}

struct Fixture {
    QTemporaryDir dir{scratchTemplate()};
    std::unique_ptr<server::LocalServer> server;
    std::unique_ptr<httplib::Client> client;
    std::string key;
    Fixture() {
        server::ServerOptions options;
        options.dataDir = dir.path();
        options.listen = {QStringLiteral("127.0.0.1"), 0};
        options.jobWorkers = 1;
        options.provers.engine = QStringLiteral("none");
        options.provers.maxSteps = 10000;
        server = std::make_unique<server::LocalServer>(options);
        QString error;
        if (!server->start(&error)) {
            std::abort();
        }
        const QString project = server->apiKeys().adminProjectNamed(QStringLiteral("fuzz"));
        key = server->apiKeys()
                  .mintKey(project, QStringLiteral("fuzz"), QStringLiteral("#000000"))
                  .apiKey;
        client = std::make_unique<httplib::Client>(server->mainUrl().toStdString());
        client->set_keep_alive(true);
        client->set_tcp_nodelay(true); // headers and body go out in two writes
        client->set_read_timeout(std::chrono::seconds(30));
    }
};

void check(const httplib::Result& result) {
    if (!result) {
        return; // the connection was refused or reset: the library gave up on the body
    }
    const nlohmann::json body = nlohmann::json::parse(result->body, nullptr, false);
    if (result->status == 500 || body.is_discarded()) {
        std::fprintf(stderr, "HTTP %d: %s\n", result->status, result->body.c_str());
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Fixture fixture;
    const std::string body(reinterpret_cast<const char*>(data), size);
    const std::string type = "multipart/form-data; boundary=fuzzboundary";
    check(fixture.client->Post("/core-query", {{"api-key", fixture.key}}, body, type));
    check(fixture.client->Post("/v1/trace-generation?apiKey=" + fixture.key, body, type));
    return 0;
}
