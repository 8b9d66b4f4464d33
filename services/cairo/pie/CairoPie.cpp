#include "cairo/pie/CairoPie.h"
#include "core/BoundedJson.h"

#include "cairo/vm/ExactJson.h"
#include "cairo/vm/ProgramHash.h"

#include <zip.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

namespace proofdesk::cairo {
namespace {

constexpr std::uint64_t kOffsetBits = 47;

[[noreturn]] void bad(const std::string& why) {
    throw PieError("invalid Cairo PIE: " + why);
}

// memory.bin encodes an address as 2^(8n-1) + segment·2^47 + offset (n = field bytes).
void putAddress(std::string& out, const Relocatable& address) {
    const std::uint64_t packed = (1ULL << 63) |
                                 (static_cast<std::uint64_t>(address.segment) << kOffsetBits) |
                                 address.offset;
    for (int i = 0; i < 8; ++i) {
        out.push_back(static_cast<char>((packed >> (8 * i)) & 0xff));
    }
}

void putValue(std::string& out, const Value& value) {
    std::uint8_t bytes[32] = {};
    if (value.isAddress()) {
        const Relocatable& a = value.address();
        const std::uint64_t low = (static_cast<std::uint64_t>(a.segment) << kOffsetBits) | a.offset;
        for (int i = 0; i < 8; ++i) {
            bytes[i] = static_cast<std::uint8_t>((low >> (8 * i)) & 0xff);
        }
        bytes[31] = 0x80;
    } else {
        value.felt().toBytesLE(bytes);
    }
    out.append(reinterpret_cast<const char*>(bytes), 32);
}

std::string numberList(const std::vector<Felt>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        out += (i ? ", " : "") + values[i].toDecimal();
    }
    return out + "]";
}

std::string segmentJson(const CairoPie::Segment& segment) {
    return "{\"index\": " + std::to_string(segment.index) +
           ", \"size\": " + std::to_string(segment.size) + "}";
}

CairoPie::Segment readSegment(const nlohmann::json& json, const std::string& what) {
    if (!json.is_object() || !json.contains("index") || !json.contains("size") ||
        !json["index"].is_number_integer() || !json["size"].is_number_integer()) {
        bad(what + " is not {index, size}");
    }
    return {json["index"].get<std::int64_t>(), json["size"].get<std::uint64_t>()};
}

Felt feltFromJson(const nlohmann::json& value, const std::string& what) {
    std::optional<Felt> felt;
    if (value.is_number_unsigned()) {
        felt = Felt::fromU64(value.get<std::uint64_t>());
    } else if (value.is_number_integer()) {
        felt = Felt::fromI64(value.get<std::int64_t>());
    } else if (value.is_string()) {
        felt = Felt::parse(value.get<std::string>());
    }
    if (!felt) {
        bad(what + " is not a field element");
    }
    return *felt;
}

struct ZipCloser {
    void operator()(zip_t* archive) const { zip_discard(archive); }
};

// Largest entry we decompress: far above any real PIE, and a bound on what a hostile archive
// (a lying size field, a zip bomb) can make us allocate.
constexpr std::size_t kMaxEntryBytes = std::size_t{512} << 20;
// All entries together, and how far one may expand beyond its compressed size (real PIEs stay
// far below 100x; deflate's worst case is about 1000x, which only a bomb approaches).
constexpr std::size_t kMaxTotalBytes = std::size_t{1} << 30;
constexpr std::uint64_t kMaxExpansion = 200;
constexpr std::size_t kSmallEntry = std::size_t{1} << 20; // below this no ratio is checked

std::string readEntry(zip_t* archive, const char* name, bool required, std::size_t* total) {
    zip_stat_t stat;
    if (zip_stat(archive, name, 0, &stat) != 0) {
        if (required) {
            bad(std::string("missing ") + name);
        }
        return {};
    }
    zip_file_t* file = zip_fopen(archive, name, 0);
    if (!file) {
        bad(std::string("cannot open ") + name);
    }
    const std::uint64_t compressed = (stat.valid & ZIP_STAT_COMP_SIZE) ? stat.comp_size : 0;
    // Read in chunks rather than trusting the size the archive claims.
    std::string content;
    char chunk[65536];
    for (;;) {
        const zip_int64_t read = zip_fread(file, chunk, sizeof chunk);
        if (read < 0) {
            zip_fclose(file);
            bad(std::string("cannot read ") + name);
        }
        if (read == 0) {
            break;
        }
        const std::size_t size = content.size() + static_cast<std::size_t>(read);
        if (size > kMaxEntryBytes) {
            zip_fclose(file);
            bad(std::string(name) + " is larger than 512 MiB");
        }
        if (size > kSmallEntry && size > kMaxExpansion * std::max<std::uint64_t>(compressed, 1)) {
            zip_fclose(file);
            bad(std::string(name) + " expands more than " + std::to_string(kMaxExpansion) +
                " times its compressed size (a zip bomb?)");
        }
        if (*total + size > kMaxTotalBytes) {
            zip_fclose(file);
            bad("the archive's entries together are larger than 1 GiB");
        }
        content.append(chunk, static_cast<std::size_t>(read));
    }
    zip_fclose(file);
    *total += content.size();
    return content;
}

// memory.bin's cells: 40 bytes each, an address (8 bytes, little-endian, the top bit marking a
// relocatable) and a value (32 bytes, little-endian; relocatable when its top bit is set).
std::vector<std::pair<Relocatable, Value>> memoryCells(const std::string& memoryBin) {
    std::vector<std::pair<Relocatable, Value>> cells;
    if (memoryBin.size() % 40 != 0) {
        bad("memory.bin is not a whole number of 40-byte cells");
    }
    for (std::size_t i = 0; i < memoryBin.size(); i += 40) {
        std::uint64_t packed = 0;
        for (int b = 0; b < 8; ++b) {
            packed |= static_cast<std::uint64_t>(static_cast<unsigned char>(memoryBin[i + b]))
                      << (8 * b);
        }
        if (!(packed >> 63)) {
            bad("memory.bin holds an address without its relocatable marker");
        }
        const Relocatable address{static_cast<std::int64_t>((packed >> kOffsetBits) & 0xffff),
                                  packed & ((1ULL << kOffsetBits) - 1)};
        const auto* value = reinterpret_cast<const std::uint8_t*>(memoryBin.data() + i + 8);
        if (value[31] & 0x80) {
            std::uint64_t low = 0;
            for (int b = 0; b < 8; ++b) {
                low |= static_cast<std::uint64_t>(value[b]) << (8 * b);
            }
            cells.emplace_back(address,
                               Relocatable{static_cast<std::int64_t>((low >> kOffsetBits) & 0xffff),
                                           low & ((1ULL << kOffsetBits) - 1)});
        } else {
            std::uint8_t be[32];
            for (int b = 0; b < 32; ++b) {
                be[b] = value[31 - b];
            }
            const Felt felt = Felt::fromBytesBE(be, 32);
            cells.emplace_back(address, felt);
        }
    }
    return cells;
}

} // namespace

