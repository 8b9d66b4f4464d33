#include "cairo/ProgramFiles.h"

#include "cairo/cairo1/Executable.h"
#include "cairo/vm/ExactJson.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace proofdesk::cairo {
namespace {

// Sierra's text form: type, libfunc and statement declarations, not JSON.
bool looksLikeSierraText(const std::string& text) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    return start != std::string::npos &&
           (text.compare(start, 5, "type ") == 0 || text.compare(start, 8, "libfunc ") == 0);
}

Felt argumentFelt(const std::string& text, std::size_t index) {
    std::string trimmed = text;
    const std::size_t first = trimmed.find_first_not_of(" \t\r\n");
    const std::size_t last = trimmed.find_last_not_of(" \t\r\n");
    trimmed = first == std::string::npos ? "" : trimmed.substr(first, last - first + 1);
    const auto felt = trimmed.empty() ? std::optional<Felt>() : Felt::parse(trimmed);
    if (!felt) {
        throw std::invalid_argument("argument " + std::to_string(index + 1) + " (\"" + trimmed +
                                    "\") is not a felt: give decimal or 0x-prefixed hex numbers");
    }
    return *felt;
}

} // namespace

bool isCairo1Executable(const nlohmann::json& json) {
    return programFormatOf(json) == ProgramFormat::Cairo1Executable;
}

Program programFromJson(const nlohmann::json& json) {
    switch (programFormatOf(json)) {
    case ProgramFormat::Cairo1Executable:
        return Executable::fromJson(json).program();
    case ProgramFormat::Sierra:
        throw ProgramError(sierraRefusal());
    default:
        return Program::fromJson(json);
    }
}

Program programFromText(const std::string& text) {
    const nlohmann::json json = parseExactJson(text);
    if (json.is_discarded()) {
        if (looksLikeSierraText(text)) {
            throw ProgramError(sierraRefusal());
        }
        throw ProgramError("invalid program: the file is not valid JSON");
    }
    return programFromJson(json);
}

Program programFromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw ProgramError("cannot read program file " + path);
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return programFromText(buffer.str());
}

std::vector<Felt> argumentsFromList(const std::string& list) {
    std::vector<Felt> arguments;
    if (list.find_first_not_of(" \t\r\n") == std::string::npos) {
        return arguments;
    }
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = list.find(',', start);
        arguments.push_back(argumentFelt(list.substr(start, comma - start), arguments.size()));
        if (comma == std::string::npos) {
            return arguments;
        }
        start = comma + 1;
    }
}

std::vector<Felt> argumentsFromJson(const nlohmann::json& json) {
    if (!json.is_array()) {
        throw std::invalid_argument("the arguments are not a JSON array of felts");
    }
    std::vector<Felt> arguments;
    arguments.reserve(json.size());
    for (std::size_t i = 0; i < json.size(); ++i) {
        const nlohmann::json& item = json[i];
        if (item.is_number_unsigned()) {
            arguments.push_back(Felt::fromU64(item.get<std::uint64_t>()));
        } else if (item.is_number_integer()) {
            arguments.push_back(Felt::fromI64(item.get<std::int64_t>()));
        } else if (item.is_string()) {
            arguments.push_back(argumentFelt(item.get<std::string>(), i));
        } else {
            throw std::invalid_argument("argument " + std::to_string(i + 1) +
                                        " is not a felt: give integers, or decimal or "
                                        "0x-prefixed hex strings");
        }
    }
    return arguments;
}

std::vector<Felt> argumentsFromJsonText(const std::string& text) {
    const nlohmann::json json = parseExactJson(text);
    if (json.is_discarded()) {
        throw std::invalid_argument("the arguments are not valid JSON (a JSON array of felts)");
    }
    return argumentsFromJson(json);
}

} // namespace proofdesk::cairo
