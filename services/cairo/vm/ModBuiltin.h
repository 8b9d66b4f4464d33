#pragma once

#include "cairo/vm/Builtins.h"
#include "crypto/BigInt.h"

#include <array>
#include <cstdint>
#include <optional>

namespace proofdesk::cairo {

// The add_mod and mul_mod builtins (cairo-lang mod_builtin_runner.py, batch size 1). An instance is
// 7 cells: p as four 96-bit words, values_ptr, offsets_ptr, n. Operation k of a run reads three
// offsets at offsets_ptr + 3k and the 384-bit values a, b, c (four 96-bit words each) at
// values_ptr + offset, and requires a + b ≡ c or a · b ≡ c (mod p). Nothing is deduced from the
// builtin's own cells: the run_mod_p_circuit hint fills the values (fillModMemory), and every
// instance is checked when the run ends.
//
// In proof mode the AIR proves every instance the layout allocates: the unused ones are padded
// with 0 + 0 = 0 (mod 0) on the run's zero segment (cairo-lang's allocated zeros), and mul_mod's
// 16-bit parts (mulModParts) go to the range-check pool, so they widen the run's rc_min/rc_max.
class ModBuiltin : public BuiltinRunner {
public:
    ModBuiltin(std::string name, LayoutBuiltin spec, bool included, bool multiplication);

    bool multiplication() const { return m_multiplication; }
    std::optional<Value> deduce(const Memory&, const Relocatable&) const override {
        return std::nullopt;
    }
    std::uint64_t extraMemoryUnitsPerInstance() const override { return 15; }
    void rangeCheckBounds(const Memory& memory, std::uint64_t* min,
                          std::uint64_t* max) const override;
    void verifyAtEnd(const Memory& memory) const override;
    // cairo-lang's: {"instances": [{"index", "p0".."p3" (hex), "values_ptr", "offsets_ptr", "n",
    // "batch": [{"a_offset", "b_offset", "c_offset", "a0".."c3" (hex)}]}], "zero_value_address"}.
    nlohmann::json airPrivateInput(const Memory& memory, const Relocation& relocate) const override;
    std::uint64_t neededZeros() const override { return 4; } // max(n_words, 3 · batch_size)
    void setZeros(const Relocatable& address) override { m_zeros = address; }

private:
    bool m_multiplication;
    std::optional<Relocatable> m_zeros;
};

// The range-checked cells of one mul_mod operation a·b = c + k·p on four 96-bit words (the AIR's
// witness, as Stone writes it): k's words as six 16-bit parts each, least significant first, and
// the six carries of a·b − k·p − c taken word by word, each plus 2^98 as seven 16-bit parts.
struct MulModParts {
    std::array<std::array<std::uint16_t, 6>, 4> multiplier{};
    std::array<std::array<std::uint16_t, 7>, 6> carries{};
};
// Throws VmError when a·b − c is not k·p for a k in [0, 2^384) (with p = 0, k = 0 and a·b = c),
// or a word is not below 2^96.
MulModParts mulModParts(const crypto::BigInt& p, const crypto::BigInt& a, const crypto::BigInt& b,
                        const crypto::BigInt& c);

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
