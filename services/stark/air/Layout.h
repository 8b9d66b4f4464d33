#pragma once

#include <cstdint>
#include <map>
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

struct BuiltinSpec {
    std::string name;
    std::map<std::string, std::uint64_t> parameters;
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

    const BuiltinSpec* builtin(const std::string& name) const;
    bool has(const std::string& builtinName) const { return builtin(builtinName) != nullptr; }
    // The named virtual column; throws std::out_of_range naming it when the layout lacks it.
    const VirtualColumn& column(const std::string& name) const;
    // Rows of one CPU step.
    std::uint64_t cpuRows() const { return 16 * cpuComponentStep; }
    // The layout's name as Stone encodes it in the public input: its ASCII bytes as a number.
    std::vector<std::uint8_t> nameCode() const;
};

// Parses a layout description (the text format of layouts/); throws std::runtime_error naming
// the line that is wrong.
LayoutSpec parseLayout(const std::string& text);

// The layouts this build knows, by name; nullptr for another name.
const LayoutSpec* layoutNamed(const std::string& name);
std::vector<std::string> layoutNames();

} // namespace proofdesk::stark::air
