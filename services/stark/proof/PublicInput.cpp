#include "PublicInput.h"

#include "Hashes.h"
#include "Rejection.h"
#include "cairo/vm/Layout.h"

#include <algorithm>
#include <bit>

namespace proofdesk::stark {
namespace {

constexpr std::uint64_t kMaxSteps = std::uint64_t(1) << 40;
constexpr std::uint64_t kMaxAddress = std::uint64_t(1) << 63;
constexpr std::size_t kMaxPublicMemory = std::size_t(1) << 26;

[[noreturn]] void reject(const std::string& message) {
    throw Rejection(Stage::PublicInput, "public input: " + message);
}

const nlohmann::json& member(const nlohmann::json& object, const std::string& name,
                             const std::string& where) {
    const auto it = object.find(name);
    if (it == object.end()) {
        reject(where + " has no \"" + name + "\"");
    }
    return *it;
}

std::uint64_t unsignedValue(const nlohmann::json& value, const std::string& what,
                            std::uint64_t max) {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
        reject(what + " is not a non-negative integer");
    }
    const std::uint64_t number = value.get<std::uint64_t>();
    if (number > max) {
        reject(what + " is out of range (" + std::to_string(number) + ")");
    }
    return number;
}

// Big-endian 32-byte serialisation, as Stone's PublicInputSerializer appends numbers.
void appendWord(std::vector<std::uint8_t>& out, std::uint64_t value) {
    out.insert(out.end(), 24, 0);
    for (int i = 7; i >= 0; --i) {
        out.push_back(std::uint8_t(value >> (8 * i)));
    }
}

void appendFelt(std::vector<std::uint8_t>& out, const Fp& value) {
    std::uint8_t bytes[32];
    toStandardBytes(value, bytes);
    out.insert(out.end(), bytes, bytes + 32);
}

// How many memory cells one instance of a builtin takes, for the capacity check.
std::uint64_t cellsPerInstance(const std::string& builtin) {
    if (builtin == "pedersen") {
        return 3;
    }
    if (builtin == "ecdsa") {
        return 2;
    }
    if (builtin == "bitwise") {
        return 5;
    }
    if (builtin == "ec_op") {
        return 7;
    }
    if (builtin == "keccak") {
        return 16;
    }
    if (builtin == "poseidon") {
        return 6;
    }
    if (builtin == "add_mod" || builtin == "mul_mod") {
        return 7;
    }
    return 1;
}

} // namespace

std::vector<std::string> PublicInput::outputCells() const {
    std::map<std::uint64_t, std::string> cells;
    if (const MemorySegment* output = segment("output")) {
        for (const PublicMemoryCell& cell : publicMemory) {
            if (cell.address >= output->begin && cell.address < output->stop) {
                cells.emplace(cell.address, cell.value.toFelt().toHex());
            }
        }
    }
    std::vector<std::string> out;
    for (auto& [address, value] : cells) {
        out.push_back(std::move(value));
    }
    return out;
}

const MemorySegment* PublicInput::segment(const std::string& name) const {
    const auto it = segments.find(name);
    return it == segments.end() ? nullptr : &it->second;
}

const char* seedVariantName(SeedVariant variant) {
    return variant == SeedVariant::Stone5 ? "stone5" : "stone6";
}

PublicInput parsePublicInput(const nlohmann::json& json) {
    if (!json.is_object()) {
        reject("not an object");
    }
    PublicInput input;
    const nlohmann::json& layout = member(json, "layout", "the public input");
    if (!layout.is_string() || layout.get<std::string>().size() > 64) {
        reject("layout is not a layout name");
    }
    input.layout = layout.get<std::string>();
    if (!cairo::isLayoutName(input.layout)) {
        reject("layout \"" + input.layout + "\" is not a Cairo layout");
    }
    input.nSteps = unsignedValue(member(json, "n_steps", "the public input"), "n_steps", kMaxSteps);
    input.rcMin = unsignedValue(member(json, "rc_min", "the public input"), "rc_min", 0xffff);
    input.rcMax = unsignedValue(member(json, "rc_max", "the public input"), "rc_max", 0xffff);

    const nlohmann::json& segments = member(json, "memory_segments", "the public input");
    if (!segments.is_object() || segments.size() > 64) {
        reject("memory_segments is not an object of segments");
    }
    for (const auto& [name, segment] : segments.items()) {
        if (!segment.is_object()) {
            reject("memory segment " + name.substr(0, 64) + " is not an object");
        }
        const std::string where = "memory segment " + name.substr(0, 64);
        input.segments[name] = {
            unsignedValue(member(segment, "begin_addr", where), where + ".begin_addr", kMaxAddress),
            unsignedValue(member(segment, "stop_ptr", where), where + ".stop_ptr", kMaxAddress)};
    }

    const nlohmann::json& memory = member(json, "public_memory", "the public input");
    if (!memory.is_array() || memory.empty() || memory.size() > kMaxPublicMemory) {
        reject("public_memory is not a non-empty array of cells");
    }
    input.publicMemory.reserve(memory.size());
    for (const nlohmann::json& entry : memory) {
        if (!entry.is_object()) {
            reject("a public_memory entry is not an object");
        }
        PublicMemoryCell cell;
        cell.address = unsignedValue(member(entry, "address", "a public_memory entry"), "address",
                                     kMaxAddress);
        const nlohmann::json& value = member(entry, "value", "a public_memory entry");
        const auto felt = value.is_string() ? crypto::Felt::parse(value.get<std::string>())
                                            : std::optional<crypto::Felt>{};
        if (!felt || (value.get<std::string>().size() > 2 && value.get<std::string>()[0] == '-')) {
            reject("the public_memory value at address " + std::to_string(cell.address) +
                   " is not a field element");
        }
        cell.value = Fp::fromFelt(*felt);
        if (const auto page = entry.find("page"); page != entry.end()) {
            cell.page = unsignedValue(*page, "page", 1u << 20);
        }
        input.publicMemory.push_back(cell);
    }

    if (const auto dynamic = json.find("dynamic_params");
        dynamic != json.end() && !dynamic->is_null()) {
        if (!dynamic->is_object() || dynamic->size() > 1024) {
            reject("dynamic_params is not an object of numbers");
        }
        for (const auto& [name, value] : dynamic->items()) {
            input.dynamicParams[name] =
                unsignedValue(value, "dynamic param " + name.substr(0, 64), kMaxAddress);
        }
    }
    return input;
}

