// Native hints of starkware.cairo.common.dict / default_dict (the DictManager).

#include "cairo/hints/HintProcessor.h"

#include <algorithm>
#include <functional>
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

    Relocatable newDict(Memory& memory, std::optional<Value> defaultValue,
                        std::map<std::string, Value> initial = {}) {
        const Relocatable base = memory.addSegment();
        trackers[base.segment] = DictTracker{std::move(initial), std::move(defaultValue), base};
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

// Scope state of squash_dict: keys still to squash (descending; the next is at the back), the
// accesses of each key, and the accesses of the current key.
using AccessIndices = std::map<Felt, std::vector<std::uint64_t>>;

std::uint64_t smallInt(HintContext& ctx, const Felt& value, const std::string& what) {
    if (!value.fitsU64() || value.low64() > (1ULL << 40)) {
        ctx.fail(what + " is out of range: " + value.toDecimal());
    }
    return value.low64();
}

// dict.cairo: a new dictionary, reads and writes against its tracker, copying and the end of a
// squash.
void registerDictAccessHints(HintRegistry& r) {
    r.add(R"(if '__dict_manager' not in globals():
    from starkware.cairo.common.dict import DictManager
    __dict_manager = DictManager()

memory[ap] = __dict_manager.new_dict(segments, initial_dict)
del initial_dict)",
          [](HintContext& ctx) {
              auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
              auto initial = ctx.scopeVar<std::map<std::string, Value>>("initial_dict");
              ctx.scopes().erase("initial_dict");
              ctx.memory().set(ctx.vm().ap, manager.newDict(ctx.memory(), std::nullopt, initial));
          });

    r.add(R"(# Verify dict pointer and prev value.
dict_tracker = __dict_manager.get_tracker(ids.dict_ptr)
current_value = dict_tracker.data[ids.key]
assert current_value == ids.prev_value, \
    f'Wrong previous value in dict. Got {ids.prev_value}, expected {current_value}.'

# Update value.
dict_tracker.data[ids.key] = ids.new_value
dict_tracker.current_ptr += ids.DictAccess.SIZE)",
          [](HintContext& ctx) {
              auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
              DictTracker& tracker = manager.tracker(ctx, ctx.idsAddress("dict_ptr"));
              const Value key = ctx.ids("key");
              const Value current = lookup(ctx, tracker, key);
              if (!(current == ctx.ids("prev_value"))) {
                  ctx.fail("Wrong previous value in dict. Got " + ctx.ids("prev_value").toString() +
                           ", expected " + current.toString() + ".");
              }
              tracker.data[key.toString()] = ctx.ids("new_value");
              tracker.currentPtr = tracker.currentPtr + kDictAccessSize;
          });

    r.add(
        R"(# Prepare arguments for dict_new. In particular, the same dictionary values should be copied
# to the new (squashed) dictionary.
vm_enter_scope({
    # Make __dict_manager accessible.
    '__dict_manager': __dict_manager,
    # Create a copy of the dict, in case it changes in the future.
    'initial_dict': dict(__dict_manager.get_dict(ids.dict_accesses_end)),
}))",
        [](HintContext& ctx) {
            auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
            const DictTracker& tracker = manager.tracker(ctx, ctx.idsAddress("dict_accesses_end"));
            ctx.scopes().enter({{"initial_dict", tracker.data}});
        });

    r.add(R"(# Update the DictTracker's current_ptr to point to the end of the squashed dict.
__dict_manager.get_tracker(ids.squashed_dict_start).current_ptr = \
    ids.squashed_dict_end.address_)",
          [](HintContext& ctx) {
              auto& manager = ctx.scopes().global<DictManager>("__dict_manager");
              DictTracker& tracker = manager.tracker(ctx, ctx.idsAddress("squashed_dict_start"));
              tracker.currentPtr = ctx.idsAddress("squashed_dict_end");
          });
}

// dict_squash.cairo: the keys and their access indices.
void registerSquashHints(HintRegistry& r) {
    r.add(
        R"(dict_access_size = ids.DictAccess.SIZE
address = ids.dict_accesses.address_
assert ids.ptr_diff % dict_access_size == 0, \
    'Accesses array size must be divisible by DictAccess.SIZE'
n_accesses = ids.n_accesses
if '__squash_dict_max_size' in globals():
    assert n_accesses <= __squash_dict_max_size, \
        f'squash_dict() can only be used with n_accesses<={__squash_dict_max_size}. ' \
        f'Got: n_accesses={n_accesses}.'
# A map from key to the list of indices accessing it.
access_indices = {}
for i in range(n_accesses):
    key = memory[address + dict_access_size * i]
    access_indices.setdefault(key, []).append(i)
# Descending list of keys.
keys = sorted(access_indices.keys(), reverse=True)
# Are the keys used bigger than range_check bound.
ids.big_keys = 1 if keys[0] >= range_check_builtin.bound else 0
ids.first_key = key = keys.pop())",
        [](HintContext& ctx) {
            const Relocatable address = ctx.idsAddress("dict_accesses");
            const std::uint64_t ptrDiff = smallInt(ctx, ctx.idsFelt("ptr_diff"), "ptr_diff");
            if (ptrDiff % kDictAccessSize != 0) {
                ctx.fail("Accesses array size must be divisible by DictAccess.SIZE");
            }
            const std::uint64_t n = smallInt(ctx, ctx.idsFelt("n_accesses"), "n_accesses");
            AccessIndices indices;
            for (std::uint64_t i = 0; i < n; ++i) {
                const Felt key = ctx.memory()
                                     .get(address + static_cast<std::int64_t>(kDictAccessSize * i))
                                     .felt();
                indices[key].push_back(i);
            }
            if (indices.empty()) {
                ctx.fail("squash_dict: no accesses");
            }
            std::vector<Felt> keys; // descending; pop_back() takes the smallest, as keys.pop()
            for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
                keys.push_back(it->first);
            }
            Felt bound = Felt::one();
            for (int i = 0; i < 128; ++i) {
                bound += bound;
            }
            ctx.setIds("big_keys", Felt::fromU64(keys.front() < bound ? 0 : 1));
            const Felt first = keys.back();
            keys.pop_back();
            ctx.setIds("first_key", first);
            ctx.scopes().set("access_indices", indices);
            ctx.scopes().set("keys", keys);
            ctx.scopes().set("key", first);
        });
}