namespace {

// additional_data.json: the ecdsa builtin's r and s (decimal text in memory) as JSON numbers.
std::string additionalDataText(const nlohmann::json& data) {
    auto ecdsa = data.find("ecdsa_builtin");
    if (ecdsa == data.end() || !ecdsa->is_array()) {
        return data.dump();
    }
    nlohmann::json rest = data;
    rest.erase("ecdsa_builtin");
    std::string text = rest.dump();
    text.pop_back(); // the closing brace
    text += std::string(rest.empty() ? "" : ",") + "\"ecdsa_builtin\":[";
    const auto number = [](const nlohmann::json& value) {
        const std::string digits = value.is_string() ? value.get<std::string>() : value.dump();
        const bool decimal =
            !digits.empty() &&
            std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!decimal) {
            throw PieError("an ecdsa signature value is not a decimal number: " + digits);
        }
        return digits;
    };
    for (std::size_t i = 0; i < ecdsa->size(); ++i) {
        const nlohmann::json& entry = (*ecdsa)[i];
        text += (i ? ",[" : "[") + entry.at(0).dump() + ",[" + number(entry.at(1).at(0)) + "," +
                number(entry.at(1).at(1)) + "]]";
    }
    return text + "]}";
}

} // namespace

std::string CairoPie::toZip() const {
    // The prime reduces to 0 as a felt, so its decimal text is written as is.
    std::string metadata =
        "{\"program\": {\"prime\": "
        "3618502788666131213697322783095070105623107215331596699973092056135872020481"
        ", \"data\": " +
        numberList(programData) + ", \"builtins\": [";
    for (std::size_t i = 0; i < builtins.size(); ++i) {
        metadata += (i ? ", \"" : "\"") + builtins[i] + "\"";
    }
    metadata += "], \"main\": " + std::to_string(main) + "}";
    metadata += ", \"program_segment\": " + segmentJson(programSegment);
    metadata += ", \"execution_segment\": " + segmentJson(executionSegment);
    metadata += ", \"ret_fp_segment\": " + segmentJson(retFpSegment);
    metadata += ", \"ret_pc_segment\": " + segmentJson(retPcSegment);
    metadata += ", \"builtin_segments\": {";
    for (std::size_t i = 0; i < builtinSegments.size(); ++i) {
        metadata += (i ? ", \"" : "\"") + builtinSegments[i].first +
                    "\": " + segmentJson(builtinSegments[i].second);
    }
    metadata += "}, \"extra_segments\": [";
    for (std::size_t i = 0; i < extraSegments.size(); ++i) {
        metadata += (i ? ", " : "") + segmentJson(extraSegments[i]);
    }
    metadata += "]}";

    std::string memoryBin;
    memoryBin.reserve(memory.size() * 40);
    for (const auto& [address, value] : memory) {
        putAddress(memoryBin, address);
        putValue(memoryBin, value);
    }
    nlohmann::ordered_json resourcesJson = {{"n_steps", resources.nSteps}};
    nlohmann::ordered_json counter = nlohmann::ordered_json::object();
    for (const auto& [name, count] : resources.builtinInstanceCounter) {
        counter[name] = count;
    }
    resourcesJson["builtin_instance_counter"] = counter;
    resourcesJson["n_memory_holes"] = resources.nMemoryHoles;
    const std::vector<std::pair<const char*, std::string>> entries = {
        {"metadata.json", metadata},
        {"memory.bin", memoryBin},
        {"additional_data.json", additionalDataText(additionalData)},
        {"execution_resources.json", resourcesJson.dump()},
        {"version.json", nlohmann::json({{"cairo_pie", version}}).dump()}};

    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
    zip_t* archive = buffer ? zip_open_from_source(buffer, ZIP_TRUNCATE, &error) : nullptr;
    if (!archive) {
        zip_error_fini(&error);
        throw PieError("cannot create the PIE zip");
    }
    zip_source_keep(buffer);
    for (const auto& [name, content] : entries) {
        zip_source_t* source = zip_source_buffer(archive, content.data(), content.size(), 0);
        const zip_int64_t index =
            source ? zip_file_add(archive, name, source, ZIP_FL_OVERWRITE) : -1;
        if (index < 0) {
            zip_source_free(source);
            zip_discard(archive);
            zip_source_free(buffer);
            throw PieError(std::string("cannot add ") + name + " to the PIE zip");
        }
        zip_set_file_compression(archive, static_cast<zip_uint64_t>(index), ZIP_CM_DEFLATE, 0);
    }
    if (zip_close(archive) != 0) {
        zip_discard(archive);
        zip_source_free(buffer);
        throw PieError("cannot write the PIE zip");
    }
    std::string out;
    if (zip_source_open(buffer) == 0) {
        zip_source_seek(buffer, 0, SEEK_END);
        const zip_int64_t size = zip_source_tell(buffer);
        zip_source_seek(buffer, 0, SEEK_SET);
        out.resize(static_cast<std::size_t>(std::max<zip_int64_t>(size, 0)));
        zip_source_read(buffer, out.data(), out.size());
        zip_source_close(buffer);
    }
    zip_source_free(buffer);
    return out;
}

