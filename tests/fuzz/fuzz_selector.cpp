// libFuzzer target: the block selector grammar (timestamp:, block:, block_ranges:), read in one
// pass. Any text parses or is refused with a BodyError (422); a
// parsed selector keeps its text and its ranges are sorted and within the block limit.

#include "api/RequestBodies.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const api::BlockSelector selector = api::parseBlockSelector(text);
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
        if (total > api::kMaxBlocksPerQuery ||
            selector.ranges.size() > api::kMaxRangesPerSelector) {
            std::abort();
        }
    } catch (const api::BodyError& error) {
        if (error.status() != api::BodyError::Status::Unprocessable) {
            std::abort();
        }
    }
    return 0;
}
