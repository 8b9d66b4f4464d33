#include "Layout.h"

#include "LayoutSources.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

// The layout description format (one statement per line, '#' starts a comment):
//   layout NAME
//   parameters NAME…                   a parametric layout's parameters (`dynamic`: the public
//                                      input's dynamic_params), all required
//   columns FIRST INTERACTION          trace columns committed first, then after interaction
//   interaction_elements N
//   cpu_component_step N               a CPU step takes 16·N rows
//   public_memory_step N               rows between public memory cells
//   diluted spacing S n_bits B         the diluted pool (absent: none)
//   segments NAME…                     memory segments, in the public input hash's order
//   builtin NAME [KEY VALUE]…          a builtin and its parameters (ratio, row_ratio, …)
//   column NAME COLUMN STEP OFFSET     virtual column NAME: instance i at (COLUMN, OFFSET + i·STEP)
//   periodic NAME STEP OFFSET          periodic column NAME on every STEP-th row
//   mask COLUMN ROW                    a fixed mask order: the next cell Stone sends a value of
// A builtin's keys `uses` (0: the run leaves it out) and `constraints` (the places its
// constraints keep in the composition when left out) serve parametric layouts; `constrained 0`
// says the layout's AIR has no constraints for it (only its segment and interaction element). Every
// number may be a value: a sum of terms, each a product of numbers and parameters with an optional
// exact divisor, e.g. `16*cpu_component_step` or `pedersen_builtin_row_ratio/512`.

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

namespace {

constexpr std::uint64_t kMaxValue = std::uint64_t(1) << 62;

[[noreturn]] void badValue(const std::string& what) {
    throw std::runtime_error(what);
}

// One value of a description: a sum of terms, each a product of numbers and parameters with an
// optional exact divisor ("16*cpu_component_step", "3*bitwise__row_ratio/64"); a leading '-'
// negates a plain number (static layouts' offsets).
std::int64_t evaluate(const std::string& text, const LayoutParameters& parameters) {
    if (text.size() > 1 && text[0] == '-') {
        return -evaluate(text.substr(1), parameters);
    }
    std::uint64_t sum = 0;
    std::size_t termStart = 0;
    while (termStart <= text.size()) {
        const std::size_t termEnd = std::min(text.find('+', termStart), text.size());
        const std::string term = text.substr(termStart, termEnd - termStart);
        const std::size_t slash = term.find('/');
        const std::string product = term.substr(0, slash);
        std::uint64_t value = 1;
        std::size_t factorStart = 0;
        while (factorStart <= product.size()) {
            const std::size_t factorEnd = std::min(product.find('*', factorStart), product.size());
            const std::string factor = product.substr(factorStart, factorEnd - factorStart);
            std::uint64_t number = 0;
            if (factor.empty()) {
                badValue("cannot read the value '" + text + "'");
            } else if (std::isdigit(static_cast<unsigned char>(factor[0]))) {
                number = std::stoull(factor);
            } else {
                const auto it = parameters.find(factor);
                if (it == parameters.end()) {
                    badValue("the layout needs the parameter " + factor);
                }
                number = it->second;
            }
            if (number != 0 && value > kMaxValue / number) {
                badValue("the value " + text + " is out of range");
            }
            value *= number;
            factorStart = factorEnd + 1;
        }
        if (slash != std::string::npos) {
            const std::uint64_t divisor = std::stoull(term.substr(slash + 1));
            if (divisor == 0 || value % divisor != 0) {
                badValue("the value " + product + " is not a multiple of " +
                         term.substr(slash + 1));
            }
            value /= divisor;
        }
        sum += value; // both at most 2^62
        if (sum > kMaxValue) {
            badValue("the value " + text + " is out of range");
        }
        termStart = termEnd + 1;
    }
    return std::int64_t(sum);
}

} // namespace

