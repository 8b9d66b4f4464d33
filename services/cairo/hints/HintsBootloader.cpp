// Native hints: cairo-lang's bootloader and simple bootloader (their input, the task loop, builtin
// selection, the output builtin's state and pages, fact topologies, packed outputs); a task's
// own loading and run are HintsExecuteTask.cpp's. The bootloader's objects live in the execution
// scopes as cairo-lang keeps them there.

#include "cairo/hints/BootloaderInput.h"
#include "cairo/hints/HintProcessor.h"
#include "cairo/pie/CairoPie.h"

#include <fstream>

namespace proofdesk::cairo {
namespace {

using InputPtr = std::shared_ptr<const BootloaderInput>;
using TaskPtr = std::shared_ptr<const BootloaderTask>;

std::size_t countOf(HintContext& ctx, const Felt& value, const char* what) {
    if (!value.fitsU64() || value.low64() > (1ULL << 40)) {
        ctx.fail(std::string(what) + " is out of range: " + value.toHex());
    }
    return static_cast<std::size_t>(value.low64());
}

// An index counted down from the end: len(items) - ids.<remaining>.
std::size_t indexFromEnd(HintContext& ctx, std::size_t size, const std::string& remaining) {
    const std::size_t left = countOf(ctx, ctx.idsFelt(remaining), remaining.c_str());
    if (left == 0 || left > size) {
        ctx.fail("ids." + remaining + " = " + std::to_string(left) + " is not in 1.." +
                 std::to_string(size));
    }
    return size - left;
}

// segments.gen_arg of a list of felts: a new segment holding them.
Relocatable newSegmentWith(HintContext& ctx, const std::vector<Felt>& values) {
    const Relocatable base = ctx.memory().addSegment();
    ctx.writeArg(base, values);
    return base;
}

HintFn readInput(bool full) {
    return [full](HintContext& ctx) {
        auto input = std::make_shared<const BootloaderInput>(
            BootloaderInput::fromJson(ctx.programInput(), full, ctx.cairoPies()));
        ctx.scopes().set(full ? "bootloader_input" : "simple_bootloader_input", InputPtr(input));
        if (full) {
            const Relocatable start = ctx.memory().addSegment();
            ctx.setIds("simple_bootloader_output_start", start);
            OutputBuiltin& output = outputBuiltin(ctx);
            ctx.scopes().set("output_builtin_state", output.state());
            output.newState(start);
        }
    };
}

void writeFactTopologies(HintContext& ctx, const std::string& path,
                         const std::vector<FactTopology>& topologies) {
    if (!ctx.fileWritesAllowed()) {
        ctx.fail("fact_topologies_path is not written by this run (a server does not write "
                 "files its input names); leave it null");
    }
    nlohmann::json list = nlohmann::json::array();
    for (const FactTopology& topology : topologies) {
        list.push_back(topology.toJson());
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << nlohmann::json{{"fact_topologies", list}}.dump();
    if (!out.flush()) {
        ctx.fail("cannot write the fact topologies to " + path);
    }
}

// The bootloader (bootloader.cairo): its input, and the output builtin's state around the simple
// bootloader.
void registerBootloaderInputHints(HintRegistry& r) {
    r.add(R"HINT(from starkware.cairo.bootloaders.bootloader.objects import BootloaderInput
bootloader_input = BootloaderInput.Schema().load(program_input)

ids.simple_bootloader_output_start = segments.add()

# Change output builtin state to a different segment in preparation for calling the
# simple bootloader.
output_builtin_state = output_builtin.get_state()
output_builtin.new_state(base=ids.simple_bootloader_output_start))HINT",
          readInput(true));
    r.add(
        R"HINT(from starkware.cairo.bootloaders.simple_bootloader.objects import SimpleBootloaderInput
simple_bootloader_input = SimpleBootloaderInput.Schema().load(program_input))HINT",
        readInput(false));
    r.add(R"HINT(simple_bootloader_input = bootloader_input)HINT", [](HintContext& ctx) {
        ctx.scopes().set("simple_bootloader_input", ctx.scopeVar<InputPtr>("bootloader_input"));
    });
    r.add(R"HINT(# Restore the bootloader's output builtin state.
output_builtin.set_state(output_builtin_state))HINT",
          [](HintContext& ctx) {
              outputBuiltin(ctx).setState(ctx.scopeVar<OutputBuiltinState>("output_builtin_state"));
          });
    r.add(R"HINT(from starkware.cairo.bootloaders.bootloader.objects import BootloaderConfig
bootloader_config: BootloaderConfig = bootloader_input.bootloader_config

ids.bootloader_config = segments.gen_arg(
    [
        bootloader_config.simple_bootloader_program_hash,
        len(bootloader_config.supported_cairo_verifier_program_hashes),
        bootloader_config.supported_cairo_verifier_program_hashes,
    ],
))HINT",
          [](HintContext& ctx) {
              const BootloaderInput& input = *ctx.scopeVar<InputPtr>("bootloader_input");
              const Relocatable config = ctx.memory().addSegment();
              const Relocatable hashes =
                  newSegmentWith(ctx, input.supportedCairoVerifierProgramHashes);
              ctx.memory().set(config, input.simpleBootloaderProgramHash);
              ctx.memory().set(config + 1,
                               Felt::fromU64(input.supportedCairoVerifierProgramHashes.size()));
              ctx.memory().set(config + 2, hashes);
              ctx.setIds("bootloader_config", config);
          });
    r.add(R"HINT(output_start = ids.output_ptr)HINT",
          [](HintContext& ctx) { ctx.scopes().set("output_start", ctx.idsAddress("output_ptr")); });
    r.add(R"HINT(packed_outputs = bootloader_input.packed_outputs)HINT", [](HintContext& ctx) {
        ctx.scopes().set("packed_outputs",
                         ctx.scopeVar<InputPtr>("bootloader_input")->packedOutputs);
    });
    r.add(R"HINT(from typing import List

from starkware.cairo.bootloaders.bootloader.utils import compute_fact_topologies
from starkware.cairo.bootloaders.fact_topology import FactTopology
from starkware.cairo.bootloaders.simple_bootloader.utils import (
    configure_fact_topologies,
    write_to_fact_topologies_file,
)

# Compute the fact topologies of the plain packed outputs based on packed_outputs and
# fact_topologies of the inner tasks.
plain_fact_topologies: List[FactTopology] = compute_fact_topologies(
    packed_outputs=packed_outputs, fact_topologies=fact_topologies,
)

# Configure the memory pages in the output builtin, based on plain_fact_topologies.
configure_fact_topologies(
    fact_topologies=plain_fact_topologies, output_start=output_start,
    output_builtin=output_builtin,
)

# Dump fact topologies to a json file.
if bootloader_input.fact_topologies_path is not None:
    write_to_fact_topologies_file(
        fact_topologies_path=bootloader_input.fact_topologies_path,
        fact_topologies=plain_fact_topologies,
    ))HINT",
          [](HintContext& ctx) {
              const auto& input = *ctx.scopeVar<InputPtr>("bootloader_input");
              const std::vector<FactTopology> topologies =
                  plainFactTopologies(ctx.scopeVar<std::vector<PackedOutput>>("packed_outputs"),
                                      ctx.scopeVar<std::vector<FactTopology>>("fact_topologies"));
              configureFactTopologies(topologies, ctx.scopeVar<Relocatable>("output_start"),
                                      outputBuiltin(ctx));
              if (input.factTopologiesPath) {
                  writeFactTopologies(ctx, *input.factTopologiesPath, topologies);
              }
          });
}

