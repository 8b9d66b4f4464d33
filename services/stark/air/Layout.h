#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::stark::air {

// Where a virtual column lives in the trace: instance i of it is the cell of trace column
// `column` at row offset + i·step.
struct VirtualColumn {
    std::size_t column = 0;
    std::uint64_t step = 1;
    std::int64_t offset = 0;
};

// A trace cell relative to the row a constraint is evaluated at: column `column` (first trace
// columns, then the interaction columns), `row` rows further.
struct MaskItem {
    std::size_t column = 0;
    std::int64_t row = 0;
    friend auto operator<=>(const MaskItem&, const MaskItem&) = default;
};

struct BuiltinSpec {
    std::string name;
    std::map<std::string, std::uint64_t> parameters;
    // A builtin of a parametric layout the run does not use: its constraints are left out, but
    // keep their `placeholderConstraints` places (and coefficients) in the composition.
    bool used = true;
    std::size_t placeholderConstraints = 0;
    // False for a builtin the layout's AIR has segments and interaction elements for but no
    // constraints (Stone's all_cairo and its add_mod and mul_mod).
    bool constrained = true;
    // A parameter the layout must give; throws std::out_of_range naming it otherwise.
    std::uint64_t parameter(const std::string& key) const;
};

// One Cairo CPU layout as Stone lays it out: the trace's shape, its builtins with their ratios,
// and where every virtual column (and periodic column) sits. Layouts are data (see layouts/),
// read by the components that write the AIR's constraints.
struct LayoutSpec {
    std::string name;
    std::size_t columnsFirst = 0;       // trace columns committed first
    std::size_t columnsInteraction = 0; // interaction columns, after the interaction elements
    std::size_t interactionElements = 0;
    std::uint64_t cpuComponentStep = 1;
    std::uint64_t publicMemoryStep = 0;
    std::optional<std::uint64_t> dilutedSpacing;
    std::uint64_t dilutedBits = 0;
    std::vector<std::string> segments; // in the public input hash's order
    std::vector<BuiltinSpec> builtins; // in the layout's order
    std::map<std::string, VirtualColumn> columns;
    std::map<std::string, VirtualColumn> periodic;
    // The mask in the order Stone sends its out-of-domain values, when the layout fixes it (the
    // parametric `dynamic`); empty for a static layout, whose mask is every cell its constraints
    // read, ordered by column and row.
    std::vector<MaskItem> mask;
    // The values of a parametric layout's parameters (the public input's dynamic_params).
    std::map<std::string, std::uint64_t> parameters;

    const BuiltinSpec* builtin(const std::string& name) const;
    bool has(const std::string& builtinName) const { return builtin(builtinName) != nullptr; }
    // The named virtual column; throws std::out_of_range naming it when the layout lacks it.
    const VirtualColumn& column(const std::string& name) const;
    // Rows of one CPU step.
    std::uint64_t cpuRows() const { return 16 * cpuComponentStep; }
    // The layout's name as Stone encodes it in the public input: its ASCII bytes as a number.
    std::vector<std::uint8_t> nameCode() const;
};

using LayoutParameters = std::map<std::string, std::uint64_t>;

// Parses a layout description (the text format of layouts/) with the values of its parameters
// (none for a static layout); throws std::runtime_error naming the line that is wrong, a
// parameter that is missing or unknown, or a value the layout cannot take.
LayoutSpec parseLayout(const std::string& text, const LayoutParameters& parameters = {});

// The static layouts this build knows, by name; nullptr for another name (or `dynamic`).
const LayoutSpec* layoutNamed(const std::string& name);
// The parameters a parametric layout takes (the names of `dynamic`'s dynamic_params); empty for
// a static or unknown layout.
std::vector<std::string> layoutParameterNames(const std::string& name);
// Every layout this build describes, static and parametric.
std::vector<std::string> layoutNames();
// A layout by name with the public input's parameters: a static one (which must have none) or
// the parametric `dynamic`. Throws std::runtime_error saying what is wrong (an unknown layout,
// parameters missing, unknown or out of range).
std::shared_ptr<const LayoutSpec> layoutFor(const std::string& name,
                                            const LayoutParameters& parameters);

} // namespace proofdesk::stark::air
