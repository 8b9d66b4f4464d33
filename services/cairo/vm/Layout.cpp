#include "cairo/vm/Layout.h"

#include "cairo/vm/Builtins.h"

#include <algorithm>
#include <bit>
#include <memory>

#include <stdexcept>
#include <utility>

// Ratios and resources per layout as cairo-lang 0.14's instances.py defines them, cross-checked
// with Stone's cpu_air_definition*.h (docs/stark.md lists the layouts).

namespace proofdesk::cairo {
namespace {

std::vector<Layout> allLayouts() {
    return {
        {"plain", 16, 4, 8, std::nullopt, {}, 8},
        {"small",
         16,
         4,
         8,
         std::nullopt,
         {{"output", 0, 1}, {"pedersen", 8, 1}, {"range_check", 8, 1}, {"ecdsa", 512, 1}},
         25},
        {"dex",
         4,
         4,
         8,
         std::nullopt,
         {{"output", 0, 1}, {"pedersen", 8, 1}, {"range_check", 8, 1}, {"ecdsa", 512, 1}},
         22},
        {"recursive",
         4,
         8,
         8,
         4,
         {{"output", 0, 1}, {"pedersen", 128, 1}, {"range_check", 8, 1}, {"bitwise", 8, 1}},
         10},
        {"starknet",
         4,
         4,
         8,
         1,
         {{"output", 0, 1},
          {"pedersen", 32, 1},
          {"range_check", 16, 1},
          {"ecdsa", 2048, 1},
          {"bitwise", 64, 1},
          {"ec_op", 1024, 1},
          {"poseidon", 32, 1}},
         10},
        {"starknet_with_keccak",
         4,
         4,
         8,
         4,
         {{"output", 0, 1},
          {"pedersen", 32, 1},
          {"range_check", 16, 1},
          {"ecdsa", 2048, 1},
          {"bitwise", 64, 1},
          {"ec_op", 1024, 1},
          {"keccak", 2048, 16},
          {"poseidon", 32, 1}},
         15},
        {"recursive_with_poseidon",
         4,
         8,
         8,
         3,
         {{"output", 0, 1},
          {"pedersen", 256, 1},
          {"range_check", 16, 1},
          {"bitwise", 16, 1},
          {"poseidon", 64, 1}},
         8},
        {"recursive_large_output",
         4,
         8,
         8,
         4,
         {{"output", 0, 1},
          {"pedersen", 128, 1},
          {"range_check", 8, 1},
          {"bitwise", 8, 1},
          {"poseidon", 8, 1}},
         12},
        {"all_cairo",
         8,
         8,
         8,
         4,
         {{"output", 0, 1},
          {"pedersen", 256, 1},
          {"range_check", 8, 1},
          {"ecdsa", 2048, 1},
          {"bitwise", 16, 1},
          {"ec_op", 1024, 1},
          {"keccak", 2048, 16},
          {"poseidon", 256, 1},
          {"range_check96", 8, 1},
          {"add_mod", 128, 1, false},
          {"mul_mod", 256, 1, false}},
         12},
        {"all_solidity",
         8,
         8,
         8,
         4,
         {{"output", 0, 1},
          {"pedersen", 8, 1},
          {"range_check", 8, 1},
          {"ecdsa", 512, 1},
          {"bitwise", 256, 1},
          {"ec_op", 256, 1}},
         27},
    };
}

std::vector<Layout> layoutsWithMinimums() {
    // Minimum padded steps per layout (Stone's check_used_cells).
    const std::pair<const char*, std::uint64_t> minimums[] = {{"plain", 1},
                                                              {"small", 512},
                                                              {"dex", 512},
                                                              {"recursive", 16384},
                                                              {"starknet", 131072},
                                                              {"starknet_with_keccak", 32768},
                                                              {"recursive_with_poseidon", 32768},
                                                              {"recursive_large_output", 16384},
                                                              {"all_cairo", 32768},
                                                              {"all_solidity", 8192}};
    std::vector<Layout> layouts = allLayouts();
    for (Layout& layout : layouts) {
        for (const auto& [name, steps] : minimums) {
            if (layout.name == name) {
                layout.minSteps = steps;
            }
        }
    }
    return layouts;
}

} // namespace

std::string autoLayout(const std::vector<std::string>& builtins, std::uint64_t steps) {
    RunDemand demand;
    demand.steps = steps;
    demand.required = builtins;
    return cheapestLayout(demand);
}

bool fitsAt(const Layout& layout, const RunDemand& demand, std::uint64_t steps) {
    std::uint64_t builtinMemoryUnits = 0;
    std::uint64_t dilutedUnits = 0;
    for (const LayoutBuiltin& spec : layout.builtins) {
        if (spec.ratio <= 0) {
            continue;
        }
        const auto ratio = static_cast<std::uint64_t>(spec.ratio);
        if (steps < ratio * static_cast<std::uint64_t>(spec.instancesPerComponent)) {
            return false;
        }
        const std::uint64_t allocated = steps / ratio;
        const auto used = demand.instances.find(spec.name);
        if (used != demand.instances.end() && used->second > allocated) {
            return false;
        }
        const std::unique_ptr<BuiltinRunner> builtin = makeBuiltinRunner(spec.name, spec, false);
        if (!builtin) {
            return false; // a builtin this VM does not know: not a layout to choose
        }
        builtinMemoryUnits += allocated * (static_cast<std::uint64_t>(builtin->cellsPerInstance()) +
                                           builtin->extraMemoryUnitsPerInstance());
        dilutedUnits += allocated * builtin->dilutedUnitsPerInstance();
    }
    if (layout.rcUnits < 3) {
        return false;
    }
    const std::uint64_t rcUnits = static_cast<std::uint64_t>(layout.rcUnits - 3) * steps;
    if (rcUnits < demand.rangeCheckUnits ||
        rcUnits - demand.rangeCheckUnits < demand.rangeCheckSpan) {
        return false;
    }
    const std::uint64_t total = static_cast<std::uint64_t>(layout.memoryUnitsPerStep) * steps;
    const std::uint64_t publicUnits =
        total / static_cast<std::uint64_t>(layout.publicMemoryFraction);
    const std::uint64_t used = publicUnits + 4 * steps + builtinMemoryUnits;
    if (total < used || total - used < demand.memoryHoles) {
        return false;
    }
    if (layout.logDilutedUnitsPerStep) {
        const int log = *layout.logDilutedUnitsPerStep;
        const std::uint64_t pool = log >= 0 ? (steps << log) : (steps >> (-log));
        if (pool < dilutedUnits || pool - dilutedUnits < (1ULL << 16)) {
            return false;
        }
    }
    return true;
}

std::optional<std::uint64_t> paddedStepsOn(const Layout& layout, const RunDemand& demand) {
    for (const std::string& name : demand.required) {
        const LayoutBuiltin* builtin = layout.builtin(name);
        if (!builtin || !builtin->inTrace) {
            return std::nullopt;
        }
    }
    std::uint64_t padded = 1;
    while (padded < std::max(demand.steps, layout.minSteps)) {
        padded <<= 1;
    }
    for (; padded <= (1ULL << 28); padded <<= 1) {
        if (fitsAt(layout, demand, padded)) {
            return padded;
        }
    }
    return std::nullopt;
}

std::string cheapestLayout(const RunDemand& demand) {
    std::string best;
    double bestCost = 0;
    for (const Layout& layout : layoutsWithMinimums()) {
        // all_cairo, whose AIR leaves its mod builtins unconstrained (see docs/stark.md), is
        // never the cheapest layout for other programs either.
        const bool unconstrained =
            std::any_of(layout.builtins.begin(), layout.builtins.end(),
                        [](const LayoutBuiltin& builtin) { return !builtin.inTrace; });
        const std::optional<std::uint64_t> steps = paddedStepsOn(layout, demand);
        if (!steps || unconstrained) {
            continue;
        }
        const double cost = static_cast<double>(layout.traceColumns) * static_cast<double>(*steps);
        if (best.empty() || cost < bestCost) {
            best = layout.name;
            bestCost = cost;
        }
    }
    if (best.empty()) {
        const std::vector<std::string> dynamicBuiltins = dynamicLayoutBuiltins();
        const bool dynamicCovers = std::all_of(
            demand.required.begin(), demand.required.end(), [&](const std::string& name) {
                return name == "output" || std::find(dynamicBuiltins.begin(), dynamicBuiltins.end(),
                                                     name) != dynamicBuiltins.end();
            });
        if (dynamicCovers) {
            best = "dynamic";
        }
    }
    return best;
}

namespace {

// A count in execution resources (a non-negative integer), else 0.
std::uint64_t countIn(const nlohmann::json& value) {
    if (value.is_number_unsigned()) {
        return value.get<std::uint64_t>();
    }
    return value.is_number_integer() && value.get<std::int64_t>() > 0
               ? static_cast<std::uint64_t>(value.get<std::int64_t>())
               : 0;
}

} // namespace

RunDemand runDemandOf(const nlohmann::json& executionResources) {
    RunDemand demand;
    if (!executionResources.is_object()) {
        return demand;
    }
    demand.steps = countIn(executionResources.value("n_steps", nlohmann::json()));
    const nlohmann::json counter =
        executionResources.value("builtin_instance_counter", nlohmann::json::object());
    if (counter.is_object()) {
        for (const auto& [key, value] : counter.items()) {
            const std::string suffix = "_builtin";
            const std::uint64_t instances = countIn(value);
            if (instances == 0) {
                continue;
            }
            const std::string name =
                key.size() > suffix.size() &&
                        key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0
                    ? key.substr(0, key.size() - suffix.size())
                    : key;
            demand.instances[name] = instances;
            demand.required.push_back(name);
        }
    }
    for (const auto& [name, unitsPerInstance] :
         {std::pair<const char*, std::uint64_t>{"range_check", 8}, {"range_check96", 6}}) {
        if (const auto used = demand.instances.find(name); used != demand.instances.end()) {
            demand.rangeCheckUnits += used->second * unitsPerInstance;
            demand.rangeCheckSpan = (1ULL << 16) - 1;
        }
    }
    demand.memoryHoles = countIn(executionResources.value("n_memory_holes", nlohmann::json()));
    return demand;
}

const LayoutBuiltin* Layout::builtin(const std::string& builtinName) const {
    for (const LayoutBuiltin& b : builtins) {
        if (b.name == builtinName) {
            return &b;
        }
    }
    return nullptr;
}

std::optional<Layout> layoutNamed(const std::string& name) {
    for (Layout& layout : layoutsWithMinimums()) {
        if (layout.name == name) {
            return layout;
        }
    }
    return std::nullopt;
}

bool isLayoutName(const std::string& name) {
    return name == "dynamic" || layoutNamed(name).has_value();
}

const std::vector<std::string>& layoutNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const Layout& layout : allLayouts()) {
            out.push_back(layout.name);
        }
        out.push_back("dynamic");
        return out;
    }();
    return names;
}

