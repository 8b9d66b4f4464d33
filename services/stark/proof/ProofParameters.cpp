#include "ProofParameters.h"

#include "Hashes.h"
#include "Rejection.h"

namespace proofdesk::stark {
namespace {

[[noreturn]] void reject(const std::string& message) {
    throw Rejection(Stage::Parameters, "proof parameters: " + message);
}

const nlohmann::json& member(const nlohmann::json& object, const std::string& name,
                             const std::string& where) {
    const auto it = object.find(name);
    if (it == object.end()) {
        reject(where + " has no \"" + name + "\"");
    }
    return *it;
}

std::uint64_t number(const nlohmann::json& value, const std::string& what, std::uint64_t max) {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
        reject(what + " is not a non-negative integer");
    }
    const std::uint64_t n = value.get<std::uint64_t>();
    if (n > max) {
        reject(what + " is " + std::to_string(n) + ", above the limit of " + std::to_string(max));
    }
    return n;
}

std::string hashName(const nlohmann::json& object, const std::string& key,
                     const std::string& fallback) {
    const auto it = object.find(key);
    if (it == object.end()) {
        return fallback;
    }
    if (!it->is_string() || !NamedHash::named(it->get<std::string>())) {
        reject(key + " is not a hash Stone offers" +
               (it->is_string() ? " (\"" + it->get<std::string>().substr(0, 64) + "\")" : ""));
    }
    return it->get<std::string>();
}

} // namespace

ProofParameters parseProofParameters(const nlohmann::json& json) {
    if (!json.is_object()) {
        reject("not an object");
    }
    ProofParameters p;
    if (const auto field = json.find("field"); field != json.end() && *field != "PrimeField0") {
        reject("field must be PrimeField0 (the STARK field)");
    }
    if (const auto ext = json.find("use_extension_field");
        ext != json.end() && !(ext->is_boolean() && !ext->get<bool>())) {
        reject("use_extension_field is not supported");
    }
    p.channelHash = hashName(json, "channel_hash", "keccak256");
    if (p.channelHash != "keccak256" && p.channelHash != "blake256" &&
        p.channelHash != "poseidon3") {
        reject("channel_hash must be keccak256, blake256 or poseidon3");
    }
    p.commitmentHash = hashName(json, "commitment_hash", "keccak256_masked160_msb");
    p.verifierFriendlyCommitmentHash =
        hashName(json, "verifier_friendly_commitment_hash", p.commitmentHash);
    if (const auto layers = json.find("n_verifier_friendly_commitment_layers");
        layers != json.end()) {
        p.verifierFriendlyLayers =
            number(*layers, "n_verifier_friendly_commitment_layers", 1u << 20);
    }
    if (const auto updates = json.find("verifier_friendly_channel_updates");
        updates != json.end()) {
        if (!updates->is_boolean()) {
            reject("verifier_friendly_channel_updates is not a boolean");
        }
        p.verifierFriendlyChannelUpdates = updates->get<bool>();
    }
    p.powHash =
        hashName(json, "pow_hash", p.channelHash == "poseidon3" ? "blake256" : p.channelHash);
    if (p.powHash != "keccak256" && p.powHash != "blake256") {
        reject("pow_hash must be keccak256 or blake256");
    }
    if (const auto statement = json.find("statement");
        statement != json.end() && statement->is_object()) {
        p.pageHash = hashName(*statement, "page_hash", "keccak256");
        if (p.pageHash != "keccak256" && p.pageHash != "pedersen") {
            reject("statement.page_hash must be keccak256 or pedersen");
        }
    }

    const nlohmann::json& stark = member(json, "stark", "proof_parameters");
    p.logCosets = int(number(member(stark, "log_n_cosets", "stark"), "log_n_cosets", 8));
    const nlohmann::json& fri = member(stark, "fri", "stark");
    const nlohmann::json& steps = member(fri, "fri_step_list", "fri");
    if (!steps.is_array() || steps.empty() || steps.size() > 64) {
        reject("fri_step_list is not a list of steps");
    }
    for (const nlohmann::json& step : steps) {
        p.friSteps.push_back(int(number(step, "a FRI step", 5)));
    }
    for (std::size_t i = 1; i < p.friSteps.size(); ++i) {
        if (p.friSteps[i] == 0) {
            reject("FRI step " + std::to_string(i) + " is 0; only the first step may be");
        }
    }
    p.lastLayerDegreeBound =
        number(member(fri, "last_layer_degree_bound", "fri"), "last_layer_degree_bound", 1u << 22);
    if (p.lastLayerDegreeBound == 0 ||
        (p.lastLayerDegreeBound & (p.lastLayerDegreeBound - 1)) != 0) {
        reject("last_layer_degree_bound is not a power of two");
    }
    p.queries = number(member(fri, "n_queries", "fri"), "n_queries", 1024);
    if (p.queries == 0) {
        reject("n_queries is 0");
    }
    p.proofOfWorkBits =
        int(number(member(fri, "proof_of_work_bits", "fri"), "proof_of_work_bits", 64));
    return p;
}

nlohmann::ordered_json proofParametersJson(const ProofParameters& p) {
    nlohmann::ordered_json json;
    json["field"] = "PrimeField0";
    json["channel_hash"] = p.channelHash;
    json["commitment_hash"] = p.commitmentHash;
    json["n_verifier_friendly_commitment_layers"] = p.verifierFriendlyLayers;
    json["pow_hash"] = p.powHash;
    json["statement"] = {{"page_hash", p.pageHash}};
    json["stark"] = {{"fri",
                      {{"fri_step_list", p.friSteps},
                       {"last_layer_degree_bound", p.lastLayerDegreeBound},
                       {"n_queries", p.queries},
                       {"proof_of_work_bits", p.proofOfWorkBits}}},
                     {"log_n_cosets", p.logCosets}};
    json["use_extension_field"] = false;
    json["verifier_friendly_channel_updates"] = p.verifierFriendlyChannelUpdates;
    json["verifier_friendly_commitment_hash"] = p.verifierFriendlyCommitmentHash;
    return json;
}

int securityBits(const ProofParameters& parameters) {
    return int(parameters.queries) * parameters.logCosets + parameters.proofOfWorkBits;
}

} // namespace proofdesk::stark
