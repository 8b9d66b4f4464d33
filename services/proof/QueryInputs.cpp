#include "QueryInputs.h"

namespace proofdesk::proof {
namespace {

using nlohmann::json;

const char* sourceName(SourceKind kind) {
    switch (kind) {
    case SourceKind::Program:
        return "program";
    case SourceKind::Pie:
        return "pie";
    case SourceKind::Proof:
        return "proof";
    }
    return "";
}

std::optional<SourceKind> sourceNamed(const std::string& name) {
    for (const SourceKind kind : {SourceKind::Program, SourceKind::Pie, SourceKind::Proof}) {
        if (name == sourceName(kind)) {
            return kind;
        }
    }
    return std::nullopt;
}

std::string text(const json& in, const char* key, const std::string& fallback = {}) {
    const auto it = in.find(key);
    return it != in.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::optional<std::string> optionalText(const json& in, const char* key) {
    const auto it = in.find(key);
    return it != in.end() && it->is_string() ? std::optional(it->get<std::string>()) : std::nullopt;
}

bool flag(const json& in, const char* key) {
    const auto it = in.find(key);
    return it != in.end() && it->is_boolean() && it->get<bool>();
}

} // namespace

std::vector<std::string> QueryInputs::digests() const {
    std::vector<std::string> out;
    for (const std::string* digest : {&program, &input, &pie, &proof}) {
        if (!digest->empty()) {
            out.push_back(*digest);
        }
    }
    if (run) {
        out.insert(out.end(), {run->trace, run->memory, run->publicInput, run->privateInput});
    }
    return out;
}

void to_json(json& out, const QueryInputs& inputs) {
    out = json::object();
    if (inputs.source) {
        out["source"] = sourceName(*inputs.source);
    }
    for (const auto& [key, value] :
         {std::pair{"program", &inputs.program}, std::pair{"input", &inputs.input},
          std::pair{"pie", &inputs.pie}, std::pair{"proof", &inputs.proof},
          std::pair{"job", &inputs.job}}) {
        if (!value->empty()) {
            out[key] = *value;
        }
    }
    out["layout"] = inputs.layout;
    out["mockFactHash"] = inputs.mockFactHash;
    out["mockProof"] = inputs.mockProof;
    if (inputs.optimize) {
        out["optimize"] = *inputs.optimize;
    }
    if (inputs.stoneVersion) {
        out["stoneVersion"] = *inputs.stoneVersion;
    }
    if (inputs.memoryVerification) {
        out["memoryVerification"] = *inputs.memoryVerification;
    }
    if (!inputs.claimedOutput.empty() || inputs.claimedSteps != 0) {
        json output = json::array();
        for (const crypto::Felt& word : inputs.claimedOutput) {
            output.push_back(word.toHex());
        }
        out["output"] = std::move(output);
        out["nSteps"] = inputs.claimedSteps;
    }
    if (inputs.run) {
        out["run"] = {{"trace", inputs.run->trace},
                      {"memory", inputs.run->memory},
                      {"publicInput", inputs.run->publicInput},
                      {"privateInput", inputs.run->privateInput}};
    }
}

void from_json(const json& in, QueryInputs& inputs) {
    inputs = QueryInputs{};
    if (!in.is_object()) {
        return;
    }
    inputs.source = sourceNamed(text(in, "source"));
    inputs.program = text(in, "program");
    inputs.input = text(in, "input");
    inputs.pie = text(in, "pie");
    inputs.proof = text(in, "proof");
    inputs.job = text(in, "job");
    inputs.layout = text(in, "layout", "auto");
    inputs.mockFactHash = flag(in, "mockFactHash");
    inputs.mockProof = flag(in, "mockProof");
    inputs.optimize = optionalText(in, "optimize");
    inputs.stoneVersion = optionalText(in, "stoneVersion");
    inputs.memoryVerification = optionalText(in, "memoryVerification");
    if (const auto output = in.find("output"); output != in.end() && output->is_array()) {
        for (const json& word : *output) {
            if (const auto felt = crypto::Felt::parse(word.is_string() ? word.get<std::string>()
                                                                       : std::string())) {
                inputs.claimedOutput.push_back(*felt);
            }
        }
    }
    if (const auto steps = in.find("nSteps"); steps != in.end() && steps->is_number_unsigned()) {
        inputs.claimedSteps = steps->get<std::uint64_t>();
    }
    if (const auto run = in.find("run"); run != in.end() && run->is_object()) {
        inputs.run = RunFiles{text(*run, "trace"), text(*run, "memory"), text(*run, "publicInput"),
                              text(*run, "privateInput")};
    }
}

} // namespace proofdesk::proof
