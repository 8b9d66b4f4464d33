// Native hints of starkware.cairo.common.usort and set (set_add's membership test), matched by
// their cairo-lang texts.

#include "cairo/hints/HintProcessor.h"

#include <algorithm>
#include <map>

namespace proofdesk::cairo {
namespace {

// usort: the sorted distinct values, their multiplicities, and each value's positions.
void registerUsortHints(HintRegistry& r) {
    using Positions = std::map<Felt, std::vector<std::uint64_t>>;
    r.add("vm_enter_scope(dict(__usort_max_size = globals().get('__usort_max_size')))",
          [](HintContext& ctx) { ctx.scopes().enter(); });
    r.add(
        R"(from collections import defaultdict

input_ptr = ids.input
input_len = int(ids.input_len)
if __usort_max_size is not None:
    assert input_len <= __usort_max_size, (
        f"usort() can only be used with input_len<={__usort_max_size}. "
        f"Got: input_len={input_len}."
    )

positions_dict = defaultdict(list)
for i in range(input_len):
    val = memory[input_ptr + i]
    positions_dict[val].append(i)

output = sorted(positions_dict.keys())
ids.output_len = len(output)
ids.output = segments.gen_arg(output)
ids.multiplicities = segments.gen_arg([len(positions_dict[k]) for k in output]))",
        [](HintContext& ctx) {
            const Relocatable input = ctx.idsAddress("input");
            const Felt length = ctx.idsFelt("input_len");
            if (!length.fitsU64() || length.low64() > (1ULL << 32)) {
                ctx.fail("usort: input_len is out of range");
            }
            Positions positions;
            for (std::uint64_t i = 0; i < length.low64(); ++i) {
                positions[ctx.memory().get(input + static_cast<std::int64_t>(i)).felt()].push_back(
                    i);
            }
            const Relocatable output = ctx.memory().addSegment();
            const Relocatable multiplicities = ctx.memory().addSegment();
            std::int64_t index = 0;
            for (const auto& [value, where] : positions) {
                ctx.memory().set(output + index, value);
                ctx.memory().set(multiplicities + index, Felt::fromU64(where.size()));
                ++index;
            }
            ctx.setIds("output_len", Felt::fromI64(index));
            ctx.setIds("output", output);
            ctx.setIds("multiplicities", multiplicities);
            ctx.scopes().set("positions_dict", positions);
        });
    r.add("last_pos = 0\npositions = positions_dict[ids.value][::-1]", [](HintContext& ctx) {
        auto& positions = ctx.scopeVar<Positions>("positions_dict");
        std::vector<std::uint64_t> reversed = positions[ctx.idsFelt("value")];
        std::reverse(reversed.begin(), reversed.end());
        ctx.scopes().set("positions", reversed);
        ctx.scopes().set("last_pos", std::uint64_t{0});
    });
    r.add("assert len(positions) == 0", [](HintContext& ctx) {
        if (!ctx.scopeVar<std::vector<std::uint64_t>>("positions").empty()) {
            ctx.fail("assert len(positions) == 0 failed");
        }
    });
    r.add("current_pos = positions.pop()\nids.next_item_index = current_pos - last_pos\n"
          "last_pos = current_pos + 1",
          [](HintContext& ctx) {
              auto& positions = ctx.scopeVar<std::vector<std::uint64_t>>("positions");
              if (positions.empty()) {
                  ctx.fail("pop from empty list");
              }
              const std::uint64_t current = positions.back();
              positions.pop_back();
              const std::uint64_t last = ctx.scopeVar<std::uint64_t>("last_pos");
              ctx.setIds("next_item_index", Felt::fromU64(current) - Felt::fromU64(last));
              ctx.scopes().set("last_pos", current + 1);
          });
}

// set_add's membership.
void registerSetHints(HintRegistry& r) {
    r.add(R"(assert ids.elm_size > 0
assert ids.set_ptr <= ids.set_end_ptr
elm_list = memory.get_range(ids.elm_ptr, ids.elm_size)
for i in range(0, ids.set_end_ptr - ids.set_ptr, ids.elm_size):
    if memory.get_range(ids.set_ptr + i, ids.elm_size) == elm_list:
        ids.index = i // ids.elm_size
        ids.is_elm_in_set = 1
        break
else:
    ids.is_elm_in_set = 0)",
          [](HintContext& ctx) {
              const Felt elmSizeFelt = ctx.idsFelt("elm_size");
              if (elmSizeFelt.isZero() || !elmSizeFelt.fitsU64()) {
                  ctx.fail("assert ids.elm_size > 0 failed");
              }
              const auto elmSize = static_cast<std::int64_t>(elmSizeFelt.low64());
              const Relocatable element = ctx.idsAddress("elm_ptr");
              const Relocatable begin = ctx.idsAddress("set_ptr");
              const Relocatable end = ctx.idsAddress("set_end_ptr");
              if (begin.segment != end.segment || end.offset < begin.offset) {
                  ctx.fail("assert ids.set_ptr <= ids.set_end_ptr failed");
              }
              const auto length = static_cast<std::int64_t>(end.offset - begin.offset);
              for (std::int64_t i = 0; i < length; i += elmSize) {
                  bool equal = true;
                  for (std::int64_t k = 0; k < elmSize && equal; ++k) {
                      equal = ctx.memory().get(begin + (i + k)) == ctx.memory().get(element + k);
                  }
                  if (equal) {
                      ctx.setIds("index", Felt::fromI64(i / elmSize));
                      ctx.setIds("is_elm_in_set", Felt::one());
                      return;
                  }
              }
              ctx.setIds("is_elm_in_set", Felt::zero());
          });
}

} // namespace

void registerSortHints(HintRegistry& r) {
    registerUsortHints(r);
    registerSetHints(r);
}

} // namespace proofdesk::cairo
