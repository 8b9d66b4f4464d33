#include "cairo/vm/Layout.h"

#include <algorithm>

#include <stdexcept>

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
          {"add_mod", 128, 1},
          {"mul_mod", 256, 1}},
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
    std::uint64_t padded = 1;
    while (padded <= steps) {
        padded <<= 1;
    }
    std::string best;
    double bestCost = 0;
    for (const Layout& layout : layoutsWithMinimums()) {
        bool covers = true;
        for (const std::string& name : builtins) {
            covers = covers && layout.has(name);
        }
        // Layouts with the mod builtins cannot run in proof mode here (CairoRunner refuses):
        // they are chosen only for a program that declares add_mod or mul_mod.
        const bool needsMod =
            std::find(builtins.begin(), builtins.end(), "add_mod") != builtins.end() ||
            std::find(builtins.begin(), builtins.end(), "mul_mod") != builtins.end();
        if (!covers || (!needsMod && (layout.has("add_mod") || layout.has("mul_mod")))) {
            continue;
        }
        const double cost = static_cast<double>(layout.traceColumns) *
                            static_cast<double>(std::max(padded, layout.minSteps));
        if (best.empty() || cost < bestCost) {
            best = layout.name;
            bestCost = cost;
        }
    }
    return best;
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

Layout dynamicLayout(const nlohmann::json& params) {
    if (!params.is_object()) {
        throw std::runtime_error("layout params must be a JSON object");
    }
    Layout layout;
    layout.name = "dynamic";
    layout.rcUnits = params.value("rc_units", 4);
    layout.publicMemoryFraction = 8;
    layout.memoryUnitsPerStep = params.value("memory_units_per_step", 8);
    layout.logDilutedUnitsPerStep = params.value("log_diluted_units_per_step", 4);
    layout.builtins.push_back({"output", 0, 1});
    for (const char* name : {"pedersen", "range_check", "ecdsa", "bitwise", "ec_op", "keccak",
                             "poseidon", "range_check96", "add_mod", "mul_mod"}) {
        const std::string key = std::string("uses_") + name + "_builtin";
        if (params.value(key, false)) {
            const int ratio = params.value(std::string(name) + "_ratio", 0);
            layout.builtins.push_back({name, ratio, std::string(name) == "keccak" ? 16 : 1});
        }
    }
    layout.traceColumns = 0;
    return layout;
}

} // namespace proofdesk::cairo
