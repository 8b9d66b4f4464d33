#include "cairo/hints/BootloaderInput.h"

#include "cairo/pie/CairoPie.h"
#include "cairo/vm/Vm.h"

#include <algorithm>
#include <numeric>

namespace proofdesk::cairo {
namespace {

[[noreturn]] void bad(const std::string& message) {
    throw VmError("bootloader input: " + message);
}

const nlohmann::json& member(const nlohmann::json& object, const char* key, const std::string& at) {
    auto it = object.find(key);
    if (it == object.end()) {
        bad(at + " has no \"" + key + "\"");
    }
    return *it;
}

// An integer as marshmallow reads it: a JSON number, or a hex / decimal string.
Felt feltOf(const nlohmann::json& value, const std::string& at) {
    if (value.is_number_unsigned()) {
        return Felt::fromU64(value.get<std::uint64_t>());
    }
    if (value.is_number_integer()) {
        return Felt::fromI64(value.get<std::int64_t>());
    }
    if (value.is_string()) {
        if (auto felt = Felt::parse(value.get<std::string>())) {
            return *felt;
        }
    }
    bad(at + " is not an integer");
}

std::vector<Felt> feltsOf(const nlohmann::json& value, const std::string& at) {
    if (!value.is_array()) {
        bad(at + " is not a list");
    }
    std::vector<Felt> out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        out.push_back(feltOf(value[i], at + "[" + std::to_string(i) + "]"));
    }
    return out;
}

std::uint64_t sizeOf(const nlohmann::json& value, const std::string& at) {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
        bad(at + " is not a non-negative integer");
    }
    return value.get<std::uint64_t>();
}

// A CairoPiePath task's PIE, and the stripped program it carries (no hints, no identifiers).
void loadPieTask(const nlohmann::json& spec, const std::string& at, const CairoPieSource* pies,
                 BootloaderTask& task) {
    const nlohmann::json& path = member(spec, "path", at);
    if (!path.is_string()) {
        bad(at + ".path is not a string");
    }
    if (!pies || !*pies) {
        bad(at + " is a CairoPiePath task, which this run does not read (a server reads no "
                 "files its input names)");
    }
    try {
        task.pie = (*pies)(path.get<std::string>());
    } catch (const std::exception& error) {
        bad(at + ".path: " + error.what());
    }
    if (!task.pie) {
        bad(at + ".path names no PIE this run can read");
    }
    if (!task.pie->simulatedBuiltins.empty()) {
        bad(at + ": the PIE simulates builtins, which this bootloader does not load");
    }
    auto program = std::make_shared<Program>();
    program->data = task.pie->programData;
    program->builtins = task.pie->builtins;
    program->main = task.pie->main;
    task.program = std::move(program);
}

BootloaderTask taskOf(const nlohmann::json& spec, const std::string& at,
                      const CairoPieSource* pies) {
    if (!spec.is_object()) {
        bad(at + " is not an object");
    }
    const nlohmann::json& type = member(spec, "type", at);
    if (type != "RunProgramTask" && type != "CairoPiePath") {
        bad(at + " has type " + type.dump() + " (expected RunProgramTask or CairoPiePath)");
    }
    if (spec.contains("use_poseidon") && spec["use_poseidon"] == true) {
        bad(at + " asks for use_poseidon, which this bootloader's program hash does not have");
    }
    BootloaderTask task;
    if (type == "CairoPiePath") {
        loadPieTask(spec, at, pies, task);
        return task;
    }
    try {
        task.program =
            std::make_shared<const Program>(Program::fromJson(member(spec, "program", at)));
    } catch (const ProgramError& error) {
        bad(at + ".program: " + error.what());
    }
    if (auto input = spec.find("program_input"); input != spec.end() && !input->is_null()) {
        task.programInput = *input;
    }
    return task;
}

PackedOutput packedOutputOf(const nlohmann::json& spec, const std::string& at, int depth) {
    if (depth > 64) {
        bad(at + " nests packed outputs too deeply");
    }
    if (!spec.is_object()) {
        bad(at + " is not an object");
    }
    const nlohmann::json& type = member(spec, "type", at);
    PackedOutput packed;
    if (type == "PlainPackedOutput") {
        return packed;
    }
    if (type != "CompositePackedOutput") {
        bad(at + " has type " + type.dump() +
            " (expected PlainPackedOutput or CompositePackedOutput)");
    }
    packed.plain = false;
    packed.outputs = feltsOf(member(spec, "outputs", at), at + ".outputs");
    const nlohmann::json& subtasks = member(spec, "subtasks", at);
    if (!subtasks.is_array()) {
        bad(at + ".subtasks is not a list");
    }
    for (std::size_t i = 0; i < subtasks.size(); ++i) {
        packed.subtasks.push_back(
            packedOutputOf(subtasks[i], at + ".subtasks[" + std::to_string(i) + "]", depth + 1));
    }
    return packed;
}

} // namespace

nlohmann::json onePieTaskInput(const std::string& path) {
    return {{"tasks", {{{"type", "CairoPiePath"}, {"path", path}}}},
            {"fact_topologies_path", nullptr},
            {"single_page", false},
            {"bootloader_config",
             {{"simple_bootloader_program_hash", 0},
              {"supported_cairo_verifier_program_hashes", nlohmann::json::array()}}},
            {"packed_outputs", {{{"type", "PlainPackedOutput"}}}}};
}

nlohmann::json FactTopology::toJson() const {
    return {{"tree_structure", treeStructure}, {"page_sizes", pageSizes}};
}

