#pragma once

#include "cairo/cairo1/Cairo1Hints.h"
#include "cairo/hints/HintProcessor.h"
#include "cairo/vm/Builtins.h"
#include "cairo/vm/ExecutionResources.h"
#include "cairo/vm/Layout.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/Vm.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace proofdesk::cairo {

struct CairoPie;

struct RunOptions {
    std::string layout = "plain"; // a named layout, "dynamic", or "auto" (see autoLayout)
    std::optional<nlohmann::json> dynamicLayoutParams; // for layout "dynamic"
    bool proofMode = false;
    std::optional<bool> allowMissingBuiltins; // default: true in proof mode
    // Layout `auto` needs only the builtins the run uses, not every one the program declares.
    // Only for the bootloader's run over a PIE: its proof is recognised by its program's words;
    // any other program's statement must show every builtin it declares (its program hash,
    // compute_program_hash_chain, is read from them).
    bool autoLayoutByUsedBuiltins = false;
    std::optional<std::uint64_t> maxSteps;
    std::optional<std::uint64_t> steps;    // run exactly this many steps (cairo-run --steps)
    std::optional<std::uint64_t> minSteps; // run at least this many (cairo-run --min_steps)
    bool traceEnabled = true;
    nlohmann::json programInput; // exposed to hints as program_input
    HintOptions hints;           // native only (cairoVm=rust) or with Python hints
    bool padTrace = true;        // proof mode: pad to a power of two that fits the layout
    // A Cairo 1 program's arguments (the flat Serde felts of its parameters, as Scarb takes
    // them); its wrapper reads them with WriteRunParam.
    std::vector<Felt> arguments;
};

// Loads a program into memory, runs it to its end (and, in proof mode, pads the trace to a power
// of two that fits the layout), then relocates and produces cairo-run's outputs.
class CairoRunner {
public:
    // The runner keeps a reference to `program`, which must outlive it (a temporary cannot).
    CairoRunner(const Program& program, RunOptions options);
    CairoRunner(Program&& program, RunOptions options) = delete;
    ~CairoRunner();

    void run(); // throws VmError / ProgramError

    const Program& program() const { return m_program; }
    const RunOptions& options() const { return m_options; }
    const Layout& layout() const { return m_layout; }
    Memory& memory() { return m_memory; }
    const Memory& memory() const { return m_memory; }
    const Vm& vm() const { return *m_vm; }
    const std::vector<std::unique_ptr<BuiltinRunner>>& builtins() const { return m_builtins; }
    std::uint64_t originalSteps() const { return m_originalSteps; }
    // A Cairo 1 run's markers (its result or panic data), valid after run().
    const cairo1::RunIo& cairo1Io() const { return m_cairo1Io; }

    // Output builtin cells (empty when the program has no output builtin).
    std::vector<Felt> output() const;
    ExecutionResources executionResources() const;
    // What this finished run asks of a layout (Layout.h's cheapestLayout): its steps, the
    // builtins it used (required), their instances and the range-check units taken.
    RunDemand runDemand() const;

    // Relocation (valid after run()).
    std::uint64_t relocate(const Relocatable& address) const;
    void writeTrace(std::ostream& out) const;
    void writeMemory(std::ostream& out) const;
    // In cairo-run's key order.
    nlohmann::ordered_json airPublicInput() const;
    nlohmann::ordered_json airPrivateInput(const std::string& tracePath,
                                           const std::string& memoryPath) const;

    // The sections cairo-run prints.
    std::string printedOutput() const;
    std::string printedInfo(bool relocated = false) const;
    std::string printedMemory(bool relocated) const;
    std::string printedSegments() const;
    // The finished non-proof run as a Cairo PIE (cairo-run --cairo_pie_output); throws PieError
    // for a proof-mode run.
    CairoPie pie() const;

    Relocatable programBase() const { return {0, 0}; }
    Relocatable executionBase() const { return {1, 0}; }

private:
    void initialize();
    void runUntilPc(const Relocatable& end);
    void runToEnd(); // to the end pc; a Cairo 1 panic reads as its message
    void runForSteps(std::uint64_t count);
    bool checkUsedCells();
    std::uint64_t memoryHoles(bool finalized) const;
    void readReturnValues();
    void finalizeSegments();
    void computeRelocation();
    std::uint64_t segmentSize(std::int64_t segment) const;

    const Program& m_program;
    RunOptions m_options;
    Layout m_layout;
    Memory m_memory;
    std::unique_ptr<Vm> m_vm;
    std::vector<std::unique_ptr<BuiltinRunner>> m_builtins;
    std::unique_ptr<HintProcessor> m_hints;
    cairo1::RunIo m_cairo1Io;
    std::unique_ptr<cairo1::HintProcessor> m_cairo1Hints;
    Relocatable m_endPc;
    Relocatable m_initialAp;
    std::vector<std::uint64_t> m_executionPublicMemory; // offsets in the execution segment
    std::vector<std::optional<std::uint64_t>> m_finalSizes;
    std::vector<Relocatable> m_stopPointers; // per builtin runner
    std::vector<std::uint64_t> m_bases;
    std::uint64_t m_originalSteps = 0;
    bool m_finished = false;
};

} // namespace proofdesk::cairo