LayoutSpec parseLayout(const std::string& text, const LayoutParameters& parameters) {
    LayoutSpec spec;
    std::istringstream lines(text);
    std::string line;
    int lineNumber = 0;
    bool declaresParameters = false;
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
                                      ": cannot read '" + line.substr(0, 120) + "'");
        };
        // The next word as a value; throws when there is none.
        const auto next = [&]() -> std::int64_t {
            std::string word;
            if (!(words >> word)) {
                throw fail();
            }
            try {
                return evaluate(word, parameters);
            } catch (const std::invalid_argument&) {
                throw fail();
            } catch (const std::out_of_range&) {
                throw fail();
            }
        };
        const auto nextCount = [&]() -> std::uint64_t {
            const std::int64_t value = next();
            if (value < 0) {
                throw fail();
            }
            return std::uint64_t(value);
        };
        if (keyword == "layout") {
            words >> spec.name;
        } else if (keyword == "parameters") {
            declaresParameters = true;
            std::set<std::string> names;
            for (std::string name; words >> name;) {
                if (!parameters.contains(name)) {
                    badValue("dynamic_params lacks " + name);
                }
                names.insert(name);
            }
            for (const auto& [given, value] : parameters) {
                if (!names.contains(given)) {
                    badValue("dynamic_params has " + given.substr(0, 64) + ", which the layout " +
                             spec.name + " does not take");
                }
            }
            spec.parameters = parameters;
        } else if (keyword == "columns") {
            spec.columnsFirst = nextCount();
            spec.columnsInteraction = nextCount();
        } else if (keyword == "interaction_elements") {
            spec.interactionElements = nextCount();
        } else if (keyword == "cpu_component_step") {
            spec.cpuComponentStep = nextCount();
        } else if (keyword == "public_memory_step") {
            spec.publicMemoryStep = nextCount();
        } else if (keyword == "diluted") {
            std::string spacingWord, bitsWord;
            words >> spacingWord;
            const std::uint64_t spacing = nextCount();
            words >> bitsWord;
            spec.dilutedBits = nextCount();
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
            while (words >> key) {
                const std::uint64_t value = nextCount();
                if (key == "uses") {
                    builtin.used = value != 0;
                } else if (key == "constraints") {
                    builtin.placeholderConstraints = value;
                } else if (key == "constrained") {
                    builtin.constrained = value != 0;
                } else {
                    builtin.parameters[key] = value;
                }
            }
            spec.builtins.push_back(std::move(builtin));
        } else if (keyword == "column" || keyword == "periodic") {
            std::string name;
            VirtualColumn column;
            words >> name;
            if (keyword == "column") {
                column.column = nextCount();
            }
            column.step = nextCount();
            column.offset = next();
            (keyword == "column" ? spec.columns : spec.periodic)[name] = column;
        } else if (keyword == "mask") {
            MaskItem item;
            item.column = nextCount();
            item.row = next();
            spec.mask.push_back(item);
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
    if (!declaresParameters && !parameters.empty()) {
        badValue("the layout " + spec.name + " takes no dynamic_params");
    }
    return spec;
}

