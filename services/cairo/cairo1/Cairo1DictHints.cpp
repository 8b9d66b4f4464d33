// Cairo 1's Felt252Dict hints: dictionaries in the segment arena (the first in a real segment,
// later ones in temporary segments the wrapper places after it), their entries, squashing them
// key by key, the arcs of felt252 comparisons, and the deprecated read and write.

#include "cairo/cairo1/Cairo1Hints.h"

#include <algorithm>

namespace proofdesk::cairo::cairo1 {
namespace {

using crypto::BigInt;

DictTracker& trackerOf(HintContext& c, const Relocatable& pointer) {
    const auto it = c.state().dicts.find(pointer.segment);
    if (it == c.state().dicts.end()) {
        c.fail("no dictionary lives at " + pointer.toString());
    }
    return it->second;
}

HintFn allocFelt252Dict(const nlohmann::json& f) {
    const ResOperand arena = resOperandOf(f.at("segment_arena_ptr"));
    return [=](HintContext& c) {
        const Relocatable sa = c.pointer(arena);
        const Felt index = c.feltAt(sa - 2);
        if (!index.fitsU64()) {
            c.fail("the segment arena's dictionary count is not a small number");
        }
        const Value infos = c.memory().get(sa - 3);
        if (!infos.isAddress()) {
            c.fail("the segment arena's infos pointer is not an address");
        }
        HintState& state = c.state();
        const Relocatable dict =
            state.firstDictAllocated ? c.memory().addTempSegment() : c.memory().addSegment();
        state.firstDictAllocated = true;
        if (!state.dicts.emplace(dict.segment, DictTracker{{}, index.low64()}).second) {
            c.fail("a dictionary segment was allocated twice");
        }
        c.write(infos.address() + static_cast<std::int64_t>(3 * index.low64()), dict);
    };
}

HintFn felt252DictEntryInit(const nlohmann::json& f) {
    const ResOperand dictPtr = resOperandOf(f.at("dict_ptr"));
    const ResOperand key = resOperandOf(f.at("key"));
    return [=](HintContext& c) {
        const Relocatable dp = c.pointer(dictPtr);
        const DictTracker& tracker = trackerOf(c, dp);
        const auto it = tracker.data.find(c.value(key));
        c.write(dp + 1, it == tracker.data.end() ? Value(Felt::zero()) : it->second);
    };
}

HintFn felt252DictEntryUpdate(const nlohmann::json& f) {
    const ResOperand dictPtr = resOperandOf(f.at("dict_ptr"));
    const ResOperand value = resOperandOf(f.at("value"));
    return [=](HintContext& c) {
        const Relocatable end = c.pointer(dictPtr); // just past the entry
        trackerOf(c, end).data[c.feltAt(end - 3)] = c.maybe(value);
    };
}

HintFn getSegmentArenaIndex(const nlohmann::json& f) {
    const ResOperand dictEnd = resOperandOf(f.at("dict_end_ptr"));
    const CellRef dst = cellRefOf(f.at("dict_index"));
    return [=](HintContext& c) {
        c.write(dst, Felt::fromU64(trackerOf(c, c.pointer(dictEnd)).arenaIndex));
    };
}

HintFn initSquashData(const nlohmann::json& f) {
    const ResOperand accesses = resOperandOf(f.at("dict_accesses"));
    const ResOperand count = resOperandOf(f.at("n_accesses"));
    const CellRef bigKeys = cellRefOf(f.at("big_keys"));
    const CellRef firstKey = cellRefOf(f.at("first_key"));
    return [=](HintContext& c) {
        const Relocatable start = c.pointer(accesses);
        const Felt n = c.value(count);
        if (!n.fitsU64() || n.low64() == 0 || n.low64() > (std::uint64_t{1} << 32)) {
            c.fail("InitSquashData's access count is not a positive small number");
        }
        HintState& state = c.state();
        state.accessIndices.clear();
        for (std::uint64_t i = 0; i < n.low64(); ++i) {
            state.accessIndices[c.feltAt(start + static_cast<std::int64_t>(3 * i))].push_back(i);
        }
        state.keys.clear();
        for (auto& [key, indices] : state.accessIndices) {
            std::reverse(indices.begin(), indices.end()); // the current index is the last
            state.keys.push_back(key);
        }
        std::reverse(state.keys.begin(), state.keys.end()); // descending: the current key is last
        const Felt bound = Felt::powerOfTwo(128);
        c.write(bigKeys, Felt::fromU64(bound <= state.keys.front() ? 1 : 0));
        c.write(firstKey, state.keys.back());
    };
}

std::vector<std::uint64_t>& currentIndices(HintContext& c) {
    HintState& state = c.state();
    if (state.keys.empty()) {
        c.fail("no dictionary is being squashed");
    }
    return state.accessIndices[state.keys.back()];
}

HintFn getCurrentAccessIndex(const nlohmann::json& f) {
    const ResOperand rangeCheck = resOperandOf(f.at("range_check_ptr"));
    return [=](HintContext& c) {
        const std::vector<std::uint64_t>& indices = currentIndices(c);
        if (indices.empty()) {
            c.fail("the current key has no access left");
        }
        c.write(c.pointer(rangeCheck), Felt::fromU64(indices.back()));
    };
}

HintFn shouldSkipSquashLoop(const nlohmann::json& f) {
    const CellRef dst = cellRefOf(f.at("should_skip_loop"));
    return
        [=](HintContext& c) { c.write(dst, Felt::fromU64(currentIndices(c).size() > 1 ? 0 : 1)); };
}

HintFn getCurrentAccessDelta(const nlohmann::json& f) {
    const CellRef dst = cellRefOf(f.at("index_delta_minus1"));
    return [=](HintContext& c) {
        std::vector<std::uint64_t>& indices = currentIndices(c);
        if (indices.size() < 2) {
            c.fail("the current key has no next access");
        }
        const std::uint64_t previous = indices.back();
        indices.pop_back();
        c.write(dst, Felt::fromU64(indices.back() - previous - 1));
    };
}

HintFn shouldContinueSquashLoop(const nlohmann::json& f) {
    const CellRef dst = cellRefOf(f.at("should_continue"));
    return
        [=](HintContext& c) { c.write(dst, Felt::fromU64(currentIndices(c).size() > 1 ? 1 : 0)); };
}

HintFn getNextDictKey(const nlohmann::json& f) {
    const CellRef dst = cellRefOf(f.at("next_key"));
    return [=](HintContext& c) {
        HintState& state = c.state();
        if (currentIndices(c).size() != 1) {
            c.fail("a key was left before all its accesses were processed");
        }
        state.accessIndices.erase(state.keys.back());
        state.keys.pop_back();
        if (state.keys.empty()) {
            c.fail("no keys left but accesses remain");
        }
        c.write(dst, state.keys.back());
    };
}

// a <= b by two short arcs of the circle 0..p: writes the quotients and remainders the range
// checks take, and remembers which arc (the longest) was left out.
HintFn assertLeFindSmallArcs(const nlohmann::json& f) {
    const ResOperand rangeCheck = resOperandOf(f.at("range_check_ptr"));
    const ResOperand aOperand = resOperandOf(f.at("a"));
    const ResOperand bOperand = resOperandOf(f.at("b"));
    return [=](HintContext& c) {
        const Felt a = c.value(aOperand);
        const Felt b = c.value(bOperand);
        std::vector<std::pair<BigInt, int>> arcs = {{BigInt::fromFelt(a), 0},
                                                    {BigInt::fromFelt(b - a), 1},
                                                    {BigInt::fromFelt(-Felt::one() - b), 2}};
        std::sort(arcs.begin(), arcs.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first < y.first : x.second < y.second;
        });
        c.state().excludedArc = arcs[2].second;
        static const BigInt third = *BigInt::parse("3544607988759775765608368578435044694");
        static const BigInt half = *BigInt::parse("5316911983139663648412552867652567041");
        const Relocatable rc = c.pointer(rangeCheck);
        const auto [q0, r0] = BigInt::divmod(arcs[0].first, third);
        const auto [q1, r1] = BigInt::divmod(arcs[1].first, half);
        c.write(rc, r0.toFelt());
        c.write(rc + 1, q0.toFelt());
        c.write(rc + 2, r1.toFelt());
        c.write(rc + 3, q1.toFelt());
    };
}

HintFn arcExcluded(const nlohmann::json& f, const char* field, int arc) {
    const CellRef dst = cellRefOf(f.at(field));
    return [=](HintContext& c) {
        if (!c.state().excludedArc) {
            c.fail("no arcs were found for this comparison");
        }
        c.write(dst, Felt::fromU64(*c.state().excludedArc != arc ? 1 : 0));
    };
}

// The deprecated dictionary read and write (old contract classes).
HintFn felt252DictRead(const nlohmann::json& f) {
    const ResOperand dictPtr = resOperandOf(f.at("dict_ptr"));
    const ResOperand key = resOperandOf(f.at("key"));
    const CellRef dst = cellRefOf(f.at("value_dst"));
    return [=](HintContext& c) {
        const DictTracker& tracker = trackerOf(c, c.pointer(dictPtr));
        const auto it = tracker.data.find(c.value(key));
        c.write(dst, it == tracker.data.end() ? Value(Felt::zero()) : it->second);
    };
}

HintFn felt252DictWrite(const nlohmann::json& f) {
    const ResOperand dictPtr = resOperandOf(f.at("dict_ptr"));
    const ResOperand key = resOperandOf(f.at("key"));
    const ResOperand value = resOperandOf(f.at("value"));
    return [=](HintContext& c) {
        const Relocatable dp = c.pointer(dictPtr);
        DictTracker& tracker = trackerOf(c, dp);
        const Felt k = c.value(key);
        const auto it = tracker.data.find(k);
        c.write(dp + 1, it == tracker.data.end() ? Value(Felt::zero()) : it->second);
        tracker.data[k] = c.maybe(value);
    };
}

HintFn noOp(const nlohmann::json&) {
    return [](HintContext&) {};
}

} // namespace

