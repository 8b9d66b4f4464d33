// libFuzzer target: the submit-request JSON validator. Any JSON either validates or is refused
// with a BodyError (400 or 422) -- never another exception
// or a crash. What validates round-trips: its canonical form validates again to the same
// canonical form.

#include "api/RequestBodies.h"
#include "core/BoundedJson.h"

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
        const api::UserRequest parsed = api::parseUserRequest(body);
        const nlohmann::json canonical = api::canonicalJson(parsed);
        const nlohmann::json again = api::canonicalJson(api::parseUserRequest(canonical));
        if (again != canonical) {
            std::abort();
        }
    } catch (const api::BodyError&) {
        // refused with its status and code (400 or 422): anything else escapes and aborts
    }
    return 0;
}