namespace {

// The names on a description's `parameters` line; empty for a static layout.
std::vector<std::string> parametersDeclared(const LayoutSource& source) {
    std::vector<std::string> names;
    const std::size_t at = source.text.find("\nparameters ");
    if (at != std::string::npos) {
        const std::size_t end = source.text.find('\n', at + 1);
        std::istringstream words(source.text.substr(at + 12, end - at - 12));
        for (std::string word; words >> word;) {
            names.push_back(word);
        }
    }
    return names;
}

bool isParametric(const LayoutSource& source) {
    return !parametersDeclared(source).empty();
}

const std::map<std::string, std::unique_ptr<LayoutSpec>>& knownLayouts() {
    static const auto layouts = [] {
        std::map<std::string, std::unique_ptr<LayoutSpec>> all;
        for (const LayoutSource& source : layoutSources()) {
            if (!isParametric(source)) {
                all[source.name] = std::make_unique<LayoutSpec>(parseLayout(source.text));
            }
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

std::vector<std::string> layoutParameterNames(const std::string& name) {
    for (const LayoutSource& source : layoutSources()) {
        if (source.name == name) {
            return parametersDeclared(source);
        }
    }
    return {};
}

std::vector<std::string> layoutNames() {
    std::vector<std::string> names;
    for (const LayoutSource& source : layoutSources()) {
        names.push_back(source.name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

namespace {

bool isPowerOfTwo(std::uint64_t value) {
    return value != 0 && (value & (value - 1)) == 0;
}

// What the rest of the AIR relies on of a parametric layout's values: every cell within the
// committed columns, the steps that divide the trace powers of two.
void checkParametricLayout(const LayoutSpec& spec) {
    const std::size_t columns = spec.columnsFirst + spec.columnsInteraction;
    if (spec.columnsFirst == 0 || spec.columnsInteraction == 0 || columns > 256) {
        badValue("the layout " + spec.name + " cannot have " + std::to_string(spec.columnsFirst) +
                 " + " + std::to_string(spec.columnsInteraction) + " trace columns");
    }
    if (!isPowerOfTwo(spec.cpuComponentStep) || spec.cpuComponentStep > (1u << 16)) {
        badValue("cpu_component_step " + std::to_string(spec.cpuComponentStep) +
                 " is not a power of two up to 2^16");
    }
    if (!isPowerOfTwo(spec.publicMemoryStep)) {
        badValue("memory_units_row_ratio must be a power of two");
    }
    // No trace has more than 2^40 rows (the verifier's bound): steps and offsets beyond it are
    // no placement, and keeping them small keeps every row index far from overflow.
    constexpr std::int64_t kMaxRows = std::int64_t(1) << 40;
    const auto checkPlace = [&](const std::string& name, const VirtualColumn& column) {
        if (column.step > std::uint64_t(kMaxRows) || column.offset > 16 * kMaxRows ||
            column.offset < -16 * kMaxRows) {
            badValue(name + " is placed beyond any trace (step " + std::to_string(column.step) +
                     ", offset " + std::to_string(column.offset) + ")");
        }
    };
    for (const auto& [name, column] : spec.columns) {
        if (column.column >= columns) {
            badValue(name + " is in column " + std::to_string(column.column) + ", beyond the " +
                     std::to_string(columns) + " trace columns");
        }
        checkPlace(name, column);
    }
    for (const auto& [name, column] : spec.periodic) {
        checkPlace(name, column);
    }
    for (const MaskItem& item : spec.mask) {
        if (item.column >= columns) {
            badValue("a mask cell is in column " + std::to_string(item.column) + ", beyond the " +
                     std::to_string(columns) + " trace columns");
        }
        checkPlace("a mask cell", {item.column, 1, item.row});
    }
    for (const BuiltinSpec& builtin : spec.builtins) {
        const auto ratio = builtin.parameters.find("row_ratio");
        if (builtin.used && ratio != builtin.parameters.end() && !isPowerOfTwo(ratio->second)) {
            badValue("the " + builtin.name + " builtin is used but its row ratio " +
                     std::to_string(ratio->second) + " is not a power of two");
        }
    }
}

} // namespace

std::shared_ptr<const LayoutSpec> layoutFor(const std::string& name,
                                            const LayoutParameters& parameters) {
    if (const LayoutSpec* known = layoutNamed(name)) {
        if (!parameters.empty()) {
            badValue("the layout " + name + " takes no dynamic_params");
        }
        return std::shared_ptr<const LayoutSpec>(std::shared_ptr<const LayoutSpec>(), known);
    }
    // A statement reads its layout several times: keep the last few instances.
    static std::mutex mutex;
    static std::map<std::pair<std::string, LayoutParameters>, std::shared_ptr<const LayoutSpec>>
        cache;
    auto key = std::make_pair(name, parameters);
    {
        const std::lock_guard lock(mutex);
        if (const auto it = cache.find(key); it != cache.end()) {
            return it->second;
        }
    }
    for (const LayoutSource& source : layoutSources()) {
        if (source.name == name) {
            auto spec = std::make_shared<LayoutSpec>(parseLayout(source.text, parameters));
            checkParametricLayout(*spec);
            const std::lock_guard lock(mutex);
            if (cache.size() >= 8) {
                cache.clear();
            }
            cache.emplace(std::move(key), spec);
            return spec;
        }
    }
    std::string known;
    for (const std::string& layout : layoutNames()) {
        known += (known.empty() ? "" : ", ") + layout;
    }
    badValue("this build does not describe the layout " + name.substr(0, 64) + " (it knows " +
             known + ")");
}

} // namespace proofdesk::stark::air
