// Native hints of starkware.cairo.common.modulo (run_mod_p_circuit): fill the values table of
// the add_mod and mul_mod builtins (cairo-lang 0.13.2+ texts).

#include "cairo/hints/HintProcessor.h"
#include "cairo/vm/ModBuiltin.h"

namespace proofdesk::cairo {
namespace {

const ModBuiltin& modRunner(HintContext& ctx, const char* name) {
    const auto* runner = dynamic_cast<const ModBuiltin*>(ctx.builtin(name));
    if (!runner) {
        ctx.fail(std::string("the ") + name + " builtin is not part of this run");
    }
    return *runner;
}

std::uint64_t count(HintContext& ctx, const char* name) {
    const Felt n = ctx.idsFelt(name);
    if (!n.fitsU64()) {
        ctx.fail(std::string("ids.") + name + " is not a count");
    }
    return n.low64();
}

} // namespace

void registerModuloHints(HintRegistry& r) {
    r.add(R"(from starkware.cairo.lang.builtins.modulo.mod_builtin_runner import ModBuiltinRunner
assert builtin_runners["add_mod_builtin"].instance_def.batch_size == 1
assert builtin_runners["mul_mod_builtin"].instance_def.batch_size == 1

ModBuiltinRunner.fill_memory(
    memory=memory,
    add_mod=(ids.add_mod_ptr.address_, builtin_runners["add_mod_builtin"], ids.add_mod_n),
    mul_mod=(ids.mul_mod_ptr.address_, builtin_runners["mul_mod_builtin"], ids.mul_mod_n),
))",
          [](HintContext& ctx) {
              const ModFill add{&modRunner(ctx, "add_mod"), ctx.idsAddress("add_mod_ptr"),
                                count(ctx, "add_mod_n")};
              const ModFill mul{&modRunner(ctx, "mul_mod"), ctx.idsAddress("mul_mod_ptr"),
                                count(ctx, "mul_mod_n")};
              try {
                  fillModMemory(ctx.memory(), add, mul);
              } catch (const VmError& error) {
                  ctx.fail(error.what());
              }
          });
}

} // namespace proofdesk::cairo