namespace {

// A layout parameter that must be a non-negative integer (a flag may be a boolean).
std::uint64_t layoutParameter(const nlohmann::json& params, const std::string& key,
                              std::optional<std::uint64_t> fallback = std::nullopt) {
    const auto it = params.find(key);
    if (it == params.end()) {
        if (fallback) {
            return *fallback;
        }
        throw std::runtime_error("layout params lack " + key);
    }
    if (it->is_boolean()) {
        return it->get<bool>() ? 1 : 0;
    }
    if (!it->is_number_integer() || (!it->is_number_unsigned() && it->get<std::int64_t>() < 0)) {
        throw std::runtime_error("layout params: " + key + " is not a non-negative integer");
    }
    return it->get<std::uint64_t>();
}

// The builtins a dynamic layout may use, in the layout's order, with the name of each one's
// period in trace rows in Stone's dynamic_params.
constexpr std::pair<const char*, const char*> kDynamicBuiltins[] = {
    {"pedersen", "pedersen_builtin_row_ratio"},
    {"range_check", "range_check_builtin_row_ratio"},
    {"ecdsa", "ecdsa_builtin_row_ratio"},
    {"bitwise", "bitwise__row_ratio"},
    {"ec_op", "ec_op_builtin_row_ratio"},
    {"keccak", "keccak__row_ratio"},
    {"poseidon", "poseidon__row_ratio"},
    {"range_check96", "range_check96_builtin_row_ratio"},
    {"add_mod", "add_mod__row_ratio"},
    {"mul_mod", "mul_mod__row_ratio"},
};

int instancesPerComponent(const std::string& builtin) {
    return builtin == "keccak" ? 16 : 1;
}

// Stone's dynamic_params (what a dynamic proof's public input carries): every component's period
// is given in trace rows, and a CPU step takes 16·cpu_component_step rows.
Layout layoutFromRowRatios(const nlohmann::json& params) {
    const std::uint64_t stepRows = 16 * layoutParameter(params, "cpu_component_step");
    const auto perStep = [&](const std::string& key) {
        const std::uint64_t rows = layoutParameter(params, key);
        if (rows == 0 || stepRows % rows != 0) {
            throw std::runtime_error("layout params: " + key + " (" + std::to_string(rows) +
                                     ") does not divide a step's " + std::to_string(stepRows) +
                                     " rows");
        }
        return static_cast<int>(stepRows / rows);
    };
    Layout layout;
    layout.name = "dynamic";
    layout.rcUnits = perStep("range_check_units_row_ratio");
    layout.publicMemoryFraction = 8;
    layout.memoryUnitsPerStep = perStep("memory_units_row_ratio");
    const int dilutedUnits = perStep("diluted_units_row_ratio");
    if (!std::has_single_bit(static_cast<unsigned>(dilutedUnits))) {
        throw std::runtime_error("layout params: a step's diluted units (" +
                                 std::to_string(dilutedUnits) + ") are not a power of two");
    }
    layout.logDilutedUnitsPerStep = std::countr_zero(static_cast<unsigned>(dilutedUnits));
    layout.builtins.push_back({"output", 0, 1});
    for (const auto& [name, rowRatio] : kDynamicBuiltins) {
        if (layoutParameter(params, std::string("uses_") + name + "_builtin") == 0) {
            continue;
        }
        const std::uint64_t rows = layoutParameter(params, rowRatio);
        if (rows == 0 || rows % stepRows != 0) {
            throw std::runtime_error("layout params: " + std::string(rowRatio) + " (" +
                                     std::to_string(rows) + ") is not a whole number of steps");
        }
        layout.builtins.push_back(
            {name, static_cast<int>(rows / stepRows), instancesPerComponent(name)});
    }
    return layout;
}

// cairo-lang's cairo_layout_params_file: units per step and each builtin's ratio in steps.
Layout layoutFromStepRatios(const nlohmann::json& params) {
    Layout layout;
    layout.name = "dynamic";
    layout.rcUnits = static_cast<int>(layoutParameter(params, "rc_units", 4));
    layout.publicMemoryFraction = 8;
    layout.memoryUnitsPerStep =
        static_cast<int>(layoutParameter(params, "memory_units_per_step", 8));
    layout.logDilutedUnitsPerStep =
        static_cast<int>(layoutParameter(params, "log_diluted_units_per_step", 4));
    layout.builtins.push_back({"output", 0, 1});
    for (const std::string& name : dynamicLayoutBuiltins()) {
        if (layoutParameter(params, "uses_" + name + "_builtin", 0) != 0) {
            const auto ratio = layoutParameter(params, name + "_ratio", 0);
            layout.builtins.push_back({name, static_cast<int>(ratio), instancesPerComponent(name)});
        }
    }
    return layout;
}

} // namespace

std::vector<std::string> dynamicLayoutBuiltins() {
    std::vector<std::string> names;
    for (const auto& builtin : kDynamicBuiltins) {
        names.emplace_back(builtin.first);
    }
    return names;
}

Layout dynamicLayout(const nlohmann::json& params) {
    if (!params.is_object()) {
        throw std::runtime_error("layout params must be a JSON object");
    }
    return params.contains("memory_units_row_ratio") ? layoutFromRowRatios(params)
                                                     : layoutFromStepRatios(params);
}

} // namespace proofdesk::cairo
