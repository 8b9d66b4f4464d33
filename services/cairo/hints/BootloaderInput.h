#pragma once

// The bootloader's program_input (cairo-lang's BootloaderInput / SimpleBootloaderInput schemas)
// and its fact topologies: what the bootloader hints (HintsBootloader.cpp) read and compute.

#include "cairo/hints/HintProcessor.h"
#include "cairo/vm/Builtins.h"
#include "cairo/vm/Program.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::cairo {

// A task the simple bootloader runs: a compiled program and its own program_input
// ("RunProgramTask"), or a Cairo PIE whose memory the bootloader loads in place of running the
// program's hints ("CairoPiePath"; `program` is then the PIE's stripped program).
struct BootloaderTask {
    std::shared_ptr<const Program> program;
    nlohmann::json programInput = nlohmann::json::object();
    std::shared_ptr<const CairoPie> pie;
};

// How a task's output splits into pages and how those pages build the fact (cairo-lang's
// FactTopology).
struct FactTopology {
    std::vector<std::uint64_t> treeStructure;
    std::vector<std::uint64_t> pageSizes;
    nlohmann::json toJson() const;
};

// PlainPackedOutput, or CompositePackedOutput with its outputs and nested packed outputs.
struct PackedOutput {
    bool plain = true;
    std::vector<Felt> outputs;
    std::vector<PackedOutput> subtasks;
    // elements_for_hash(): the outputs of a composite packed output.
    const std::vector<Felt>& elementsForHash() const { return outputs; }
};

struct BootloaderInput {
    std::vector<BootloaderTask> tasks;
    std::optional<std::string> factTopologiesPath;
    bool singlePage = false;
    // The full bootloader's part (absent for the simple bootloader).
    Felt simpleBootloaderProgramHash;
    std::vector<Felt> supportedCairoVerifierProgramHashes;
    std::vector<PackedOutput> packedOutputs;

    // Throws VmError naming the field that is missing or malformed. `full`: the bootloader's
    // schema (bootloader_config and packed_outputs required), else the simple bootloader's.
    // `pies` opens the CairoPiePath tasks' PIEs (null or empty: such tasks are refused).
    static BootloaderInput fromJson(const nlohmann::json& json, bool full,
                                    const CairoPieSource* pies = nullptr);
};

// The bootloader's program_input for proving one Cairo PIE the way SHARP does: the PIE at `path`
// as the one CairoPiePath task, one plain packed output, the config's hashes 0 (no Cairo verifier
// runs inside), no fact topologies file.
nlohmann::json onePieTaskInput(const std::string& path);

// get_task_fact_topology for a program task: the fact topology from the output builtin's pages
// and "gps_fact_topology" attribute after the task ran; throws VmError if they are inconsistent.
FactTopology taskFactTopology(std::uint64_t outputSize, const OutputBuiltinState& taskOutput);

// compute_fact_topologies: one fact topology per plain packed output (composite ones are refused).
std::vector<FactTopology> plainFactTopologies(const std::vector<PackedOutput>& packedOutputs,
                                              const std::vector<FactTopology>& factTopologies);

// configure_fact_topologies: pages 1, 2, ... of the bootloader's output, two header words per
// task skipped.
void configureFactTopologies(const std::vector<FactTopology>& topologies, Relocatable outputStart,
                             OutputBuiltin& output);

} // namespace proofdesk::cairo
