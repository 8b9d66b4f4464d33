#pragma once

#include "cairo/vm/Builtins.h"
#include "cairo/vm/Instruction.h"
#include "cairo/vm/Memory.h"

#include <functional>
#include <optional>
#include <unordered_set>
#include <vector>

namespace proofdesk::cairo {

// Registers of one step, as addresses packed (segment << 48 | offset) to keep 24 bytes a step.
struct TraceEntry {
    std::uint64_t pc;
    std::uint64_t ap;
    std::uint64_t fp;
};

inline std::uint64_t packAddress(const Relocatable& address) {
    return (static_cast<std::uint64_t>(address.segment) << 48) | address.offset;
}
inline Relocatable unpackAddress(std::uint64_t packed) {
    return {static_cast<std::int64_t>(packed >> 48), packed & ((1ULL << 48) - 1)};
}

class Vm;
// Runs the hints of a pc before its instruction.
using HintRunner = std::function<void(Vm& vm, const Relocatable& pc)>;

// The Cairo CPU (cairo-lang vm_core.py semantics): one step = hints, decode, operands with
// deduction, assertions, trace entry, register updates.
class Vm {
public:
    Vm(Memory& memory, std::size_t programSize);

    Memory& memory() { return m_memory; }
    const Memory& memory() const { return m_memory; }
    Relocatable pc, ap, fp;

    void addBuiltin(BuiltinRunner* builtin);
    // Hint sites of the program segment (by offset), and the runner called at each.
    void setHintSites(std::vector<bool> sites, HintRunner runner);
    // A hint site outside the program segment (a program loaded at run time, vm_load_program).
    void addHintSite(const Relocatable& pc) { m_loadedHintSites.insert(packAddress(pc)); }
    void setTraceEnabled(bool enabled) { m_traceEnabled = enabled; }

    void step();
    std::uint64_t steps() const { return m_steps; }
    const std::vector<TraceEntry>& trace() const { return m_trace; }
    // Steps that ran an S-two opcode extension (Blake): Stone's AIR cannot prove them.
    std::uint64_t extendedSteps() const { return m_extendedSteps; }
    std::uint64_t rcMin() const { return m_rcMin; }
    std::uint64_t rcMax() const { return m_rcMax; }

    // Reads a cell, asking the segment's builtin to deduce it when unset.
    bool readOrDeduce(const Relocatable& address, Value* out);

private:
    // Parts of step(), inlined into it (the step is the VM's hot loop).
    void runHintsAt(const Relocatable& at);
    // A step of an instruction with an opcode extension (the Blake2s compression).
    void stepExtended(const Instruction& in);
    void recordStep(const Instruction& in, const Relocatable& dstAddr, const Relocatable& op0Addr,
                    const Relocatable& op1Addr);
    void checkOpcode(const Instruction& in, const Relocatable& nextPc, const Value& dst,
                     const Value& op0, const std::optional<Value>& res) const;
    void updateRegisters(const Instruction& in, const Relocatable& nextPc, const Value& dst,
                         const Value& op1, const std::optional<Value>& res);
    const Instruction& instructionAt(const Relocatable& pc);
    Relocatable registerValue(Instruction::Register reg) const {
        return reg == Instruction::Register::AP ? ap : fp;
    }

    Memory& m_memory;
    std::vector<std::optional<Instruction>> m_decoded;
    Instruction m_scratch;
    std::vector<BuiltinRunner*> m_builtinBySegment;
    std::vector<bool> m_hintSites;
    std::unordered_set<std::uint64_t> m_loadedHintSites; // packed addresses
    HintRunner m_hintRunner;
    bool m_traceEnabled = true;
    std::vector<TraceEntry> m_trace;
    std::uint64_t m_steps = 0;
    std::uint64_t m_extendedSteps = 0;
    std::uint64_t m_rcMin = UINT64_MAX;
    std::uint64_t m_rcMax = 0;
};

} // namespace proofdesk::cairo
