// libFuzzer target: the depth-limited JSON reader every outside document goes through. Any
// bytes parse or are refused with a reason; what parses is never nested deeper than the limit,
// dumps, and reads back to the same value.

#include "core/BoundedJson.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk;

namespace {

int depthOf(const nlohmann::json& value) {
    int deepest = 0;
    std::vector<std::pair<const nlohmann::json*, int>> stack = {{&value, 0}};
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        if (node->is_structured()) {
            deepest = std::max(deepest, depth + 1);
            for (const auto& child : *node) {
                stack.emplace_back(&child, depth + 1);
            }
        }
    }
    return deepest;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const bool exact : {false, true}) {
        std::string why;
        const nlohmann::json value =
            core::parseJsonBounded(text, &why, core::JsonLimits{core::kMaxJsonDepth, exact});
        if (value.is_discarded()) {
            if (why.empty()) {
                std::abort();
            }
            continue;
        }
        if (depthOf(value) > core::kMaxJsonDepth) {
            std::abort();
        }
        const std::string dumped =
            value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        const nlohmann::json again =
            core::parseJsonBounded(dumped, nullptr, core::JsonLimits{core::kMaxJsonDepth, exact});
        if (again.is_discarded()) {
            std::abort();
        }
    }
    return 0;
}
