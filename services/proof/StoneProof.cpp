#include "StoneProof.h"

#include "cairo/FactHashes.h"
#include "cairo/Layout.h"
#include "core/BoundedJson.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"

#include <map>

namespace proofdesk::proof {
namespace {

constexpr std::uint64_t kMaxSteps = std::uint64_t{1} << 32;

const nlohmann::json& member(const nlohmann::json& object, const char* name, const char* where) {
    auto it = object.find(name);
    if (it == object.end()) {
        throw StoneProofError(std::string(where) + " has no \"" + name + "\"");
    }
    return *it;
}

std::uint64_t address(const nlohmann::json& value, const std::string& what) {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<long long>() >= 0)) {
        throw StoneProofError(what + " is not a non-negative integer");
    }
    return value.get<std::uint64_t>();
}

std::pair<std::uint64_t, std::uint64_t> segment(const nlohmann::json& segments, const char* name) {
    const nlohmann::json& seg = member(segments, name, "public_input.memory_segments");
    if (!seg.is_object()) {
        throw StoneProofError(std::string("memory segment ") + name + " is not an object");
    }
    const std::string where = std::string("memory segment ") + name;
    return {address(member(seg, "begin_addr", where.c_str()), where + ".begin_addr"),
            address(member(seg, "stop_ptr", where.c_str()), where + ".stop_ptr")};
}

} // namespace

Felt StoneProofStatement::programHash() const {
    Felt acc = Felt::zero();
    for (const Felt& word : programWords) {
        acc = crypto::pedersenHash(acc, word);
    }
    return crypto::pedersenHash(acc, Felt::fromU64(programWords.size()));
}

std::string StoneProofStatement::sharpFactHash() const {
    return cairo::sharpFactHash(programHash(), output);
}

Felt StoneProofStatement::integrityFactHash() const {
    return crypto::poseidonHashMany(
        {crypto::poseidonHashMany(programWords), crypto::poseidonHashMany(output)});
}

StoneProofStatement parseStoneProof(const std::string& text) {
    std::string why;
    nlohmann::json proof = parseJsonBounded(text, &why);
    if (proof.is_discarded()) {
        throw StoneProofError("not JSON: " + why);
    }
    return parseStoneProof(proof);
}

StoneProofStatement parseStoneProof(const nlohmann::json& proof) {
    if (!proof.is_object()) {
        throw StoneProofError("a Stone proof is a JSON object");
    }
    const nlohmann::json& proofHex = member(proof, "proof_hex", "the proof");
    if (!proofHex.is_string() || proofHex.get<std::string>().size() < 3) {
        throw StoneProofError("proof_hex is not a hex string");
    }
    const nlohmann::json& pub = member(proof, "public_input", "the proof");
    if (!pub.is_object()) {
        throw StoneProofError("public_input is not an object");
    }
    StoneProofStatement statement;
    const nlohmann::json& layout = member(pub, "layout", "public_input");
    if (!layout.is_string()) {
        throw StoneProofError("public_input.layout is not a string");
    }
    statement.layout = layout.get<std::string>();
    if (!cairo::isLayoutName(statement.layout)) {
        throw StoneProofError("public_input.layout \"" + statement.layout.substr(0, 64) +
                              "\" is not a Cairo layout");
    }
    statement.nSteps = address(member(pub, "n_steps", "public_input"), "public_input.n_steps");
    if (statement.nSteps == 0 || statement.nSteps > kMaxSteps ||
        (statement.nSteps & (statement.nSteps - 1)) != 0) {
        throw StoneProofError("public_input.n_steps is not a power of two up to 2^32");
    }
    const nlohmann::json& segments = member(pub, "memory_segments", "public_input");
    if (!segments.is_object()) {
        throw StoneProofError("public_input.memory_segments is not an object");
    }
    const auto program = segment(segments, "program");
    const auto execution = segment(segments, "execution");
    std::pair<std::uint64_t, std::uint64_t> output{0, 0};
    if (segments.contains("output")) {
        output = segment(segments, "output");
    }

    const nlohmann::json& publicMemory = member(pub, "public_memory", "public_input");
    if (!publicMemory.is_array()) {
        throw StoneProofError("public_input.public_memory is not an array");
    }
    std::map<std::uint64_t, Felt> cells;
    for (const nlohmann::json& entry : publicMemory) {
        if (!entry.is_object()) {
            throw StoneProofError("a public_memory entry is not an object");
        }
        const std::uint64_t at =
            address(member(entry, "address", "a public_memory entry"), "public_memory address");
        const nlohmann::json& value = member(entry, "value", "a public_memory entry");
        std::optional<Felt> felt;
        if (value.is_string()) {
            felt = Felt::parse(value.get<std::string>());
        }
        if (!felt) {
            throw StoneProofError("public_memory value at address " + std::to_string(at) +
                                  " is not a field element");
        }
        cells[at] = *felt;
    }
    if (execution.first < 2 || execution.first - 2 < program.first) {
        throw StoneProofError("the execution segment does not follow the program segment");
    }
    for (std::uint64_t at = program.first; at < execution.first - 2; ++at) {
        auto it = cells.find(at);
        if (it == cells.end()) {
            throw StoneProofError("program word at address " + std::to_string(at) +
                                  " is not in the public memory");
        }
        statement.programWords.push_back(it->second);
    }
    if (statement.programWords.empty()) {
        throw StoneProofError("the public memory holds no program");
    }
    if (output.second < output.first) {
        throw StoneProofError("the output segment ends before it begins");
    }
    for (std::uint64_t at = output.first; at < output.second; ++at) {
        auto it = cells.find(at);
        if (it == cells.end()) {
            throw StoneProofError("output cell at address " + std::to_string(at) +
                                  " is not in the public memory");
        }
        statement.output.push_back(it->second);
    }
    return statement;
}

} // namespace proofdesk::proof
