// Native hints of the bootloaders' execute_task.cairo: a task's program loaded into the run and
// its hash checked, the task run (a program, or a Cairo PIE whose memory is copied in), and its
// builtins' and output's accounting afterwards.

#include "cairo/hints/BootloaderInput.h"
#include "cairo/hints/HintProcessor.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/vm/ProgramHash.h"

namespace proofdesk::cairo {
namespace {

using TaskPtr = std::shared_ptr<const BootloaderTask>;

// ids.<name>.address_: where a struct lives (a struct local, or the target of a struct pointer).
Relocatable structAddress(HintContext& ctx, const std::string& name) {
    const auto ref = ctx.reference(name);
    if (!ref) {
        ctx.fail("ids." + name + " is not a reference visible to this hint");
    }
    if (!ref->type.empty() && ref->type.back() == '*') {
        if (!ref->value || !ref->value->isAddress()) {
            ctx.fail("ids." + name + " is not a pointer");
        }
        return ref->value->address();
    }
    if (!ref->cell) {
        ctx.fail("ids." + name + " is not stored in memory");
    }
    return *ref->cell;
}

// The full name of a struct visible to the hint, and its members ordered by offset.
std::vector<std::string> structMembersInOrder(HintContext& ctx, const std::string& name) {
    const auto match = ctx.lookupIdentifier(name);
    if (!match || match->definition->value("type", std::string()) != "struct" ||
        !match->definition->contains("members")) {
        ctx.fail(name + " is not a struct visible to this hint");
    }
    std::vector<std::pair<std::int64_t, std::string>> members;
    for (const auto& [member, def] : (*match->definition)["members"].items()) {
        members.emplace_back(def.value("offset", std::int64_t{0}), member);
    }
    std::sort(members.begin(), members.end());
    std::vector<std::string> names;
    for (auto& [offset, member] : members) {
        names.push_back(std::move(member));
    }
    return names;
}

std::int64_t memberOffset(HintContext& ctx, const std::string& structName,
                          const std::string& member) {
    const auto match = ctx.lookupIdentifier(structName);
    const auto field = match ? structMember(ctx.program(), match->fullName, member) : std::nullopt;
    if (!field) {
        ctx.fail(structName + " has no member " + member);
    }
    return field->offset;
}

// A builtin's name as the program header lists it: its ASCII bytes as a big-endian number.
Felt builtinNameFelt(const std::string& name) {
    return Felt::fromBytesBE(reinterpret_cast<const std::uint8_t*>(name.data()), name.size());
}

// load_program: the program header (data length, bootloader version 0, main, builtins) and the
// code, from `header`; returns the code's address and the size written.
std::pair<Relocatable, std::uint64_t> loadTaskProgram(HintContext& ctx, const Program& program,
                                                      const Relocatable& header) {
    const std::int64_t builtinsOffset = memberOffset(ctx, "ProgramHeader", "builtin_list");
    const auto headerSize = static_cast<std::uint64_t>(builtinsOffset) + program.builtins.size();
    auto set = [&](const char* member, std::uint64_t value) {
        ctx.memory().set(header + memberOffset(ctx, "ProgramHeader", member), Felt::fromU64(value));
    };
    set("data_length", headerSize - 1 + program.data.size());
    set("bootloader_version", 0);
    set("program_main", program.main);
    set("n_builtins", program.builtins.size());
    for (std::size_t i = 0; i < program.builtins.size(); ++i) {
        ctx.memory().set(header + builtinsOffset + static_cast<std::int64_t>(i),
                         builtinNameFelt(program.builtins[i]));
    }
    const Relocatable code = header + static_cast<std::int64_t>(headerSize);
    for (std::size_t i = 0; i < program.data.size(); ++i) {
        ctx.memory().set(code + static_cast<std::int64_t>(i), program.data[i]);
    }
    return {code, headerSize + program.data.size()};
}

// The pc of a label visible to the hint.
std::uint64_t labelPc(HintContext& ctx, const std::string& name) {
    const auto match = ctx.lookupIdentifier(name);
    if (!match || !match->definition->contains("pc") ||
        !(*match->definition)["pc"].is_number_unsigned()) {
        ctx.fail(name + " is not a label visible to this hint");
    }
    return (*match->definition)["pc"].get<std::uint64_t>();
}

// A PIE segment is at most this long (a PIE's n_steps is below 2^30 too).
constexpr std::uint64_t kMaxPieSegmentSize = std::uint64_t{1} << 30;

// load_cairo_pie: the PIE's memory copied into this run, each of its segments mapped to where
// the bootloader put it (the program, the task's execution segment, the return fp and pc, the
// builtins' current pointers, new segments for the rest); the ecdsa builtin learns the PIE's
// signatures first. The PIE's cells must lie inside the segments it declares; a cell the run
// already holds with another value fails the run.
void loadCairoPie(HintContext& ctx, const CairoPie& pie, const Relocatable& programAddress,
                  const Relocatable& executionAddress, const Relocatable& retFp,
                  const Relocatable& retPc) {
    std::map<std::int64_t, std::pair<Relocatable, std::uint64_t>> bases; // base, size
    const auto map = [&](const CairoPie::Segment& segment, const Relocatable& base) {
        if (segment.size > kMaxPieSegmentSize) {
            ctx.fail("the PIE's segment " + std::to_string(segment.index) + " declares " +
                     std::to_string(segment.size) + " cells");
        }
        if (!bases.emplace(segment.index, std::make_pair(base, segment.size)).second) {
            ctx.fail("the PIE maps its segment " + std::to_string(segment.index) + " twice");
        }
    };
    map(pie.programSegment, programAddress);
    map(pie.executionSegment, executionAddress);
    map(pie.retFpSegment, retFp);
    map(pie.retPcSegment, retPc);
    // The task's execution segment starts with its builtins' bases: each PIE builtin segment
    // lands where the bootloader's pointer for that builtin stands.
    std::map<std::uint64_t, Value> executionStart;
    for (const auto& [address, value] : pie.memory) {
        if (address.segment == pie.executionSegment.index && address.offset < pie.builtins.size()) {
            executionStart[address.offset] = value;
        }
    }
    for (std::size_t i = 0; i < pie.builtins.size(); ++i) {
        auto start = executionStart.find(i);
        if (start == executionStart.end() || !start->second.isAddress() ||
            start->second.address().offset != 0) {
            ctx.fail("the PIE's " + pie.builtins[i] +
                     " builtin start address is not the base of a segment");
        }
        const std::int64_t segment = start->second.address().segment;
        std::uint64_t size = 0;
        for (const auto& [name, declared] : pie.builtinSegments) {
            if (declared.index == segment) {
                size = declared.size;
            }
        }
        const Value pointer = ctx.memory().get(executionAddress + static_cast<std::int64_t>(i));
        if (!pointer.isAddress()) {
            ctx.fail("the bootloader's pointer for the " + pie.builtins[i] +
                     " builtin is not an address");
        }
        map({segment, size}, pointer.address());
    }
    for (const CairoPie::Segment& extra : pie.extraSegments) {
        const Relocatable base = ctx.memory().addSegment();
        map(extra, base);
        ctx.memory().finalizeSegment(base.segment, extra.size);
    }
    // A cell must lie inside its segment; a pointer may point anywhere in a mapped segment.
    const auto relocate = [&](const Relocatable& address, bool cell) {
        auto it = bases.find(address.segment);
        if (it == bases.end() || (cell && address.offset >= it->second.second) ||
            address.offset > kMaxPieSegmentSize) {
            ctx.fail("the PIE's address " + address.toString() +
                     " is outside the segments it declares");
        }
        return it->second.first + static_cast<std::int64_t>(address.offset);
    };

    // Signatures before memory: the ecdsa builtin checks an instance once its cells are written.
    std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>> signatures;
    try {
        signatures = pie.signatures();
    } catch (const PieError& error) {
        ctx.fail(error.what());
    }
    if (!signatures.empty()) {
        BuiltinRunner* ecdsa = ctx.builtin("ecdsa");
        if (!ecdsa) {
            ctx.fail("the PIE signs with the ecdsa builtin, which this run does not have");
        }
        for (const auto& [address, rs] : signatures) {
            ecdsa->addSignature(relocate(address, true), rs.first, rs.second);
        }
    }
    for (const auto& [address, value] : pie.memory) {
        ctx.memory().set(relocate(address, true),
                         value.isAddress() ? Value(relocate(value.address(), false)) : value);
    }
}

// write_return_builtins on a PIE task: the builtin advanced by exactly the size the PIE recorded.
void checkPieBuiltinUsage(HintContext& ctx, const CairoPie& pie, const std::string& builtin,
                          const Value& used) {
    for (const auto& [name, segment] : pie.builtinSegments) {
        if (name == builtin) {
            if (!used.isFelt() || !(used.felt() == Felt::fromU64(segment.size))) {
                ctx.fail("Builtin usage is inconsistent with the CairoPie: the task used " +
                         used.toString() + " " + builtin + " cells, the PIE records " +
                         std::to_string(segment.size));
            }
            return;
        }
    }
    ctx.fail("the PIE has no segment for its " + builtin + " builtin");
}

// execute_task.cairo: loading a task's program and checking its hash.
void registerTaskLoadingHints(HintRegistry& r) {
    r.add(R"HINT(ids.program_data_ptr = program_data_base = segments.add())HINT",
          [](HintContext& ctx) {
              const Relocatable base = ctx.memory().addSegment();
              ctx.setIds("program_data_ptr", base);
              ctx.scopes().set("program_data_base", base);
          });
    r.add(R"HINT(from starkware.cairo.bootloaders.simple_bootloader.utils import load_program

# Call load_program to load the program header and code to memory.
program_address, program_data_size = load_program(
    task=task, memory=memory, program_header=ids.program_header,
    builtins_offset=ids.ProgramHeader.builtin_list)
segments.finalize(program_data_base.segment_index, program_data_size))HINT",
          [](HintContext& ctx) {
              const BootloaderTask& task = *ctx.scopeVar<TaskPtr>("task");
              const auto [address, size] =
                  loadTaskProgram(ctx, *task.program, ctx.idsAddress("program_header"));
              ctx.scopes().set("program_address", address);
              ctx.scopes().set("program_data_size", Felt::fromU64(size));
              ctx.memory().finalizeSegment(ctx.scopeVar<Relocatable>("program_data_base").segment,
                                           size);
          });
    r.add(R"HINT(# Validate hash.
from starkware.cairo.bootloaders.hash_program import compute_program_hash_chain

assert memory[ids.output_ptr + 1] == compute_program_hash_chain(task.get_program()), \
  'Computed hash does not match input.')HINT",
          [](HintContext& ctx) {
              const Felt expected = programHash(*ctx.scopeVar<TaskPtr>("task")->program);
              const Value written = ctx.memory().get(ctx.idsAddress("output_ptr") + 1);
              if (!written.isFelt() || !(written.felt() == expected)) {
                  ctx.fail("Computed hash does not match input.");
              }
          });
    r.add(R"HINT(# Sanity check.
assert ids.program_address == program_address)HINT",
          [](HintContext& ctx) {
              if (!(ctx.idsAddress("program_address") ==
                    ctx.scopeVar<Relocatable>("program_address"))) {
                  ctx.fail("ids.program_address is not where the program was loaded");
              }
          });
}

