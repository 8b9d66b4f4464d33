#include "BlockSelector.h"

#include "BodyError.h"

#include <algorithm>
#include <limits>
#include <string_view>

namespace proofdesk::api {
namespace {

[[noreturn]] void invalid(const char* code, const std::string& detail) {
    throw BodyError(code, detail, BodyError::Status::Unprocessable);
}
// The text of a selector as error messages quote it: never more than 80 characters of it.
std::string shown(const std::string& text) {
    return "\"" + (text.size() > 80 ? text.substr(0, 80) + "..." : text) + "\"";
}

std::int64_t parseBlockNumber(const std::string& digits, const std::string& path) {
    if (digits.size() > 19) {
        invalid("INVALID_SELECTOR", path + ": " + shown(digits) + " is not an int64");
    }
    const unsigned long long value = std::stoull(digits);
    if (value > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())) {
        invalid("INVALID_SELECTOR", path + ": " + digits + " is not an int64");
    }
    return std::int64_t(value);
}

bool allDigits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

BlockSelector parseBlockSelector(const std::string& text, const std::string& path) {
    // The selector grammar: timestamp:<n> | block:<n> | block_ranges:<n>[-<n>](,<n>[-<n>])*, read
    // in one pass (no regular expression: a backtracking engine recursed once per list item).
    const auto refuse = [&] {
        invalid("INVALID_SELECTOR",
                path + ": " + shown(text) +
                    " is not timestamp:<unix time>, block:<number> or "
                    "block_ranges:<start>-<end>,<start>-<end> (a single number is allowed in "
                    "the list)");
    };
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos) {
        refuse();
    }
    const std::string kind = text.substr(0, colon);
    const std::string_view rest = std::string_view(text).substr(colon + 1);
    BlockSelector selector;
    selector.text = text;
    if (kind == "timestamp" || kind == "block") {
        if (!allDigits(rest)) {
            refuse();
        }
        selector.kind =
            kind == "block" ? BlockSelector::Kind::Block : BlockSelector::Kind::Timestamp;
        selector.value = parseBlockNumber(std::string(rest), path);
        return selector;
    }
    if (kind != "block_ranges") {
        refuse();
    }
    // Checked before any work: the list's length, then each item's shape.
    if (static_cast<std::size_t>(std::count(rest.begin(), rest.end(), ',')) >=
        kMaxRangesPerSelector) {
        invalid("TOO_MANY_BLOCK_RANGES", path + ": more than " +
                                             std::to_string(kMaxRangesPerSelector) +
                                             " ranges in one selector");
    }
    selector.kind = BlockSelector::Kind::Ranges;
    std::size_t at = 0;
    std::int64_t total = 0;
    while (at <= rest.size()) {
        const std::size_t comma = std::min(rest.find(',', at), rest.size());
        const std::string item(rest.substr(at, comma - at));
        const std::size_t dash = item.find('-');
        const std::string first = item.substr(0, dash);
        const std::string last = dash == std::string::npos ? first : item.substr(dash + 1);
        if (!allDigits(first) || !allDigits(last)) {
            refuse();
        }
        const std::int64_t start = parseBlockNumber(first, path);
        const std::int64_t end = parseBlockNumber(last, path);
        if (end < start) {
            invalid("INVALID_BLOCK_RANGES",
                    path + ": the range " + item + " ends before it starts");
        }
        if (!selector.ranges.empty() && start <= selector.ranges.back().second) {
            invalid("INVALID_BLOCK_RANGES",
                    path + ": ranges must be sorted and must not overlap (" + item +
                        " starts at or before the end of the previous range)");
        }
        selector.ranges.emplace_back(start, end);
        total += end - start + 1;
        if (total > kMaxBlocksPerQuery) {
            invalid("TOO_MANY_BLOCKS", path + ": more than " + std::to_string(kMaxBlocksPerQuery) +
                                           " blocks in one request");
        }
        at = comma + 1;
    }
    return selector;
}

std::vector<std::pair<std::int64_t, std::int64_t>>
mergeRanges(std::vector<std::pair<std::int64_t, std::int64_t>> ranges) {
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<std::int64_t, std::int64_t>> merged;
    for (const auto& range : ranges) {
        if (!merged.empty() && range.first <= merged.back().second + 1) {
            merged.back().second = std::max(merged.back().second, range.second);
        } else {
            merged.push_back(range);
        }
    }
    return merged;
}

} // namespace proofdesk::api