BootloaderInput BootloaderInput::fromJson(const nlohmann::json& json, bool full,
                                          const CairoPieSource* pies) {
    if (!json.is_object()) {
        bad("program_input is not a JSON object (pass the bootloader's tasks as --program_input)");
    }
    BootloaderInput input;
    const nlohmann::json& tasks = member(json, "tasks", "program_input");
    if (!tasks.is_array()) {
        bad("tasks is not a list");
    }
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        input.tasks.push_back(taskOf(tasks[i], "tasks[" + std::to_string(i) + "]", pies));
    }
    if (auto path = json.find("fact_topologies_path"); path != json.end() && !path->is_null()) {
        if (!path->is_string()) {
            bad("fact_topologies_path is not a string");
        }
        input.factTopologiesPath = path->get<std::string>();
    }
    if (auto single = json.find("single_page"); single != json.end()) {
        if (!single->is_boolean()) {
            bad("single_page is not a boolean");
        }
        input.singlePage = single->get<bool>();
    }
    if (!full) {
        return input;
    }
    const nlohmann::json& config = member(json, "bootloader_config", "program_input");
    if (!config.is_object()) {
        bad("bootloader_config is not an object");
    }
    input.simpleBootloaderProgramHash =
        feltOf(member(config, "simple_bootloader_program_hash", "bootloader_config"),
               "bootloader_config.simple_bootloader_program_hash");
    input.supportedCairoVerifierProgramHashes =
        feltsOf(member(config, "supported_cairo_verifier_program_hashes", "bootloader_config"),
                "bootloader_config.supported_cairo_verifier_program_hashes");
    const nlohmann::json& packed = member(json, "packed_outputs", "program_input");
    if (!packed.is_array()) {
        bad("packed_outputs is not a list");
    }
    for (std::size_t i = 0; i < packed.size(); ++i) {
        input.packedOutputs.push_back(
            packedOutputOf(packed[i], "packed_outputs[" + std::to_string(i) + "]", 0));
    }
    return input;
}

FactTopology taskFactTopology(std::uint64_t outputSize, const OutputBuiltinState& taskOutput) {
    FactTopology topology;
    auto attribute = taskOutput.attributes.find("gps_fact_topology");
    if (attribute != taskOutput.attributes.end()) {
        if (!attribute->is_array() || attribute->empty() || attribute->size() % 2 != 0 ||
            attribute->size() > 10) {
            throw VmError("the task's gps_fact_topology attribute is not a list of 2 to 10 "
                          "numbers, even in length");
        }
        for (const auto& node : *attribute) {
            topology.treeStructure.push_back(sizeOf(node, "gps_fact_topology"));
        }
    } else {
        if (!taskOutput.pages.empty()) {
            throw VmError("a task whose output has pages must set the gps_fact_topology "
                          "attribute");
        }
        topology.treeStructure = {1, 0};
    }
    // Page 0 runs up to page 1; pages 1, 2, ... follow each other to the end of the output.
    std::uint64_t page0Size = outputSize;
    std::uint64_t expectedId = 1;
    std::uint64_t expectedStart = 0;
    std::vector<std::uint64_t> sizes;
    for (const auto& [id, page] : taskOutput.pages) {
        if (id != expectedId) {
            throw VmError("the task's output pages skip from " + std::to_string(expectedId - 1) +
                          " to " + std::to_string(id));
        }
        if (id == 1) {
            if (page.start == 0 || page.start > outputSize) {
                throw VmError("the task's output page 1 starts at " + std::to_string(page.start) +
                              ", outside its output of " + std::to_string(outputSize));
            }
            page0Size = page.start;
        } else if (page.start != expectedStart) {
            throw VmError("the task's output page " + std::to_string(id) + " starts at " +
                          std::to_string(page.start) + ", not where page " +
                          std::to_string(id - 1) + " ends (" + std::to_string(expectedStart) + ")");
        }
        if (page.size == 0 || page.size > outputSize) {
            throw VmError("the task's output page " + std::to_string(id) + " has size " +
                          std::to_string(page.size));
        }
        expectedStart = page.start + page.size;
        ++expectedId;
        sizes.push_back(page.size);
    }
    if (!taskOutput.pages.empty() && expectedStart != outputSize) {
        throw VmError("the task's last output page ends at " + std::to_string(expectedStart) +
                      ", not at the end of its output (" + std::to_string(outputSize) + ")");
    }
    topology.pageSizes.push_back(page0Size);
    topology.pageSizes.insert(topology.pageSizes.end(), sizes.begin(), sizes.end());
    return topology;
}

std::vector<FactTopology> plainFactTopologies(const std::vector<PackedOutput>& packedOutputs,
                                              const std::vector<FactTopology>& factTopologies) {
    if (packedOutputs.size() != factTopologies.size()) {
        throw VmError("the bootloader has " + std::to_string(packedOutputs.size()) +
                      " packed outputs but ran " + std::to_string(factTopologies.size()) +
                      " tasks");
    }
    for (const PackedOutput& packed : packedOutputs) {
        if (!packed.plain) {
            throw VmError("fact topologies of a CompositePackedOutput are not computed natively "
                          "(only PlainPackedOutput)");
        }
    }
    return factTopologies;
}

void configureFactTopologies(const std::vector<FactTopology>& topologies, Relocatable outputStart,
                             OutputBuiltin& output) {
    std::uint64_t pageId = 1;
    for (const FactTopology& topology : topologies) {
        outputStart = outputStart + 2; // the task's header: output size and program hash
        for (std::uint64_t size : topology.pageSizes) {
            output.addPage(pageId++, outputStart, size);
            outputStart = outputStart + static_cast<std::int64_t>(size);
        }
    }
}

} // namespace proofdesk::cairo