// execute_task.cairo: running a task (a program or a Cairo PIE) and accounting for its builtins and
// output.
void registerTaskRunHints(HintRegistry& r) {
    r.add(R"HINT(from starkware.cairo.bootloaders.simple_bootloader.objects import (
    CairoPieTask,
    RunProgramTask,
    Task,
)
from starkware.cairo.bootloaders.simple_bootloader.utils import (
    load_cairo_pie,
    prepare_output_runner,
)

assert isinstance(task, Task)
n_builtins = len(task.get_program().builtins)
new_task_locals = {}
if isinstance(task, RunProgramTask):
    new_task_locals['program_input'] = task.program_input
    new_task_locals['WITH_BOOTLOADER'] = True

    vm_load_program(task.program, program_address)
elif isinstance(task, CairoPieTask):
    ret_pc = ids.ret_pc_label.instruction_offset_ - ids.call_task.instruction_offset_ + pc
    load_cairo_pie(
        task=task.cairo_pie, memory=memory, segments=segments,
        program_address=program_address, execution_segment_address= ap - n_builtins,
        builtin_runners=builtin_runners, ret_fp=fp, ret_pc=ret_pc)
else:
    raise NotImplementedError(f'Unexpected task type: {type(task).__name__}.')

output_runner_data = prepare_output_runner(
    task=task,
    output_builtin=output_builtin,
    output_ptr=ids.pre_execution_builtin_ptrs.output)
vm_enter_scope(new_task_locals))HINT",
          [](HintContext& ctx) {
              const TaskPtr task = ctx.scopeVar<TaskPtr>("task");
              const std::size_t nBuiltins = task->program->builtins.size();
              ctx.scopes().set("n_builtins", Felt::fromU64(nBuiltins));
              const auto programAddress = ctx.scopeVar<Relocatable>("program_address");
              if (task->pie) {
                  // The PIE's memory stands in for running its hints; output pages come from it.
                  const Vm& vm = ctx.vm();
                  const auto toReturn = static_cast<std::int64_t>(labelPc(ctx, "ret_pc_label")) -
                                        static_cast<std::int64_t>(labelPc(ctx, "call_task"));
                  loadCairoPie(ctx, *task->pie, programAddress,
                               vm.ap - static_cast<std::int64_t>(nBuiltins), vm.fp,
                               vm.pc + toReturn);
                  ctx.scopes().enter({});
                  return;
              }
              ctx.loadProgram(task->program, programAddress);
              OutputBuiltin& output = outputBuiltin(ctx);
              ctx.scopes().set("output_runner_data", output.state());
              output.newState(ctx.idsAddress("pre_execution_builtin_ptrs.output"));
              ctx.scopes().enter(
                  {{"program_input", task->programInput}, {"WITH_BOOTLOADER", Felt::one()}});
          });
    r.add(R"HINT(vm_exit_scope()
# Note that bootloader_input will only be available in the next hint.)HINT",
          [](HintContext& ctx) { ctx.scopes().exit(); });
    r.add(
        R"HINT(from starkware.cairo.bootloaders.simple_bootloader.utils import write_return_builtins

# Fill the values of all builtin pointers after executing the task.
builtins = task.get_program().builtins
write_return_builtins(
    memory=memory, return_builtins_addr=ids.return_builtin_ptrs.address_,
    used_builtins=builtins, used_builtins_addr=ids.used_builtins_addr,
    pre_execution_builtins_addr=ids.pre_execution_builtin_ptrs.address_, task=task)

vm_enter_scope({'n_selected_builtins': n_builtins}))HINT",
        [](HintContext& ctx) {
            const BootloaderTask& task = *ctx.scopeVar<TaskPtr>("task");
            const Relocatable returned = structAddress(ctx, "return_builtin_ptrs");
            const Relocatable before = structAddress(ctx, "pre_execution_builtin_ptrs");
            const Relocatable used = ctx.idsAddress("used_builtins_addr");
            const std::vector<std::string> all = structMembersInOrder(ctx, "BuiltinData");
            std::int64_t usedIndex = 0;
            for (std::size_t i = 0; i < all.size(); ++i) {
                const auto index = static_cast<std::int64_t>(i);
                const bool isUsed =
                    std::find(task.program->builtins.begin(), task.program->builtins.end(),
                              all[i]) != task.program->builtins.end();
                ctx.memory().set(returned + index,
                                 ctx.memory().get(isUsed ? used + usedIndex++ : before + index));
                if (isUsed && task.pie) {
                    checkPieBuiltinUsage(ctx, *task.pie, all[i],
                                         ctx.memory().get(returned + index) -
                                             ctx.memory().get(before + index));
                }
            }
            ctx.scopes().enter({{"n_selected_builtins", ctx.scopeVar<Felt>("n_builtins")}});
        });
    r.add(
        R"HINT(from starkware.cairo.bootloaders.simple_bootloader.utils import get_task_fact_topology

# Add the fact topology of the current task to 'fact_topologies'.
output_start = ids.pre_execution_builtin_ptrs.output
output_end = ids.return_builtin_ptrs.output
fact_topologies.append(get_task_fact_topology(
    output_size=output_end - output_start,
    task=task,
    output_builtin=output_builtin,
    output_runner_data=output_runner_data,
)))HINT",
        [](HintContext& ctx) {
            const Relocatable start = ctx.idsAddress("pre_execution_builtin_ptrs.output");
            const Relocatable end = ctx.idsAddress("return_builtin_ptrs.output");
            if (start.segment != end.segment || end.offset < start.offset) {
                ctx.fail("the task's output pointers " + start.toString() + " and " +
                         end.toString() + " do not delimit an output");
            }
            auto& topologies = ctx.scopeVar<std::vector<FactTopology>>("fact_topologies");
            const BootloaderTask& task = *ctx.scopeVar<TaskPtr>("task");
            if (task.pie) {
                // The bootloader's output builtin kept its state while the PIE's memory loaded.
                try {
                    topologies.push_back(
                        taskFactTopology(end.offset - start.offset, task.pie->outputState()));
                } catch (const PieError& error) {
                    ctx.fail(error.what());
                }
                return;
            }
            OutputBuiltin& output = outputBuiltin(ctx);
            topologies.push_back(taskFactTopology(end.offset - start.offset, output.state()));
            output.setState(ctx.scopeVar<OutputBuiltinState>("output_runner_data"));
        });
}

} // namespace

void registerExecuteTaskHints(HintRegistry& r) {
    registerTaskLoadingHints(r);
    registerTaskRunHints(r);
}

} // namespace proofdesk::cairo
