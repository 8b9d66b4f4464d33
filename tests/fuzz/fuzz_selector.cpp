// libFuzzer target: the block selector grammar (timestamp:, block:, block_ranges:), read in one
// pass. Any text parses or is refused with a ServiceError of kind BadRequest or Unprocessable; a
// parsed selector keeps its text and its ranges are sorted and within the block limit.

#include "core/ServiceError.h"
#include "request/UserRequest.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const request::BlockSelector selector = request::parseBlockSelector(text);
        if (selector.text != text) {
            std::abort();
        }
        std::int64_t total = 0;
        for (std::size_t i = 0; i < selector.ranges.size(); ++i) {
            const auto [start, end] = selector.ranges[i];
            if (end < start || (i > 0 && start <= selector.ranges[i - 1].second)) {
                std::abort();
            }
            total += end - start + 1;
        }
        if (total > request::kMaxBlocksPerQuery ||
            selector.ranges.size() > request::kMaxRangesPerSelector) {
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
