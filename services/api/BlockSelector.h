#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::api {

// A chain-data selector (docs/api.md): timestamp:<t>, block:<n> or block_ranges:<a>-<b>,<c>,...
struct BlockSelector {
    enum class Kind { Timestamp, Block, Ranges };
    Kind kind = Kind::Block;
    std::string text;                                          // as given (it is the map key)
    std::int64_t value = 0;                                    // Timestamp, Block
    std::vector<std::pair<std::int64_t, std::int64_t>> ranges; // Ranges, inclusive
};

// Parses one selector key; `path` names it in errors. Throws BodyError 422
// (INVALID_SELECTOR, INVALID_BLOCK_RANGES, TOO_MANY_BLOCK_RANGES, TOO_MANY_BLOCKS).
BlockSelector parseBlockSelector(const std::string& text, const std::string& path = "selector");

// Blocks named by ranges, in ascending order, merged.
std::vector<std::pair<std::int64_t, std::int64_t>>
mergeRanges(std::vector<std::pair<std::int64_t, std::int64_t>> ranges);

// At most this many blocks per chain in one request.
constexpr std::int64_t kMaxBlocksPerQuery = 100000;
// A block_ranges selector lists at most this many ranges (checked before any is parsed).
constexpr std::size_t kMaxRangesPerSelector = 1000;

} // namespace proofdesk::api