// dict_squash.cairo: the loop over one key's accesses, and its final checks.
void registerSquashLoopHints(HintRegistry& r) {
    r.add("ids.should_skip_loop = 0 if current_access_indices else 1", [](HintContext& ctx) {
        const auto& current = ctx.scopeVar<std::vector<std::uint64_t>>("current_access_indices");
        ctx.setIds("should_skip_loop", Felt::fromU64(current.empty() ? 1 : 0));
    });
    r.add(R"(current_access_indices = sorted(access_indices[key])[::-1]
current_access_index = current_access_indices.pop()
memory[ids.range_check_ptr] = current_access_index)",
          [](HintContext& ctx) {
              auto& indices = ctx.scopeVar<AccessIndices>("access_indices");
              const Felt key = ctx.scopeVar<Felt>("key");
              std::vector<std::uint64_t> current = indices[key];
              std::sort(current.begin(), current.end(), std::greater<>());
              const std::uint64_t first = current.back();
              current.pop_back();
              ctx.scopes().set("current_access_indices", current);
              ctx.scopes().set("current_access_index", first);
              ctx.memory().set(ctx.idsAddress("range_check_ptr"), Felt::fromU64(first));
          });
    r.add(R"(new_access_index = current_access_indices.pop()
ids.loop_temps.index_delta_minus1 = new_access_index - current_access_index - 1
current_access_index = new_access_index)",
          [](HintContext& ctx) {
              auto& current = ctx.scopeVar<std::vector<std::uint64_t>>("current_access_indices");
              if (current.empty()) {
                  ctx.fail("pop from an empty access list");
              }
              const std::uint64_t next = current.back();
              current.pop_back();
              const std::uint64_t previous = ctx.scopeVar<std::uint64_t>("current_access_index");
              ctx.setIds("loop_temps.index_delta_minus1",
                         Felt::fromU64(next) - Felt::fromU64(previous) - Felt::one());
              ctx.scopes().set("current_access_index", next);
          });
    r.add("ids.loop_temps.should_continue = 1 if current_access_indices else 0",
          [](HintContext& ctx) {
              const auto& current =
                  ctx.scopeVar<std::vector<std::uint64_t>>("current_access_indices");
              ctx.setIds("loop_temps.should_continue", Felt::fromU64(current.empty() ? 0 : 1));
          });
    r.add("assert len(keys) == 0", [](HintContext& ctx) {
        if (!ctx.scopeVar<std::vector<Felt>>("keys").empty()) {
            ctx.fail("assert len(keys) == 0 failed");
        }
    });
    r.add("assert len(current_access_indices) == 0", [](HintContext& ctx) {
        if (!ctx.scopeVar<std::vector<std::uint64_t>>("current_access_indices").empty()) {
            ctx.fail("assert len(current_access_indices) == 0 failed");
        }
    });
    r.add("assert ids.n_used_accesses == len(access_indices[key])", [](HintContext& ctx) {
        auto& indices = ctx.scopeVar<AccessIndices>("access_indices");
        const Felt key = ctx.scopeVar<Felt>("key");
        if (ctx.idsFelt("n_used_accesses") != Felt::fromU64(indices[key].size())) {
            ctx.fail("assert ids.n_used_accesses == len(access_indices[key]) failed");
        }
    });
    r.add(R"(assert len(keys) > 0, 'No keys left but remaining_accesses > 0.'
ids.next_key = key = keys.pop())",
          [](HintContext& ctx) {
              auto& keys = ctx.scopeVar<std::vector<Felt>>("keys");
              if (keys.empty()) {
                  ctx.fail("No keys left but remaining_accesses > 0.");
              }
              const Felt next = keys.back();
              keys.pop_back();
              ctx.setIds("next_key", next);
              ctx.scopes().set("key", next);
          });
}

// default_dict and the dict_manager's reads and writes.
void registerDefaultDictHints(HintRegistry& r) {
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

} // namespace

void registerDictHints(HintRegistry& r) {
    registerDictAccessHints(r);
    registerSquashHints(r);
    registerSquashLoopHints(r);
    registerDefaultDictHints(r);
}

} // namespace proofdesk::cairo