void validatePublicInput(const PublicInput& input, const air::LayoutSpec& layout) {
    if (input.nSteps == 0 || !std::has_single_bit(input.nSteps)) {
        reject("n_steps " + std::to_string(input.nSteps) + " is not a power of two");
    }
    if (input.rcMin > input.rcMax) {
        reject("rc_min " + std::to_string(input.rcMin) + " exceeds rc_max " +
               std::to_string(input.rcMax));
    }
    for (const std::string& name : layout.segments) {
        const MemorySegment* segment = input.segment(name);
        if (!segment) {
            reject("layout " + layout.name + " needs the memory segment " + name);
        }
        if (segment->stop < segment->begin) {
            reject("memory segment " + name + " stops (" + std::to_string(segment->stop) +
                   ") before it begins (" + std::to_string(segment->begin) + ")");
        }
    }
    if (input.segments.size() != layout.segments.size()) {
        reject("layout " + layout.name + " has " + std::to_string(layout.segments.size()) +
               " memory segments, the public input " + std::to_string(input.segments.size()));
    }
    const std::uint64_t traceLength = input.nSteps * layout.cpuRows();
    for (const air::BuiltinSpec& builtin : layout.builtins) {
        const auto rowRatio = builtin.parameters.find("row_ratio");
        const MemorySegment* segment = input.segment(builtin.name);
        if (!segment) {
            continue;
        }
        if (!builtin.used) {
            if (segment->stop != segment->begin) {
                reject("the " + builtin.name + " segment holds " +
                       std::to_string(segment->stop - segment->begin) +
                       " cells, but the dynamic_params say the run does not use that builtin");
            }
            continue;
        }
        if (rowRatio == builtin.parameters.end() || rowRatio->second == 0) {
            continue;
        }
        const std::uint64_t capacity = traceLength / rowRatio->second;
        const std::uint64_t used =
            (segment->stop - segment->begin) / cellsPerInstance(builtin.name);
        if (used > capacity) {
            reject("the " + builtin.name + " segment holds " + std::to_string(used) +
                   " instances, the trace has room for " + std::to_string(capacity));
        }
    }
    std::map<std::uint64_t, std::uint64_t> nextAddress;
    for (const PublicMemoryCell& cell : input.publicMemory) {
        if (cell.page == 0) {
            continue;
        }
        const auto [it, fresh] = nextAddress.emplace(cell.page, cell.address + 1);
        if (!fresh) {
            if (cell.address != it->second) {
                reject("public memory page " + std::to_string(cell.page) +
                       " is not continuous at address " + std::to_string(cell.address));
            }
            ++it->second;
        }
    }
    const std::uint64_t columnSize = traceLength / layout.column("orig/public_memory/addr").step;
    if (input.publicMemory.size() > columnSize) {
        reject("public memory of " + std::to_string(input.publicMemory.size()) +
               " cells exceeds the trace's " + std::to_string(columnSize));
    }
}

