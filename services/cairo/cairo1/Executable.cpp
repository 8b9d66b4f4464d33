#include "cairo/cairo1/Executable.h"

#include "cairo/vm/ExactJson.h"

#include <fstream>
#include <sstream>

namespace proofdesk::cairo {
namespace {

// The prologue every Standalone entry starts with: `ap += N; call rel 4; jmp rel 0`.
constexpr std::uint64_t kStandaloneEnd = 4;

// A non-negative integer (JSON read from text has it unsigned; JSON built in code, signed).
bool isIndex(const nlohmann::json& value) {
    return value.is_number_unsigned() ||
           (value.is_number_integer() && value.get<std::int64_t>() >= 0);
}

Felt feltAt(const nlohmann::json& value, std::size_t index) {
    const auto felt =
        value.is_string() ? Felt::parse(value.get<std::string>()) : std::optional<Felt>();
    if (!felt) {
        throw ProgramError("program.bytecode[" + std::to_string(index) +
                           "] is not a field element");
    }
    return *felt;
}

} // namespace

bool isCairo1ExecutableProgram(const std::vector<Felt>& data, std::uint64_t main) {
    // ap += N; call rel 4; jmp rel 0
    const std::uint64_t prologue[] = {0x40780017fff7fffULL, 0, 0x1104800180018000ULL, 4,
                                      0x10780017fff7fffULL, 0};
    if (data.size() <= 6 || main != 6) {
        return false;
    }
    for (std::size_t i = 0; i < 6; ++i) {
        if (i != 1 && !(data[i] == Felt::fromU64(prologue[i]))) {
            return false;
        }
    }
    return data[1].fitsU64() && data[1].low64() <= 16;
}

std::string sierraRefusal() {
    return "this is a Sierra program, which needs a Sierra to CASM compiler: build the executable "
           "target with Scarb (an [executable] target, `scarb build`) and give its "
           "target/<profile>/<name>.executable.json";
}

const char* entryKindName(Executable::EntryKind kind) {
    return kind == Executable::EntryKind::Standalone ? "Standalone" : "Bootloader";
}

ProgramFormat programFormatOf(const nlohmann::json& json) {
    if (!json.is_object()) {
        return ProgramFormat::Unknown;
    }
    const auto program = json.find("program");
    if (program != json.end() && program->is_object() && program->contains("bytecode") &&
        json.contains("entrypoints")) {
        return ProgramFormat::Cairo1Executable;
    }
    if (json.contains("sierra_program") || json.contains("type_declarations") ||
        json.contains("libfunc_declarations")) {
        return ProgramFormat::Sierra;
    }
    if (json.contains("data") && json.contains("prime")) {
        return ProgramFormat::Cairo0;
    }
    return ProgramFormat::Unknown;
}

Executable Executable::fromJson(const nlohmann::json& json) {
    switch (programFormatOf(json)) {
    case ProgramFormat::Cairo1Executable:
        break;
    case ProgramFormat::Sierra:
        throw ProgramError(sierraRefusal());
    default:
        throw ProgramError("not a Cairo 1 executable: it needs program.bytecode and "
                           "entrypoints (Scarb's <name>.executable.json)");
    }
    Executable executable;
    const nlohmann::json& program = json.at("program");
    const nlohmann::json& bytecode = program.at("bytecode");
    if (!bytecode.is_array() || bytecode.empty()) {
        throw ProgramError("program.bytecode is not a list of felts");
    }
    executable.bytecode.reserve(bytecode.size());
    for (std::size_t i = 0; i < bytecode.size(); ++i) {
        executable.bytecode.push_back(feltAt(bytecode[i], i));
    }
    const nlohmann::json hints = program.value("hints", nlohmann::json::array());
    if (!hints.is_array()) {
        throw ProgramError("program.hints is not a list");
    }
    for (const nlohmann::json& site : hints) {
        if (!site.is_array() || site.size() != 2 || !isIndex(site[0]) || !site[1].is_array() ||
            site[0].get<std::uint64_t>() >= bytecode.size()) {
            throw ProgramError("program.hints holds an entry that is not [pc, [hint, ...]] "
                               "within the bytecode");
        }
        auto& list = executable.hints[site[0].get<std::uint64_t>()];
        for (const nlohmann::json& hint : site[1]) {
            // A variant with fields is an object of one key; a unit variant a bare string.
            if (!(hint.is_object() && hint.size() == 1) && !hint.is_string()) {
                throw ProgramError("a hint is not one variant of the compiler's hints");
            }
            list.push_back(hint);
        }
    }
    const nlohmann::json& entrypoints = json.at("entrypoints");
    if (!entrypoints.is_array()) {
        throw ProgramError("entrypoints is not a list");
    }
    for (const nlohmann::json& entry : entrypoints) {
        Entrypoint point;
        const std::string kind = entry.value("kind", std::string());
        if (kind == "Standalone") {
            point.kind = EntryKind::Standalone;
        } else if (kind == "Bootloader") {
            point.kind = EntryKind::Bootloader;
        } else {
            throw ProgramError("an entry point's kind is not Standalone or Bootloader");
        }
        const nlohmann::json offset = entry.value("offset", nlohmann::json());
        if (!isIndex(offset) || offset.get<std::uint64_t>() >= bytecode.size()) {
            throw ProgramError("an entry point's offset is not within the bytecode");
        }
        point.offset = offset.get<std::uint64_t>();
        const nlohmann::json builtins = entry.value("builtins", nlohmann::json::array());
        if (!builtins.is_array()) {
            throw ProgramError("an entry point's builtins are not a list of names");
        }
        for (const nlohmann::json& name : builtins) {
            if (!name.is_string()) {
                throw ProgramError("an entry point's builtins are not a list of names");
            }
            point.builtins.push_back(name.get<std::string>());
        }
        executable.entrypoints.push_back(std::move(point));
    }
    return executable;
}

Executable Executable::fromText(const std::string& text) {
    const nlohmann::json json = parseExactJson(text);
    if (json.is_discarded()) {
        throw ProgramError("invalid executable: the file is not valid JSON");
    }
    return fromJson(json);
}

Executable Executable::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw ProgramError("cannot read executable " + path);
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return fromText(buffer.str());
}

const Executable::Entrypoint& Executable::entrypoint(EntryKind kind) const {
    for (const Entrypoint& point : entrypoints) {
        if (point.kind == kind) {
            return point;
        }
    }
    throw ProgramError(std::string("the executable has no ") + entryKindName(kind) +
                       " entry point");
}

Program Executable::program() const {
    Program program;
    program.data = bytecode;
    program.cairo1 = true;
    program.cairo1Hints = hints;
    const Entrypoint& bootloader = entrypoint(EntryKind::Bootloader);
    program.builtins = bootloader.builtins;
    program.main = bootloader.offset;
    for (const Entrypoint& point : entrypoints) {
        if (point.kind == EntryKind::Standalone) {
            program.start = point.offset;
            program.end = point.offset + kStandaloneEnd;
        }
    }
    return program;
}

} // namespace proofdesk::cairo
