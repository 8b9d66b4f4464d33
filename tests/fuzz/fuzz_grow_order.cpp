// libFuzzer target: POST /grow-orders bodies through the real route table (key check, JSON
// parsing, CreateGrowOrder validation) on a scratch store with no chain RPC configured. The
// answer must be 400 with {message} (every refusal of that route), never a 500 from an
// unexpected exception, and never a crash.

#include "auth/ApiKeyRegistry.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "http/Router.h"
#include "request/RequestService.h"
#include "routes/GrowOrderRoutes.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk;

namespace {

struct Fixture {
    QTemporaryDir dir;
    core::SystemClock clock;
    core::Store store{dir.filePath(QStringLiteral("fuzz.sqlite"))};
    auth::ApiKeyRegistry keys{store, clock};
    core::JobEngine jobs{store, clock, 1};
    request::RequestService requests{store, clock, jobs, {}, {}};
    http::Router router;
    std::string key;
    Fixture() {
        routes::addGrowOrderRoutes(router, requests, keys);
        const QString project = keys.adminProjectNamed(QStringLiteral("fuzz"));
        key = keys.mintKey(project, QStringLiteral("fuzz"), QStringLiteral("#000000")).apiKey;
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Fixture fixture;
    http::HttpRequest request;
    request.method = "POST";
    request.path = "/grow-orders";
    request.headers.emplace("api-key", fixture.key);
    request.headers.emplace("content-type", "application/json");
    request.body.assign(reinterpret_cast<const char*>(data), size);
    const http::HttpResponse response =
        fixture.router.dispatch(request, {http::RouteGroup::Request});
    const nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
    if (response.status != 400 || body.is_discarded() || !body.contains("message") ||
        body["message"] == "INTERNAL_SERVER_ERROR") {
        std::abort();
    }
    return 0;
}
