#pragma once

// Inputs for proof-service tests, all made here: compiled programs from the test assembler, a
// Stone-proof-shaped statement, zips built with libzip.

#include "TestPrograms.h"

#include <nlohmann/json.hpp>

#include <zip.h>

#include <string>
#include <utility>
#include <vector>

namespace proofdesk::test {

// main(output_ptr): writes `value` to the output and returns; builtins [output].
inline std::string outputProgram(std::uint64_t value) {
    return Asm::writesOutput(value).program({"output"}).dump();
}

// The same as a proof-mode compilation: `ap += 1` (past the output pointer), call main, jmp rel 0.
inline std::string proofModeOutputProgram(std::uint64_t value) {
    nlohmann::json program = Asm::writesOutput(value).proofModeProgram();
    program["data"][1] = "0x1";
    program["builtins"] = {"output"};
    return program.dump();
}

// A program whose assertion fails in the VM: push 5; assert [ap - 1] == 6.
inline std::string failingProgram() {
    return Asm().pushImm(5).assertTopEquals(6).ret().program().dump();
}

// A Stone proof JSON carrying `programWords` at address 1 and `output` after the execution segment
// (the shape cpu_air_prover writes; the proof itself is a placeholder).
inline std::string stoneProofJson(const std::vector<std::string>& programWords,
                                  const std::vector<std::string>& output,
                                  const std::string& layout = "recursive") {
    const std::size_t programEnd = 1 + programWords.size();
    const std::size_t executionBegin = programEnd + 2;
    const std::size_t outputBegin = executionBegin + 20;
    nlohmann::json memory = nlohmann::json::array();
    for (std::size_t i = 0; i < programWords.size(); ++i) {
        memory.push_back({{"address", 1 + i}, {"page", 0}, {"value", programWords[i]}});
    }
    for (std::size_t i = 0; i < output.size(); ++i) {
        memory.push_back({{"address", outputBegin + i}, {"page", 0}, {"value", output[i]}});
    }
    return nlohmann::json{
        {"proof_hex", "0x1234"},
        {"public_input",
         {{"layout", layout},
          {"n_steps", 16},
          {"rc_min", 32760},
          {"rc_max", 32769},
          {"memory_segments",
           {{"program", {{"begin_addr", 1}, {"stop_ptr", 5}}},
            {"execution", {{"begin_addr", executionBegin}, {"stop_ptr", executionBegin + 10}}},
            {"output", {{"begin_addr", outputBegin}, {"stop_ptr", outputBegin + output.size()}}}}},
          {"public_memory", memory}}}}
        .dump();
}

// A zip archive holding `files` (name, content).
inline std::string zipOf(const std::vector<std::pair<std::string, std::string>>& files) {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
    zip_source_keep(buffer);
    zip_t* archive = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
    for (const auto& [name, content] : files) {
        zip_source_t* source = zip_source_buffer(archive, content.data(), content.size(), 0);
        zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE);
    }
    zip_close(archive);
    std::string bytes;
    zip_source_open(buffer);
    zip_source_seek(buffer, 0, SEEK_END);
    const zip_int64_t size = zip_source_tell(buffer);
    zip_source_seek(buffer, 0, SEEK_SET);
    bytes.resize(std::size_t(size));
    zip_source_read(buffer, bytes.data(), zip_uint64_t(size));
    zip_source_close(buffer);
    zip_source_free(buffer);
    return bytes;
}

} // namespace proofdesk::test
