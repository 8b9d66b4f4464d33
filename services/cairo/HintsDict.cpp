// Native hints of starkware.cairo.common.dict / default_dict (the DictManager).

#include "HintProcessor.h"

#include <map>

namespace proofdesk::cairo {
namespace {

struct DictTracker {
    std::map<std::string, Value> data; // by the key's text (felt hex or address)
    std::optional<Value> defaultValue;
    Relocatable currentPtr;
};

struct DictManager {
    std::map<std::int64_t, DictTracker> trackers; // by segment index

    Relocatable newDict(Memory& memory, std::optional<Value> defaultValue) {
        const Relocatable base = memory.addSegment();
        trackers[base.segment] = DictTracker{{}, std::move(defaultValue), base};
        return base;
    }
    DictTracker& tracker(HintContext& ctx, const Relocatable& dictPtr) {
        auto it = trackers.find(dictPtr.segment);
        if (it == trackers.end()) {
            ctx.fail("no dict tracker for segment " + std::to_string(dictPtr.segment));
        }
        if (!(it->second.currentPtr == dictPtr)) {
            ctx.fail("wrong dict pointer: got " + dictPtr.toString() + ", expected " +
                     it->second.currentPtr.toString());
        }
        return it->second;
    }
};

Value lookup(HintContext& ctx, DictTracker& tracker, const Value& key) {
    auto it = tracker.data.find(key.toString());
    if (it != tracker.data.end()) {
        return it->second;
    }
    if (tracker.defaultValue) {
        return *tracker.defaultValue;
    }
    ctx.fail("dict key " + key.toString() + " not found");
}

constexpr std::int64_t kDictAccessSize = 3;

} // namespace

void registerDictHints(HintRegistry& r) {
    r.add(R"(if '__dict_manager' not in globals():
    from starkware.cairo.common.dict import DictManager
    __dict_manager = DictManager()

memory[ap] = __dict_manager.new_default_dict(segments, ids.default_value))",
          [](HintContext& ctx) {
              auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
              ctx.memory().set(ctx.vm().ap,
                               manager.newDict(ctx.memory(), ctx.ids("default_value")));
          });

    r.add(R"(dict_tracker = __dict_manager.get_tracker(ids.dict_ptr)
dict_tracker.current_ptr += ids.DictAccess.SIZE
ids.value = dict_tracker.data[ids.key])",
          [](HintContext& ctx) {
              auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
              DictTracker& tracker = manager.tracker(ctx, ctx.idsAddress("dict_ptr"));
              tracker.currentPtr = tracker.currentPtr + kDictAccessSize;
              ctx.setIds("value", lookup(ctx, tracker, ctx.ids("key")));
          });

    r.add(R"(dict_tracker = __dict_manager.get_tracker(ids.dict_ptr)
dict_tracker.current_ptr += ids.DictAccess.SIZE
ids.dict_ptr.prev_value = dict_tracker.data[ids.key]
dict_tracker.data[ids.key] = ids.new_value)",
          [](HintContext& ctx) {
              auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
              DictTracker& tracker = manager.tracker(ctx, ctx.idsAddress("dict_ptr"));
              tracker.currentPtr = tracker.currentPtr + kDictAccessSize;
              const Value key = ctx.ids("key");
              ctx.setIds("dict_ptr.prev_value", lookup(ctx, tracker, key));
              tracker.data[key.toString()] = ctx.ids("new_value");
          });
}

} // namespace proofdesk::cairo
