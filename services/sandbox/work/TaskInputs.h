#pragma once

#include "cairo/pie/CairoPie.h"
#include "cairo/vm/Program.h"
#include "sandbox/SandboxChild.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// Reading a task's input descriptors, each checked as the proof service reports problems (the
// API's 400 codes on sandbox::TaskError).
namespace proofdesk::work {

cairo::Program readProgram(const sandbox::ChildContext& context);
// A Cairo 1 program's arguments: the input, a JSON array of felts (numbers, or decimal or hex
// strings); INPUT_FILE_FOR_CAIRO1_SHOULD_BE_JSON_ARRAY otherwise. None without an input.
std::vector<cairo::Felt> readArguments(const sandbox::ChildContext& context);
// The program input's text ("" when the task has none); INPUT_FILE_FOR_CAIRO0_SHOULD_BE_JSON when
// it is not JSON.
std::string readProgramInputText(const sandbox::ChildContext& context);
cairo::CairoPie readPie(const sandbox::ChildContext& context);
nlohmann::json readProof(const sandbox::ChildContext& context);

// Writes a file of the work directory; OUTPUT_TOO_LARGE when the file size limit stops it.
void writeOutputFile(const std::string& name, const std::string& bytes);

// A run the program's own fault ended (an assertion, an unknown hint, a raising Python hint, the
// step limit): reported as a permanent failure with the VM's message.
template <typename Work> auto programFault(Work work) -> decltype(work()) {
    try {
        return work();
    } catch (const sandbox::TaskError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& failure) {
        throw sandbox::TaskError("RUN_FAILED", failure.what());
    }
}

} // namespace proofdesk::work