void CairoPie::writeFile(const std::string& path) const {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << toZip();
    if (!file) {
        throw PieError("cannot write " + path);
    }
}

CairoPie CairoPie::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw PieError("cannot read " + path);
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return fromZip(buffer.str());
}

CairoPie CairoPie::fromZip(const std::string& zipBytes) {
    try {
        return parseZip(zipBytes);
    } catch (const nlohmann::json::exception& error) {
        throw PieError(std::string("invalid Cairo PIE: a field has the wrong type (") +
                       error.what() + ")");
    }
}

CairoPie CairoPie::parseZip(const std::string& zipBytes) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(zipBytes.data(), zipBytes.size(), 0, &error);
    zip_t* raw = source ? zip_open_from_source(source, ZIP_RDONLY, &error) : nullptr;
    zip_error_fini(&error);
    if (!raw) {
        if (source) {
            zip_source_free(source);
        }
        bad("not a zip archive");
    }
    std::unique_ptr<zip_t, ZipCloser> archive(raw);

    CairoPie pie;
    std::size_t inflated = 0; // every entry read so far, decompressed
    const nlohmann::json metadata =
        parseExactJson(readEntry(raw, "metadata.json", true, &inflated));
    if (!metadata.is_object() || !metadata.contains("program") ||
        !metadata["program"].is_object()) {
        bad("metadata.json has no program");
    }
    const nlohmann::json& program = metadata["program"];
    if (!program.contains("data") || !program["data"].is_array() || !program.contains("main") ||
        !program.contains("builtins") || !program["builtins"].is_array()) {
        bad("metadata.json program lacks data, builtins or main");
    }
    for (std::size_t i = 0; i < program["data"].size(); ++i) {
        pie.programData.push_back(
            feltFromJson(program["data"][i], "program data[" + std::to_string(i) + "]"));
    }
    for (const auto& name : program["builtins"]) {
        pie.builtins.push_back(name.get<std::string>());
    }
    pie.main = program["main"].get<std::uint64_t>();
    pie.programSegment =
        readSegment(metadata.value("program_segment", nlohmann::json()), "program_segment");
    pie.executionSegment =
        readSegment(metadata.value("execution_segment", nlohmann::json()), "execution_segment");
    pie.retFpSegment =
        readSegment(metadata.value("ret_fp_segment", nlohmann::json()), "ret_fp_segment");
    pie.retPcSegment =
        readSegment(metadata.value("ret_pc_segment", nlohmann::json()), "ret_pc_segment");
    if (metadata.contains("simulated_builtins")) {
        pie.simulatedBuiltins = metadata["simulated_builtins"].get<std::vector<std::string>>();
    }
    const nlohmann::json builtinSegments =
        metadata.value("builtin_segments", nlohmann::json::object());
    for (const std::string& name : pie.builtins) {
        const bool simulated = std::find(pie.simulatedBuiltins.begin(), pie.simulatedBuiltins.end(),
                                         name) != pie.simulatedBuiltins.end();
        if (!builtinSegments.contains(name)) {
            if (simulated) {
                continue; // simulated builtins run inside the program, with no segment
            }
            bad("builtin_segments lacks " + name);
        }
        pie.builtinSegments.emplace_back(name,
                                         readSegment(builtinSegments[name], name + " segment"));
    }
    for (const auto& segment : metadata.value("extra_segments", nlohmann::json::array())) {
        pie.extraSegments.push_back(readSegment(segment, "an extra segment"));
    }
    if (pie.programSegment.index != 0 || pie.executionSegment.index != 1 ||
        pie.programSegment.size != pie.programData.size()) {
        bad("segment order or program size is inconsistent");
    }

    const std::string memoryBin = readEntry(raw, "memory.bin", true, &inflated);
    pie.memory = memoryCells(memoryBin);
    const std::string additional = readEntry(raw, "additional_data.json", true, &inflated);
    // Exact integers: the ecdsa builtin's signatures are numbers beyond 64 bits.
    pie.additionalData = core::parseJsonBounded(additional, nullptr, {core::kMaxJsonDepth, true});
    if (pie.additionalData.is_discarded()) {
        bad("additional_data.json is not JSON");
    }
    const nlohmann::json resources =
        core::parseJsonBounded(readEntry(raw, "execution_resources.json", true, &inflated));
    if (!resources.is_object() || !resources.contains("n_steps")) {
        bad("execution_resources.json lacks n_steps");
    }
    pie.resources.nSteps = resources["n_steps"].get<std::uint64_t>();
    pie.resources.nMemoryHoles = resources.value("n_memory_holes", std::uint64_t{0});
    const nlohmann::json counter =
        resources.value("builtin_instance_counter", nlohmann::json::object());
    for (const auto& [name, count] : counter.items()) {
        pie.resources.builtinInstanceCounter.emplace_back(name, count.get<std::uint64_t>());
    }
    if (pie.resources.nSteps >= (1ULL << 30)) {
        bad("n_steps is out of range");
    }
    const std::string version = readEntry(raw, "version.json", false, &inflated);
    if (!version.empty()) {
        const nlohmann::json v = core::parseJsonBounded(version);
        if (v.is_object() && v.contains("cairo_pie")) {
            pie.version = v["cairo_pie"].get<std::string>();
        }
    }
    return pie;
}

