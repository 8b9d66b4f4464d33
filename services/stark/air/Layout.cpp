#include "Layout.h"

#include "LayoutSources.h"

#include <memory>
#include <sstream>
#include <stdexcept>

// The layout description format (one statement per line, '#' starts a comment):
//   layout NAME
//   columns FIRST INTERACTION          trace columns committed first, then after interaction
//   interaction_elements N
//   cpu_component_step N               a CPU step takes 16·N rows
//   public_memory_step N               rows between public memory cells
//   diluted spacing S n_bits B         the diluted pool (absent: none)
//   segments NAME…                     memory segments, in the public input hash's order
//   builtin NAME [KEY VALUE]…          a builtin and its parameters (ratio, row_ratio, …)
//   column NAME COLUMN STEP OFFSET     virtual column NAME: instance i at (COLUMN, OFFSET + i·STEP)
//   periodic NAME STEP OFFSET          periodic column NAME on every STEP-th row

namespace proofdesk::stark::air {

std::uint64_t BuiltinSpec::parameter(const std::string& key) const {
    const auto it = parameters.find(key);
    if (it == parameters.end()) {
        throw std::out_of_range("builtin " + name + " has no parameter " + key);
    }
    return it->second;
}

const BuiltinSpec* LayoutSpec::builtin(const std::string& builtinName) const {
    for (const BuiltinSpec& spec : builtins) {
        if (spec.name == builtinName) {
            return &spec;
        }
    }
    return nullptr;
}

const VirtualColumn& LayoutSpec::column(const std::string& columnName) const {
    const auto it = columns.find(columnName);
    if (it == columns.end()) {
        throw std::out_of_range("layout " + name + " has no virtual column " + columnName);
    }
    return it->second;
}

std::vector<std::uint8_t> LayoutSpec::nameCode() const {
    std::vector<std::uint8_t> code(32, 0);
    for (std::size_t i = 0; i < name.size() && i < 32; ++i) {
        code[32 - name.size() + i] = std::uint8_t(name[i]);
    }
    return code;
}

LayoutSpec parseLayout(const std::string& text) {
    LayoutSpec spec;
    std::istringstream lines(text);
    std::string line;
    int lineNumber = 0;
    while (std::getline(lines, line)) {
        ++lineNumber;
        if (const auto hash = line.find('#'); hash != std::string::npos) {
            line.resize(hash);
        }
        std::istringstream words(line);
        std::string keyword;
        if (!(words >> keyword)) {
            continue;
        }
        const auto fail = [&] {
            return std::runtime_error("layout description, line " + std::to_string(lineNumber) +
                                      ": cannot read '" + line + "'");
        };
        if (keyword == "layout") {
            words >> spec.name;
        } else if (keyword == "columns") {
            words >> spec.columnsFirst >> spec.columnsInteraction;
        } else if (keyword == "interaction_elements") {
            words >> spec.interactionElements;
        } else if (keyword == "cpu_component_step") {
            words >> spec.cpuComponentStep;
        } else if (keyword == "public_memory_step") {
            words >> spec.publicMemoryStep;
        } else if (keyword == "diluted") {
            std::string spacingWord, bitsWord;
            std::uint64_t spacing = 0;
            words >> spacingWord >> spacing >> bitsWord >> spec.dilutedBits;
            if (spacingWord != "spacing" || bitsWord != "n_bits") {
                throw fail();
            }
            spec.dilutedSpacing = spacing;
        } else if (keyword == "segments") {
            std::string segment;
            while (words >> segment) {
                spec.segments.push_back(segment);
            }
        } else if (keyword == "builtin") {
            BuiltinSpec builtin;
            words >> builtin.name;
            std::string key;
            std::uint64_t value = 0;
            while (words >> key) {
                if (!(words >> value)) {
                    throw fail();
                }
                builtin.parameters[key] = value;
            }
            spec.builtins.push_back(std::move(builtin));
        } else if (keyword == "column" || keyword == "periodic") {
            std::string name;
            VirtualColumn column;
            words >> name;
            if (keyword == "column") {
                words >> column.column;
            }
            words >> column.step >> column.offset;
            (keyword == "column" ? spec.columns : spec.periodic)[name] = column;
        } else {
            throw fail();
        }
        if (words.fail() && !words.eof()) {
            throw fail();
        }
    }
    if (spec.name.empty() || spec.columnsFirst == 0) {
        throw std::runtime_error("layout description without a name or columns");
    }
    return spec;
}

namespace {

const std::map<std::string, std::unique_ptr<LayoutSpec>>& knownLayouts() {
    static const auto layouts = [] {
        std::map<std::string, std::unique_ptr<LayoutSpec>> all;
        for (const LayoutSource& source : layoutSources()) {
            all[source.name] = std::make_unique<LayoutSpec>(parseLayout(source.text));
        }
        return all;
    }();
    return layouts;
}

} // namespace

const LayoutSpec* layoutNamed(const std::string& name) {
    const auto it = knownLayouts().find(name);
    return it == knownLayouts().end() ? nullptr : it->second.get();
}

std::vector<std::string> layoutNames() {
    std::vector<std::string> names;
    for (const auto& [name, spec] : knownLayouts()) {
        names.push_back(name);
    }
    return names;
}

} // namespace proofdesk::stark::air