// The bootloader's packed outputs: plain and composite, their hashes and subtasks.
void registerPackedOutputHints(HintRegistry& r) {
    r.add(R"HINT(from starkware.cairo.bootloaders.bootloader.objects import PackedOutput

task_id = len(packed_outputs) - ids.n_subtasks
packed_output: PackedOutput = packed_outputs[task_id]

vm_enter_scope(new_scope_locals=dict(packed_output=packed_output)))HINT",
          [](HintContext& ctx) {
              const auto& packed = ctx.scopeVar<std::vector<PackedOutput>>("packed_outputs");
              const PackedOutput current = packed[indexFromEnd(ctx, packed.size(), "n_subtasks")];
              ctx.scopes().enter({{"packed_output", current}});
          });
    r.add(R"HINT(from starkware.cairo.bootloaders.bootloader.objects import (
    CompositePackedOutput,
    PlainPackedOutput,
))HINT",
          [](HintContext&) {}); // imports only
    r.add(
        R"HINT(memory[ap] = to_felt_or_relocatable(isinstance(packed_output, PlainPackedOutput)))HINT",
        [](HintContext& ctx) {
            const bool plain = ctx.scopeVar<PackedOutput>("packed_output").plain;
            ctx.memory().set(ctx.vm().ap, Felt::fromU64(plain ? 1 : 0));
        });
    r.add(R"HINT(assert isinstance(packed_output, CompositePackedOutput))HINT",
          [](HintContext& ctx) {
              if (ctx.scopeVar<PackedOutput>("packed_output").plain) {
                  ctx.fail("the packed output is not a CompositePackedOutput");
              }
          });
    r.add(R"HINT(data = packed_output.elements_for_hash()
ids.nested_subtasks_output_len = len(data)
ids.nested_subtasks_output = segments.gen_arg(data))HINT",
          [](HintContext& ctx) {
              const std::vector<Felt>& data =
                  ctx.scopeVar<PackedOutput>("packed_output").elementsForHash();
              ctx.setIds("nested_subtasks_output_len", Felt::fromU64(data.size()));
              ctx.setIds("nested_subtasks_output", newSegmentWith(ctx, data));
          });
    r.add(R"HINT(packed_outputs = packed_output.subtasks)HINT", [](HintContext& ctx) {
        const std::vector<PackedOutput> subtasks =
            ctx.scopeVar<PackedOutput>("packed_output").subtasks;
        ctx.scopes().set("packed_outputs", subtasks);
    });
}

