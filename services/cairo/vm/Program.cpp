#include "cairo/vm/Program.h"

#include "cairo/vm/ExactJson.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace proofdesk::cairo {
namespace {

constexpr const char* kPrime = "0x800000000000011000000000000000000000000000000000000000000000001";

[[noreturn]] void bad(const std::string& message) {
    throw ProgramError("invalid program: " + message);
}

std::uint64_t requirePc(const nlohmann::json& identifier, const std::string& name) {
    if (!identifier.contains("pc") || !identifier["pc"].is_number_integer() ||
        identifier["pc"].get<std::int64_t>() < 0) {
        bad(name + " has no pc");
    }
    return static_cast<std::uint64_t>(identifier["pc"].get<std::int64_t>());
}

Felt parseFeltText(const nlohmann::json& value, const std::string& where) {
    if (value.is_string()) {
        if (auto felt = Felt::parse(value.get<std::string>())) {
            return *felt;
        }
    } else if (value.is_number_integer()) {
        return Felt::fromI64(value.get<std::int64_t>());
    }
    bad(where + " is not a field element: " + value.dump());
}

ApTracking parseApTracking(const nlohmann::json& json) {
    ApTracking tracking;
    if (json.is_object()) {
        tracking.group = json.value("group", 0);
        tracking.offset = json.value("offset", 0);
    }
    return tracking;
}

} // namespace

const std::vector<std::string>& canonicalBuiltinOrder() {
    static const std::vector<std::string> order = {
        "output", "pedersen", "range_check",   "ecdsa",   "bitwise", "ec_op",
        "keccak", "poseidon", "range_check96", "add_mod", "mul_mod"};
    return order;
}

Program Program::fromJson(const nlohmann::json& json) {
    try {
        return parseProgram(json);
    } catch (const nlohmann::json::exception& error) {
        // A member of the wrong JSON type somewhere (e.g. a hint whose code is not a string).
        throw ProgramError(std::string("invalid program: a field has the wrong type (") +
                           error.what() + ")");
    }
}