std::vector<std::uint8_t> publicInputSeedBytes(const PublicInput& input,
                                               const air::LayoutSpec& layout, SeedVariant variant,
                                               std::uint64_t verifierFriendlyLayers,
                                               const std::string& pageHash) {
    std::vector<std::uint8_t> out;
    if (variant == SeedVariant::Stone6) {
        appendWord(out, verifierFriendlyLayers);
    }
    appendWord(out, std::uint64_t(std::countr_zero(input.nSteps)));
    appendWord(out, input.rcMin);
    appendWord(out, input.rcMax);
    const std::vector<std::uint8_t> code = layout.nameCode();
    out.insert(out.end(), code.begin(), code.end());
    for (const auto& [name, value] : input.dynamicParams) {
        appendWord(out, value);
    }
    for (const std::string& name : layout.segments) {
        const MemorySegment* segment = input.segment(name);
        appendWord(out, segment->begin);
        appendWord(out, segment->stop);
    }
    appendWord(out, input.publicMemory.front().address);
    appendFelt(out, input.publicMemory.front().value);

    std::map<std::uint64_t, std::vector<std::uint8_t>> pages;
    std::map<std::uint64_t, std::uint64_t> sizes;
    std::map<std::uint64_t, std::uint64_t> starts;
    for (const PublicMemoryCell& cell : input.publicMemory) {
        std::vector<std::uint8_t>& page = pages[cell.page];
        if (cell.page == 0) {
            appendWord(page, cell.address);
        } else {
            starts.emplace(cell.page, cell.address);
        }
        appendFelt(page, cell.value);
        ++sizes[cell.page];
    }
    appendWord(out, pages.size());
    const NamedHash hash = *NamedHash::named(pageHash);
    for (const auto& [page, bytes] : pages) {
        if (page != 0) {
            appendWord(out, starts.at(page));
        }
        appendWord(out, sizes.at(page));
        const Digest digest = *hash.hashBytes(bytes);
        out.insert(out.end(), digest.begin(), digest.end());
    }
    return out;
}

std::map<std::string, Fp> publicValues(const PublicInput& input, const air::LayoutSpec& layout) {
    std::map<std::string, Fp> values;
    const MemorySegment& program = *input.segment("program");
    const MemorySegment& execution = *input.segment("execution");
    values["initial_pc"] = Fp::fromU64(program.begin);
    values["final_pc"] = Fp::fromU64(program.stop);
    values["initial_ap"] = Fp::fromU64(execution.begin);
    values["final_ap"] = Fp::fromU64(execution.stop);
    values["rc_min"] = Fp::fromU64(input.rcMin);
    values["rc_max"] = Fp::fromU64(input.rcMax);
    for (const air::BuiltinSpec& builtin : layout.builtins) {
        if (const MemorySegment* segment = input.segment(builtin.name)) {
            values["initial_" + builtin.name + "_addr"] = Fp::fromU64(segment->begin);
        }
    }
    return values;
}

Fp publicMemoryProduct(const PublicInput& input, const Fp& z, const Fp& alpha,
                       std::uint64_t columnSize) {
    Fp denominator = Fp::one();
    for (const PublicMemoryCell& cell : input.publicMemory) {
        denominator *= z - (Fp::fromU64(cell.address) + alpha * cell.value);
    }
    const PublicMemoryCell& pad = input.publicMemory.front();
    const Fp padding = z - (Fp::fromU64(pad.address) + alpha * pad.value);
    denominator *= padding.pow(columnSize - input.publicMemory.size());
    return z.pow(columnSize) * denominator.inverse();
}

Fp dilutedFinalValue(std::uint64_t spacing, std::uint64_t bits, const Fp& z, const Fp& alpha) {
    // u_j depends only on j's trailing zeros, so the steps j = 1 … 2^(i+1) − 1 are the steps of
    // 1 … 2^i − 1, then j = 2^i, then the first block again. Writing the first block as the map
    // r ↦ P_i·r + α·Q_i, one step with x = u_{2^i} gives
    //   P_{i+1} = P_i²·(1 + z·x),  Q_{i+1} = P_i·Q_i·(1 + z·x) + P_i·x² + Q_i,
    // from P_1 = 1 + z, Q_1 = 1 (u_1 = 1); r_{2^n} = P_n + α·Q_n as r_1 = 1.
    const auto dilute = [&](std::uint64_t value) {
        Fp out = Fp::zero();
        Fp weight = Fp::one();
        const Fp step = Fp::fromU64(2).pow(spacing);
        for (std::uint64_t i = 0; i < bits; ++i) {
            if ((value >> i) & 1) {
                out += weight;
            }
            weight *= step;
        }
        return out;
    };
    Fp p = Fp::one() + z;
    Fp q = Fp::one();
    for (std::uint64_t i = 1; i < bits; ++i) {
        const std::uint64_t j = std::uint64_t(1) << i;
        const Fp x = dilute(j) - dilute(j - 1);
        const Fp factor = Fp::one() + z * x;
        const Fp nextP = p.square() * factor;
        q = p * q * factor + p * x.square() + q;
        p = nextP;
    }
    return p + alpha * q;
}

void addInteractionProducts(std::map<std::string, Fp>& values, const PublicInput& input,
                            const air::LayoutSpec& layout, std::uint64_t traceLength) {
    values["memory/public_memory_prod"] =
        publicMemoryProduct(input, values.at("memory/perm/z"), values.at("memory/perm/alpha"),
                            traceLength / layout.column("orig/public_memory/addr").step);
    if (layout.dilutedSpacing) {
        values["diluted/final_cum_val"] =
            dilutedFinalValue(*layout.dilutedSpacing, layout.dilutedBits, values.at("diluted/z"),
                              values.at("diluted/alpha"));
    }
}

} // namespace proofdesk::stark