// The simple bootloader (run_simple_bootloader.cairo): the task loop.
void registerSimpleBootloaderHints(HintRegistry& r) {
    r.add(R"HINT(n_tasks = len(simple_bootloader_input.tasks)
memory[ids.output_ptr] = n_tasks

# Task range checks are located right after simple bootloader validation range checks, and
# this is validated later in this function.
ids.task_range_check_ptr = ids.range_check_ptr + ids.BuiltinData.SIZE * n_tasks

# A list of fact_toplogies that instruct how to generate the fact from the program output
# for each task.
fact_topologies = [])HINT",
          [](HintContext& ctx) {
              const std::size_t nTasks =
                  ctx.scopeVar<InputPtr>("simple_bootloader_input")->tasks.size();
              ctx.memory().set(ctx.idsAddress("output_ptr"), Felt::fromU64(nTasks));
              const Felt size = ctx.constant("BuiltinData.SIZE");
              ctx.setIds(
                  "task_range_check_ptr",
                  ctx.idsAddress("range_check_ptr") +
                      static_cast<std::int64_t>(countOf(ctx, size, "BuiltinData.SIZE") * nTasks));
              ctx.scopes().set("fact_topologies", std::vector<FactTopology>{});
          });
    r.add(R"HINT(tasks = simple_bootloader_input.tasks)HINT", [](HintContext& ctx) {
        ctx.scopes().set("tasks", ctx.scopeVar<InputPtr>("simple_bootloader_input"));
    });
    r.add(R"HINT(memory[ap] = to_felt_or_relocatable(ids.num // 2))HINT", [](HintContext& ctx) {
        // ids.num // 2, on the integer the felt stands for.
        Felt::Limbs limbs = ctx.idsFelt("num").limbs();
        for (std::size_t i = 0; i < limbs.size(); ++i) {
            limbs[i] = (limbs[i] >> 1) | (i + 1 < limbs.size() ? limbs[i + 1] << 63 : 0);
        }
        ctx.memory().set(ctx.vm().ap, Felt::fromLimbsReduced(limbs));
    });
    r.add(R"HINT(from starkware.cairo.bootloaders.simple_bootloader.objects import Task

# Pass current task to execute_task.
task_id = len(simple_bootloader_input.tasks) - ids.n_tasks
task = simple_bootloader_input.tasks[task_id].load_task())HINT",
          [](HintContext& ctx) {
              const auto& tasks = ctx.scopeVar<InputPtr>("simple_bootloader_input")->tasks;
              const std::size_t id = indexFromEnd(ctx, tasks.size(), "n_tasks");
              ctx.scopes().set("task", TaskPtr(std::make_shared<const BootloaderTask>(tasks[id])));
          });
}

// select_input_builtins.cairo.
void registerBuiltinSelectionHints(HintRegistry& r) {
    r.add(
        R"HINT(# A builtin should be selected iff its encoding appears in the selected encodings list
# and the list wasn't exhausted.
# Note that testing inclusion by a single comparison is possible since the lists are sorted.
ids.select_builtin = int(
  n_selected_builtins > 0 and memory[ids.selected_encodings] == memory[ids.all_encodings])
if ids.select_builtin:
  n_selected_builtins = n_selected_builtins - 1)HINT",
        [](HintContext& ctx) {
            Felt& remaining = ctx.scopeVar<Felt>("n_selected_builtins");
            const bool select =
                !remaining.isZero() && ctx.memory().get(ctx.idsAddress("selected_encodings")) ==
                                           ctx.memory().get(ctx.idsAddress("all_encodings"));
            ctx.setIds("select_builtin", Felt::fromU64(select ? 1 : 0));
            if (select) {
                remaining = remaining - Felt::one();
            }
        });
    r.add(R"HINT(vm_enter_scope({'n_selected_builtins': ids.n_selected_builtins}))HINT",
          [](HintContext& ctx) {
              ctx.scopes().enter({{"n_selected_builtins", ctx.idsFelt("n_selected_builtins")}});
          });
}

} // namespace

OutputBuiltin& outputBuiltin(HintContext& ctx) {
    auto* output = dynamic_cast<OutputBuiltin*>(ctx.builtin("output"));
    if (!output) {
        ctx.fail("the bootloader needs the output builtin");
    }
    return *output;
}

void registerBootloaderHints(HintRegistry& r) {
    registerBootloaderInputHints(r);
    registerPackedOutputHints(r);
    registerSimpleBootloaderHints(r);
    registerBuiltinSelectionHints(r);
}

} // namespace proofdesk::cairo