Program Program::parseProgram(const nlohmann::json& json) {
    if (!json.is_object()) {
        bad("the file is not a JSON object");
    }
    Program program;
    if (!json.contains("prime") || !json["prime"].is_string()) {
        bad("missing \"prime\"");
    }
    const auto prime = Felt::parse(json["prime"].get<std::string>());
    if (json["prime"].get<std::string>() != kPrime &&
        (!prime || json["prime"].get<std::string>() != kPrime)) {
        bad("prime " + json["prime"].get<std::string>() +
            " is not the STARK field prime (only Cairo 0 over felt252 is supported)");
    }
    if (!json.contains("data") || !json["data"].is_array()) {
        bad("missing \"data\"");
    }
    program.data.reserve(json["data"].size());
    for (std::size_t i = 0; i < json["data"].size(); ++i) {
        program.data.push_back(parseFeltText(json["data"][i], "data[" + std::to_string(i) + "]"));
    }

    if (json.contains("builtins")) {
        if (!json["builtins"].is_array()) {
            bad("\"builtins\" is not a list");
        }
        const auto& order = canonicalBuiltinOrder();
        std::size_t position = 0;
        for (const auto& entry : json["builtins"]) {
            if (!entry.is_string()) {
                bad("a builtin name is not a string");
            }
            const std::string name = entry.get<std::string>();
            const auto found = std::find(order.begin(), order.end(), name);
            if (found == order.end()) {
                bad("unknown builtin \"" + name + "\"");
            }
            const auto index = static_cast<std::size_t>(found - order.begin());
            if (index < position) {
                bad("builtins are not in the canonical order (" + name + ")");
            }
            position = index + 1;
            program.builtins.push_back(name);
        }
    }

    if (json.contains("identifiers") && json["identifiers"].is_object()) {
        program.identifiers = json["identifiers"];
    }
    const nlohmann::json* mainId = program.identifier("__main__.main");
    if (!mainId) {
        bad("no __main__.main function (is this a compiled Cairo 0 program?)");
    }
    program.main = requirePc(*mainId, "__main__.main");
    if (const auto* start = program.identifier("__main__.__start__")) {
        program.start = requirePc(*start, "__main__.__start__");
    }
    if (const auto* end = program.identifier("__main__.__end__")) {
        program.end = requirePc(*end, "__main__.__end__");
    }

    if (json.contains("reference_manager") && json["reference_manager"].is_object() &&
        json["reference_manager"].contains("references")) {
        for (const auto& ref : json["reference_manager"]["references"]) {
            ReferenceDef def;
            def.apTracking = parseApTracking(ref.value("ap_tracking_data", nlohmann::json()));
            def.pc = ref.value("pc", std::uint64_t{0});
            def.value = ref.value("value", std::string());
            program.references.push_back(std::move(def));
        }
    }

    if (json.contains("hints") && json["hints"].is_object()) {
        for (const auto& [pcText, list] : json["hints"].items()) {
            std::uint64_t pc = 0;
            try {
                pc = std::stoull(pcText);
            } catch (const std::exception&) {
                bad("hint key \"" + pcText + "\" is not a pc");
            }
            for (const auto& hint : list) {
                HintSpec spec;
                spec.code = hint.value("code", std::string());
                if (hint.contains("accessible_scopes")) {
                    spec.accessibleScopes =
                        hint["accessible_scopes"].get<std::vector<std::string>>();
                }
                const auto flow = hint.value("flow_tracking_data", nlohmann::json::object());
                spec.apTracking = parseApTracking(flow.value("ap_tracking", nlohmann::json()));
                if (flow.contains("reference_ids")) {
                    for (const auto& [name, id] : flow["reference_ids"].items()) {
                        spec.referenceIds[name] = id.get<int>();
                    }
                }
                program.hints[pc].push_back(std::move(spec));
            }
        }
    }
    program.compilerVersion = json.value("compiler_version", std::string());
    return program;
}

Program Program::fromText(const std::string& text) {
    nlohmann::json json = parseExactJson(text);
    if (json.is_discarded()) {
        throw ProgramError("invalid program: the file is not valid JSON");
    }
    return fromJson(json);
}

Program Program::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw ProgramError("cannot read program file " + path);
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return fromText(buffer.str());
}

const nlohmann::json* Program::identifier(const std::string& fullName) const {
    std::string name = fullName;
    for (int depth = 0; depth < 32; ++depth) {
        auto it = identifiers.find(name);
        if (it == identifiers.end()) {
            return nullptr;
        }
        if (it->value("type", std::string()) != "alias") {
            return &*it;
        }
        name = it->value("destination", std::string());
    }
    return nullptr;
}

std::optional<Felt> Program::constant(const std::string& name,
                                      const std::vector<std::string>& scopes) const {
    for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope) {
        if (const auto* id = identifier(*scope + "." + name)) {
            if (id->value("type", std::string()) == "const" && id->contains("value")) {
                const auto& value = (*id)["value"];
                if (value.is_number_integer()) {
                    return Felt::fromI64(value.get<std::int64_t>());
                }
                if (value.is_number_unsigned()) {
                    return Felt::fromU64(value.get<std::uint64_t>());
                }
                if (value.is_string()) { // beyond 64 bits, kept exact by parseExactJson
                    return Felt::parse(value.get<std::string>());
                }
                return std::nullopt;
            }
        }
    }
    if (const auto* id = identifier(name)) {
        if (id->value("type", std::string()) == "const" && id->contains("value")) {
            const auto& value = (*id)["value"];
            return value.is_string() ? Felt::parse(value.get<std::string>())
                                     : Felt::parse(value.dump());
        }
    }
    return std::nullopt;
}

} // namespace proofdesk::cairo
