#include "TaskInputs.h"

#include "cairo/ProgramFiles.h"
#include "core/BoundedJson.h"
#include "sandbox/tasks/TaskTypes.h"

#include <fstream>

namespace proofdesk::work {
namespace {

using sandbox::TaskError;

constexpr std::uint64_t kMaxProgramBytes = std::uint64_t{256} << 20;
constexpr std::uint64_t kMaxInputBytes = std::uint64_t{256} << 20;
constexpr core::JsonLimits kExact{core::kMaxJsonDepth, true}; // integers beyond 64 bits stay exact

} // namespace

cairo::Program readProgram(const sandbox::ChildContext& context) {
    const std::string text = context.readInput(tasks::slot::kProgram, kMaxProgramBytes);
    std::string why;
    const nlohmann::json parsed = core::parseJsonBounded(text, &why, kExact);
    if (parsed.is_discarded()) {
        throw TaskError("PROGRAM_FILE_SHOULD_BE_JSON", "programFile is " + why);
    }
    try {
        return cairo::programFromJson(parsed);
    } catch (const std::exception& failure) {
        throw TaskError("INVALID_PROGRAM_FILE",
                        std::string("programFile is not a compiled Cairo 0 program or a Cairo 1 "
                                    "executable: ") +
                            failure.what());
    }
}

std::vector<cairo::Felt> readArguments(const sandbox::ChildContext& context) {
    if (!context.hasInput(tasks::slot::kInput)) {
        return {};
    }
    const std::string text = context.readInput(tasks::slot::kInput, kMaxInputBytes);
    std::string why;
    const nlohmann::json parsed = core::parseJsonBounded(text, &why, kExact);
    if (parsed.is_discarded()) {
        throw TaskError("INPUT_FILE_FOR_CAIRO1_SHOULD_BE_JSON_ARRAY", "inputFile is " + why);
    }
    try {
        return cairo::argumentsFromJson(parsed);
    } catch (const std::invalid_argument& failure) {
        throw TaskError("INPUT_FILE_FOR_CAIRO1_SHOULD_BE_JSON_ARRAY",
                        std::string("inputFile holds a Cairo 1 program's arguments, a JSON array "
                                    "of felts: ") +
                            failure.what());
    }
}

std::string readProgramInputText(const sandbox::ChildContext& context) {
    if (!context.hasInput(tasks::slot::kInput)) {
        return {};
    }
    std::string text = context.readInput(tasks::slot::kInput, kMaxInputBytes);
    std::string why;
    if (core::parseJsonBounded(text, &why, kExact).is_discarded()) {
        throw TaskError("INPUT_FILE_FOR_CAIRO0_SHOULD_BE_JSON", "inputFile is " + why);
    }
    return text;
}

cairo::CairoPie readPie(const sandbox::ChildContext& context) {
    const std::string zip = context.readInput(tasks::slot::kPie, kMaxInputBytes);
    if (zip.size() < 4 || zip.compare(0, 4, std::string("PK\x03\x04", 4)) != 0) {
        throw TaskError("PIE_FILE_SHOULD_BE_ZIP", "pieFile is not a zip file");
    }
    try {
        return cairo::CairoPie::fromZip(zip);
    } catch (const std::exception& failure) {
        throw TaskError("INVALID_PIE_FILE",
                        std::string("pieFile is not a Cairo PIE: ") + failure.what());
    }
}

nlohmann::json readProof(const sandbox::ChildContext& context) {
    const std::string text = context.readInput(tasks::slot::kProof, kMaxInputBytes);
    std::string why;
    const nlohmann::json parsed = core::parseJsonBounded(text, &why);
    if (parsed.is_discarded()) {
        throw TaskError("PROOF_FILE_SHOULD_BE_JSON", "proofFile is " + why);
    }
    return parsed;
}

void writeOutputFile(const std::string& name, const std::string& bytes) {
    std::ofstream out(name, std::ios::binary);
    out << bytes;
    if (!out.flush()) {
        throw TaskError("OUTPUT_TOO_LARGE", "cannot write " + name + " (file size limit)");
    }
}

} // namespace proofdesk::work
