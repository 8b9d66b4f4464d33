// libFuzzer target: the submit-request JSON validator. Any JSON either validates or is refused
// with a ServiceError of kind BadRequest (400) or Unprocessable (422) -- never another exception
// or a crash. What validates round-trips: its canonical form validates again to the same
// canonical form.

#include "core/BoundedJson.h"
#include "core/ServiceError.h"
#include "request/UserRequest.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const nlohmann::json body = core::parseJsonBounded(
        std::string_view(reinterpret_cast<const char*>(data), size)); // as the route parses
    if (body.is_discarded()) {
        return 0;
    }
    try {
        const request::UserRequest parsed = request::parseUserRequest(body);
        const nlohmann::json canonical = request::canonicalJson(parsed);
        const nlohmann::json again = request::canonicalJson(request::parseUserRequest(canonical));
        if (again != canonical) {
            std::abort();
        }
    } catch (const core::ServiceError& error) {
        if (error.kind() != core::ErrorKind::BadRequest &&
            error.kind() != core::ErrorKind::Unprocessable) {
            std::abort();
        }
    }
    return 0;
}
