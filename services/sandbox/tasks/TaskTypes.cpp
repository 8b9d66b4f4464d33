#include "TaskTypes.h"

#include <stdexcept>

namespace proofdesk::tasks {
namespace {

using nlohmann::json;

const json& field(const json& in, const char* name) {
    if (!in.is_object() || !in.contains(name)) {
        throw std::invalid_argument(std::string("missing ") + name);
    }
    return in.at(name);
}

crypto::Felt feltOf(const json& value) {
    const auto felt = value.is_string() ? crypto::Felt::parse(value.get<std::string>())
                                        : std::optional<crypto::Felt>();
    if (!felt) {
        throw std::invalid_argument("not a field element");
    }
    return *felt;
}

json hexList(const std::vector<crypto::Felt>& values) {
    json list = json::array();
    for (const crypto::Felt& value : values) {
        list.push_back(value.toHex());
    }
    return list;
}

std::vector<crypto::Felt> feltList(const json& values) {
    if (!values.is_array()) {
        throw std::invalid_argument("not a list of field elements");
    }
    std::vector<crypto::Felt> out;
    out.reserve(values.size());
    for (const json& value : values) {
        out.push_back(feltOf(value));
    }
    return out;
}

template <typename T> void optionalTo(json& out, const char* name, const std::optional<T>& value) {
    if (value) {
        out[name] = *value;
    }
}

template <typename T> void optionalFrom(const json& in, const char* name, std::optional<T>& value) {
    if (in.contains(name) && !in.at(name).is_null()) {
        value = in.at(name).get<T>();
    } else {
        value.reset();
    }
}

} // namespace

const char* taskName(Task task) {
    switch (task) {
    case Task::Inspect:
        return "inspect";
    case Task::Run:
        return "run";
    case Task::Prove:
        return "prove";
    case Task::Verify:
        return "verify";
    }
    return "";
}

std::optional<Task> taskNamed(const std::string& name) {
    for (const Task task : {Task::Inspect, Task::Run, Task::Prove, Task::Verify}) {
        if (name == taskName(task)) {
            return task;
        }
    }
    return std::nullopt;
}

void to_json(json& out, const InspectRequest& value) {
    out = {{"checkNativeHints", value.checkNativeHints}};
    optionalTo(out, "memoryVerification", value.memoryVerification);
}
void from_json(const json& in, InspectRequest& value) {
    value.checkNativeHints = field(in, "checkNativeHints").get<bool>();
    optionalFrom(in, "memoryVerification", value.memoryVerification);
}

void to_json(json& out, const ProgramFacts& value) {
    out = {{"programHash", value.programHash.toHex()},
           {"builtins", value.builtins},
           {"proofMode", value.proofMode},
           {"cairo1", value.cairo1}};
    optionalTo(out, "firstPythonOnlyHintPc", value.firstPythonOnlyHintPc);
}
void from_json(const json& in, ProgramFacts& value) {
    value.programHash = feltOf(field(in, "programHash"));
    value.builtins = field(in, "builtins").get<std::vector<std::string>>();
    value.proofMode = field(in, "proofMode").get<bool>();
    value.cairo1 = field(in, "cairo1").get<bool>();
    optionalFrom(in, "firstPythonOnlyHintPc", value.firstPythonOnlyHintPc);
}

void to_json(json& out, const PieFacts& value) {
    out = {{"programHash", value.programHash.toHex()},
           {"output", hexList(value.output)},
           {"nSteps", value.nSteps},
           {"resources", value.resources},
           {"builtins", value.builtins},
           {"cairo1", value.cairo1}};
}
void from_json(const json& in, PieFacts& value) {
    value.programHash = feltOf(field(in, "programHash"));
    value.output = feltList(field(in, "output"));
    value.nSteps = field(in, "nSteps").get<std::uint64_t>();
    value.resources = field(in, "resources");
    value.builtins = field(in, "builtins").get<std::vector<std::string>>();
    value.cairo1 = field(in, "cairo1").get<bool>();
}

void to_json(json& out, const ProofFacts& value) {
    out = {{"layout", value.layout},
           {"nSteps", value.nSteps},
           {"memoryVerification", value.memoryVerification},
           {"programHash", value.programHash.toHex()},
           {"output", hexList(value.output)},
           {"sharpFactHash", value.sharpFactHash},
           {"integrityFactHash", value.integrityFactHash.toHex()}};
}
void from_json(const json& in, ProofFacts& value) {
    value.layout = field(in, "layout").get<std::string>();
    value.nSteps = field(in, "nSteps").get<std::uint64_t>();
    value.memoryVerification = field(in, "memoryVerification").get<std::string>();
    value.programHash = feltOf(field(in, "programHash"));
    value.output = feltList(field(in, "output"));
    value.sharpFactHash = field(in, "sharpFactHash").get<std::string>();
    value.integrityFactHash = feltOf(field(in, "integrityFactHash"));
}

void to_json(json& out, const InspectResult& value) {
    out = json::object();
    optionalTo(out, "program", value.program);
    optionalTo(out, "pie", value.pie);
    optionalTo(out, "proof", value.proof);
}
void from_json(const json& in, InspectResult& value) {
    if (!in.is_object()) {
        throw std::invalid_argument("not an object");
    }
    optionalFrom(in, "program", value.program);
    optionalFrom(in, "pie", value.pie);
    optionalFrom(in, "proof", value.proof);
}

void to_json(json& out, const RunRequest& value) {
    const cairo::RunSetup& setup = value.setup;
    out = {{"layout", setup.layout},
           {"proofMode", setup.proofMode},
           {"cairoVm", cairo::cairoVmName(setup.hints)},
           {"pythonTimeLimitMs", setup.pythonTimeLimit.count()},
           {"traceEnabled", setup.traceEnabled}};
    optionalTo(out, "dynamicLayoutParams", setup.dynamicLayoutParams);
    optionalTo(out, "maxSteps", setup.maxSteps);
    if (value.programHash) {
        out["programHash"] = value.programHash->toHex();
    }
}
void from_json(const json& in, RunRequest& value) {
    cairo::RunSetup& setup = value.setup;
    setup.layout = field(in, "layout").get<std::string>();
    setup.proofMode = field(in, "proofMode").get<bool>();
    const auto hints = cairo::hintExecutionNamed(field(in, "cairoVm").get<std::string>());
    if (!hints) {
        throw std::invalid_argument("cairoVm is rust or python");
    }
    setup.hints = *hints;
    setup.pythonTimeLimit =
        std::chrono::milliseconds(field(in, "pythonTimeLimitMs").get<std::int64_t>());
    setup.traceEnabled = field(in, "traceEnabled").get<bool>();
    optionalFrom(in, "dynamicLayoutParams", setup.dynamicLayoutParams);
    optionalFrom(in, "maxSteps", setup.maxSteps);
    setup.fileAccess = false; // never, whatever the request says
    value.programHash.reset();
    if (in.contains("programHash")) {
        value.programHash = feltOf(in.at("programHash"));
    }
}

void to_json(json& out, const RunClaims& value) {
    out = {{"programHash", value.programHash.toHex()},
           {"output", hexList(value.output)},
           {"nSteps", value.nSteps},
           {"resources", value.resources},
           {"builtins", value.builtins},
           {"layout", value.layout},
           {"proofMode", value.proofMode}};
}
void from_json(const json& in, RunClaims& value) {
    value.programHash = feltOf(field(in, "programHash"));
    value.output = feltList(field(in, "output"));
    value.nSteps = field(in, "nSteps").get<std::uint64_t>();
    value.resources = field(in, "resources");
    if (!value.resources.is_object()) {
        throw std::invalid_argument("resources is not an object");
    }
    value.builtins = field(in, "builtins").get<std::vector<std::string>>();
    value.layout = field(in, "layout").get<std::string>();
    value.proofMode = field(in, "proofMode").get<bool>();
}

void to_json(json& out, const ProveRequest& value) {
    out = {{"channel", value.channel},
           {"securityBits", value.securityBits},
           {"optimize", value.optimize}};
}
void from_json(const json& in, ProveRequest& value) {
    value.channel = field(in, "channel").get<std::string>();
    value.securityBits = field(in, "securityBits").get<int>();
    value.optimize = field(in, "optimize").get<std::string>();
}

void to_json(json& out, const PhaseTime& value) {
    out = {{"phase", value.phase}, {"seconds", value.seconds}};
}
void from_json(const json& in, PhaseTime& value) {
    value.phase = field(in, "phase").get<std::string>();
    value.seconds = field(in, "seconds").get<double>();
}

void to_json(json& out, const ProveResult& value) {
    out = {{"nSteps", value.nSteps},
           {"layout", value.layout},
           {"traceRows", value.traceRows},
           {"traceColumns", value.traceColumns},
           {"proofBytes", value.proofBytes},
           {"parameters", value.parameters},
           {"securityBits", value.securityBits},
           {"timings", value.timings},
           {"seconds", value.seconds}};
}
void from_json(const json& in, ProveResult& value) {
    value.nSteps = field(in, "nSteps").get<std::uint64_t>();
    value.layout = field(in, "layout").get<std::string>();
    value.traceRows = field(in, "traceRows").get<std::uint64_t>();
    value.traceColumns = field(in, "traceColumns").get<std::uint64_t>();
    value.proofBytes = field(in, "proofBytes").get<std::uint64_t>();
    value.parameters = field(in, "parameters");
    value.securityBits = field(in, "securityBits").get<int>();
    value.timings = field(in, "timings").get<std::vector<PhaseTime>>();
    value.seconds = field(in, "seconds").get<double>();
}

void to_json(json& out, const VerifyRequest& value) {
    out = json::object();
    optionalTo(out, "stoneVersion", value.stoneVersion);
    optionalTo(out, "memoryVerification", value.memoryVerification);
}
void from_json(const json& in, VerifyRequest& value) {
    if (!in.is_object()) {
        throw std::invalid_argument("not an object");
    }
    optionalFrom(in, "stoneVersion", value.stoneVersion);
    optionalFrom(in, "memoryVerification", value.memoryVerification);
}

void to_json(json& out, const VerifyResult& value) {
    out = {{"valid", value.valid},
           {"failedStage", value.failedStage},
           {"failedCheck", value.failedCheck},
           {"stoneVersion", value.stoneVersion},
           {"verdict", value.verdict}};
    optionalTo(out, "statementError", value.statementError);
}
void from_json(const json& in, VerifyResult& value) {
    value.valid = field(in, "valid").get<bool>();
    value.failedStage = field(in, "failedStage").get<std::string>();
    value.failedCheck = field(in, "failedCheck").get<std::string>();
    value.stoneVersion = field(in, "stoneVersion").get<std::string>();
    value.verdict = field(in, "verdict");
    optionalFrom(in, "statementError", value.statementError);
}

void to_json(json& out, const Progress& value) {
    out = {{"phase", value.phase}, {"fraction", value.fraction}};
}
void from_json(const json& in, Progress& value) {
    value.phase = field(in, "phase").get<std::string>();
    value.fraction = field(in, "fraction").get<double>();
}

template <typename T> T readAs(const json& value) {
    try {
        return value.get<T>();
    } catch (const json::exception& failure) {
        throw std::invalid_argument(failure.what());
    }
}

template InspectRequest readAs<InspectRequest>(const json&);
template InspectResult readAs<InspectResult>(const json&);
template RunRequest readAs<RunRequest>(const json&);
template RunClaims readAs<RunClaims>(const json&);
template ProveRequest readAs<ProveRequest>(const json&);
template ProveResult readAs<ProveResult>(const json&);
template VerifyRequest readAs<VerifyRequest>(const json&);
template VerifyResult readAs<VerifyResult>(const json&);
template Progress readAs<Progress>(const json&);

} // namespace proofdesk::tasks
