#pragma once

#include "cairo/vm/Builtins.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/Vm.h"
#include "crypto/BigInt.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// The hints of Cairo 1 programs: the compiler's structured hints (cairo-lang-casm's Hint enum,
// as Scarb's executable.json carries them), run natively before their instructions.
namespace proofdesk::cairo::cairo1 {

// [ap + offset] or [fp + offset].
struct CellRef {
    bool fp = false;
    std::int16_t offset = 0;
};

// A hint's operand: [cell], [[cell] + inner], an immediate, or [cell] op ([b] | immediate).
struct ResOperand {
    enum class Kind { Deref, DoubleDeref, Immediate, BinOp };
    Kind kind = Kind::Deref;
    CellRef cell;
    std::int16_t inner = 0; // DoubleDeref's offset
    Felt immediate;         // Immediate, or BinOp's b when bIsImmediate
    bool multiply = false;  // BinOp: Mul, else Add
    bool bIsImmediate = false;
    CellRef b;
};

// Throws ProgramError naming what is malformed.
CellRef cellRefOf(const nlohmann::json& json);
ResOperand resOperandOf(const nlohmann::json& json);

// What a run of a Cairo 1 program is given and gives back beyond its memory.
struct RunIo {
    // WriteRunParam's user arguments: parameter 0 is the executable's input, one array of felts.
    std::vector<Felt> arguments;
    // AddMarker's records (an executable's wrapper marks its result: the output, or the panic
    // data), and the pc of the last one.
    std::vector<std::vector<Felt>> markers;
    std::optional<Relocatable> lastMarkerPc;
};

// A Felt252Dict's tracking (cairo-lang's DictManager): its values by key and its arena index.
struct DictTracker {
    std::map<Felt, Value> data;
    std::uint64_t arenaIndex = 0;
};

// The state the hints of one run share (the reference keeps it in execution scopes).
struct HintState {
    RunIo* io = nullptr;
    std::optional<Relocatable> boxedSegment;   // AllocConstantSize's bump pointer
    std::map<std::int64_t, DictTracker> dicts; // by the dict's segment index
    bool firstDictAllocated = false;
    // The current squash (InitSquashData): access indices per key, each list descending, and
    // the keys left, descending (the current key is the last).
    std::map<Felt, std::vector<std::uint64_t>> accessIndices;
    std::vector<Felt> keys;
    std::optional<int> excludedArc; // AssertLeFindSmallArcs
};

// What a hint sees when it runs: the VM and its memory, the run's builtins and shared state, and
// the three ways of reading an operand.
class HintContext {
public:
    HintContext(Vm& vm, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins,
                HintState& state)
        : m_vm(vm), m_builtins(builtins), m_state(state) {}

    Vm& vm() { return m_vm; }
    Memory& memory() { return m_vm.memory(); }
    HintState& state() { return m_state; }
    const BuiltinRunner* builtin(const std::string& name) const;

    Relocatable address(const CellRef& cell) const;
    // The operand as a field element (a Deref or DoubleDeref must hold one).
    Felt value(const ResOperand& operand) const;
    crypto::BigInt integer(const ResOperand& operand) const {
        return crypto::BigInt::fromFelt(value(operand));
    }
    // The operand as whatever the cell holds (a field element or an address).
    Value maybe(const ResOperand& operand) const;
    // The operand as an address: [cell], or [cell] + immediate; nothing else is a pointer.
    Relocatable pointer(const ResOperand& operand) const;
    // A field element read from memory.
    Felt feltAt(const Relocatable& address) const;

    // Write-once writes (an equal value already there is fine; a builtin segment's validation
    // runs).
    void write(const CellRef& cell, const Value& value);
    void write(const Relocatable& address, const Value& value);
    void write(const CellRef& cell, const crypto::BigInt& value) { write(cell, value.toFelt()); }

    [[noreturn]] void fail(const std::string& message) const;

private:
    Vm& m_vm;
    const std::vector<std::unique_ptr<BuiltinRunner>>& m_builtins;
    HintState& m_state;
};

using HintFn = std::function<void(HintContext&)>;
// Compiles one hint from its fields (operands parsed once); throws ProgramError when malformed.
using HintCompiler = std::function<HintFn(const nlohmann::json& fields)>;
using HintTable = std::map<std::string, HintCompiler>;

// Families of hints, each adding its compilers to the table.
void addMathHints(HintTable& table);     // comparisons, division, square roots, u256/u512, …
void addDictHints(HintTable& table);     // Felt252Dict, the segment arena, squashing, arcs
void addCurveHints(HintTable& table);    // RandomEcPoint, FieldSqrt
void addCircuitHints(HintTable& table);  // EvalCircuit
void addExternalHints(HintTable& table); // WriteRunParam, AddMarker, relocation, Blake2s, …
// Every hint of the compiler's enum, by name.
const HintTable& hintTable();

// Runs a Cairo 1 program's hints: compiled once from the program, run before their instructions.
// A hint this VM does not run (a Starknet syscall: an executable is not a contract) fails the run
// when it is reached, naming it and its pc.
class HintProcessor {
public:
    HintProcessor(const Program& program, RunIo& io);
    void attach(Vm& vm, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins);
    void run(Vm& vm, const Relocatable& pc);

private:
    std::map<std::uint64_t, std::vector<HintFn>> m_hints;
    HintState m_state;
    const std::vector<std::unique_ptr<BuiltinRunner>>* m_builtins = nullptr;
};

// How a panic's data reads (cairo-lang's format_for_panic): "Panicked with "message"." for a
// ByteArray, short strings shown beside their hex, several items in parentheses.
std::string panicMessage(const std::vector<Felt>& data);
// The short string a felt spells (big-endian ASCII), if it is one.
std::optional<std::string> shortString(const Felt& value);

} // namespace proofdesk::cairo::cairo1
