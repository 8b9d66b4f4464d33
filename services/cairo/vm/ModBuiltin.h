#pragma once

#include "cairo/vm/Builtins.h"

#include <optional>

namespace proofdesk::cairo {

// The add_mod and mul_mod builtins (cairo-lang mod_builtin_runner.py, batch size 1). An instance is
// 7 cells: p as four 96-bit words, values_ptr, offsets_ptr, n. Operation k of a run reads three
// offsets at offsets_ptr + 3k and the 384-bit values a, b, c (four 96-bit words each) at
// values_ptr + offset, and requires a + b ≡ c or a · b ≡ c (mod p). Nothing is deduced from the
// builtin's own cells: the run_mod_p_circuit hint fills the values (fillModMemory), and every
// instance is checked when the run ends.
class ModBuiltin : public BuiltinRunner {
public:
    ModBuiltin(std::string name, LayoutBuiltin spec, bool included, bool multiplication);

    bool multiplication() const { return m_multiplication; }
    std::optional<Value> deduce(const Memory&, const Relocatable&) const override {
        return std::nullopt;
    }
    std::uint64_t extraMemoryUnitsPerInstance() const override { return 15; }
    void verifyAtEnd(const Memory& memory) const override;
    nlohmann::json airPrivateInput(const Memory& memory) const override;

private:
    bool m_multiplication;
};

// One builtin's part of a fill: its runner, the first instance to fill, and how many operations.
struct ModFill {
    const ModBuiltin* runner = nullptr;
    Relocatable instances;
    std::uint64_t n = 0;
};

// ModBuiltinRunner.fill_memory: writes instances 1..n-1 from instance 0 (p, values_ptr, then
// offsets_ptr + 3k and n - k), then computes the missing value of each operation, add_mod ones
// first in order, falling back to the next mul_mod one when an addition cannot be completed yet.
// Throws VmError when the values table cannot be filled.
void fillModMemory(Memory& memory, const std::optional<ModFill>& add,
                   const std::optional<ModFill>& mul);

} // namespace proofdesk::cairo