void addDictHints(HintTable& table) {
    table["AllocFelt252Dict"] = allocFelt252Dict;
    table["Felt252DictEntryInit"] = felt252DictEntryInit;
    table["Felt252DictEntryUpdate"] = felt252DictEntryUpdate;
    table["GetSegmentArenaIndex"] = getSegmentArenaIndex;
    table["InitSquashData"] = initSquashData;
    table["GetCurrentAccessIndex"] = getCurrentAccessIndex;
    table["ShouldSkipSquashLoop"] = shouldSkipSquashLoop;
    table["GetCurrentAccessDelta"] = getCurrentAccessDelta;
    table["ShouldContinueSquashLoop"] = shouldContinueSquashLoop;
    table["GetNextDictKey"] = getNextDictKey;
    table["AssertLeFindSmallArcs"] = assertLeFindSmallArcs;
    table["AssertLeIsFirstArcExcluded"] = [](const nlohmann::json& f) {
        return arcExcluded(f, "skip_exclude_a_flag", 0);
    };
    table["AssertLeIsSecondArcExcluded"] = [](const nlohmann::json& f) {
        return arcExcluded(f, "skip_exclude_b_minus_a", 1);
    };
    // Deprecated: old compilers' hints, kept so that old programs still run. The assertions they
    // made are the CASM's own checks, so they do nothing here (as in the compiler's runner).
    table["Felt252DictRead"] = felt252DictRead;
    table["Felt252DictWrite"] = felt252DictWrite;
    for (const char* name :
         {"AssertCurrentAccessIndicesIsEmpty", "AssertAllAccessesUsed", "AssertAllKeysUsed",
          "AssertLeAssertThirdArcExcluded", "AssertLtAssertValidInput"}) {
        table[name] = noOp;
    }
}

} // namespace proofdesk::cairo::cairo1
