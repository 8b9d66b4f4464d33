#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::cairo {

struct LayoutBuiltin {
    std::string name;
    int ratio = 0;                 // CPU steps per instance (per component); 0: no ratio (output)
    int instancesPerComponent = 1; // keccak: 16
    // The layout's AIR has trace cells for every allocated instance, so unused ones are padded
    // there; false for all_cairo's add_mod and mul_mod, which Stone's layout leaves unconstrained.
    bool inTrace = true;
};

// A Cairo layout: which builtins exist (in order), their ratios, and the AIR's resources.
struct Layout {
    std::string name;
    int rcUnits = 16;
    int publicMemoryFraction = 4;
    int memoryUnitsPerStep = 8;
    std::optional<int> logDilutedUnitsPerStep; // absent: no diluted pool
    std::vector<LayoutBuiltin> builtins;
    int traceColumns = 0;       // Stone's first + second trace columns, to rank layouts by cost
    std::uint64_t minSteps = 1; // smallest padded trace for an (almost) empty program

    const LayoutBuiltin* builtin(const std::string& name) const;
    bool has(const std::string& name) const { return builtin(name) != nullptr; }
};

// The named layouts of cairo-lang 0.14 (not `dynamic`); nullopt for an unknown name.
std::optional<Layout> layoutNamed(const std::string& name);
const std::vector<std::string>& layoutNames();
// A named layout or `dynamic`: what a proof's public input may state.
bool isLayoutName(const std::string& name);
// Layout `auto`: among the named layouts whose AIR constrains every one of `builtins`, the one
// with the least prover work, estimated as trace columns × padded steps, padded steps being the
// larger of the layout's minimum and the power of two above `steps`. Where no named layout does
// (the mod builtins, which only all_cairo has and does not constrain), `dynamic` with
// defaultDynamicParams. Empty if not even `dynamic` has the builtins.
std::string autoLayout(const std::vector<std::string>& builtins, std::uint64_t steps);

// What a run asks of a layout, independent of the layout: the builtins it used and their
// instances, the range-check units its builtins' cells take, the span of all range-checked values
// (instruction offsets and builtin limbs; Stone fills every gap in it), and its memory holes.
struct RunDemand {
    std::uint64_t steps = 0;
    std::map<std::string, std::uint64_t> instances;
    std::vector<std::string> required; // builtins the layout must have
    std::uint64_t rangeCheckUnits = 0;
    std::uint64_t rangeCheckSpan = 0;
    std::uint64_t memoryHoles = 0;
};
// Whether the run fits `layout` padded to `steps`: every builtin's allocated instances hold its
// used ones, and the range-check units, memory units and diluted pool suffice (Stone's check on
// used cells; the runner pads a proof-mode run until this holds).
bool fitsAt(const Layout& layout, const RunDemand& demand, std::uint64_t steps);
// The padded steps the run takes on `layout`: the least power of two from the run's steps and the
// layout's minimum at which it fits; nullopt when the layout's AIR lacks a required builtin or the
// run fits nowhere under 2^28 steps.
std::optional<std::uint64_t> paddedStepsOn(const Layout& layout, const RunDemand& demand);
// Layout `auto` for a run whose demand is known (a probe run, a PIE's execution resources): the
// named layout with the least prover work, trace columns × paddedStepsOn; else `dynamic` as
// autoLayout. A bootloader declares every builtin but a run uses few, and a run that range-checks
// 128-bit values spans all 2^16 range-check values, which a layout with few units per step pays
// for in steps: choosing by what the run uses keeps it small.
std::string cheapestLayout(const RunDemand& demand);
// A run's demand from its execution_resources JSON (n_steps, builtin_instance_counter,
// n_memory_holes): the builtins it used are required; a used range_check builtin is taken to span
// the whole 16-bit range (its limbs do, in practice).
RunDemand runDemandOf(const nlohmann::json& executionResources);
// `dynamic` from a cairo_layout_params_file JSON: Stone's dynamic_params (periods in trace rows),
// or cairo-lang's form (units per step, ratios in steps). Throws std::runtime_error saying what
// is missing or does not fit.
Layout dynamicLayout(const nlohmann::json& params);
// The builtins a dynamic layout may use, in its order (after output).
std::vector<std::string> dynamicLayoutBuiltins();
// Stone dynamic_params of Proofdesk's own for a run that names no layout params file: every
// column where all_cairo has it (and all_cairo's ratios), add_mod and mul_mod in cells all_cairo
// leaves free; the builtins among `builtins` used, the others left out.
nlohmann::json defaultDynamicParams(const std::vector<std::string>& builtins);

} // namespace proofdesk::cairo