std::vector<Felt> CairoPie::output() const {
    std::vector<Felt> out;
    for (const auto& [name, segment] : builtinSegments) {
        if (name != "output") {
            continue;
        }
        if (segment.size > memory.size()) {
            throw PieError("invalid Cairo PIE: the output segment is larger than its memory");
        }
        std::vector<std::optional<Felt>> cells(segment.size);
        for (const auto& [address, value] : memory) {
            if (address.segment == segment.index && address.offset < segment.size &&
                value.isFelt()) {
                cells[address.offset] = value.felt();
            }
        }
        for (const auto& cell : cells) {
            out.push_back(cell.value_or(Felt::zero()));
        }
    }
    return out;
}

OutputBuiltinState CairoPie::outputState() const {
    const auto data = additionalData.find("output_builtin");
    const bool hasOutput = std::find(builtins.begin(), builtins.end(), "output") != builtins.end();
    if (!hasOutput && data == additionalData.end()) {
        return {}; // no output: one empty page
    }
    if (data == additionalData.end() || !data->is_object()) {
        bad("the output builtin has no data (pages and attributes)");
    }
    OutputBuiltinState state;
    const nlohmann::json pages = data->value("pages", nlohmann::json::object());
    const nlohmann::json attributes = data->value("attributes", nlohmann::json::object());
    if (!pages.is_object() || !attributes.is_object()) {
        bad("the output builtin's data is not {pages, attributes}");
    }
    for (const auto& [id, page] : pages.items()) {
        const bool numeric =
            !id.empty() && id.size() < 10 &&
            std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!numeric || !page.is_array() || page.size() != 2 || !page[0].is_number_unsigned() ||
            !page[1].is_number_unsigned()) {
            bad("output page " + id + " is not [start, size]");
        }
        state.pages[std::stoull(id)] = {page[0].get<std::uint64_t>(), page[1].get<std::uint64_t>()};
    }
    state.attributes = attributes;
    return state;
}

std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>> CairoPie::signatures() const {
    std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>> out;
    const auto data = additionalData.find("ecdsa_builtin");
    if (data == additionalData.end() || data->is_null()) {
        return out;
    }
    const std::string what = "an ecdsa signature";
    if (!data->is_array()) {
        bad("the ecdsa builtin's data is not a list of [[segment, offset], [r, s]]");
    }
    for (const nlohmann::json& entry : *data) {
        if (!entry.is_array() || entry.size() != 2 || !entry[0].is_array() ||
            entry[0].size() != 2 || !entry[0][0].is_number_unsigned() ||
            !entry[0][1].is_number_unsigned() || !entry[1].is_array() || entry[1].size() != 2) {
            bad("the ecdsa builtin's data is not a list of [[segment, offset], [r, s]]");
        }
        out.emplace_back(
            Relocatable{entry[0][0].get<std::int64_t>(), entry[0][1].get<std::uint64_t>()},
            std::make_pair(feltFromJson(entry[1][0], what), feltFromJson(entry[1][1], what)));
    }
    return out;
}

Felt CairoPie::programHash() const {
    return cairo::programHash(programData, builtins, main);
}

} // namespace proofdesk::cairo
