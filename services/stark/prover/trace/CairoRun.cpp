#include "CairoRun.h"

#include "cairo/Runner.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace proofdesk::stark {
namespace {

std::uint64_t readU64(const std::uint8_t* bytes) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i) {
        value = (value << 8) | bytes[i];
    }
    return value;
}

// Addresses beyond this are refused (a dense memory of 2^32 cells is 128 GiB already).
constexpr std::uint64_t kMaxAddress = std::uint64_t(1) << 32;

std::vector<std::uint8_t> readWhole(const std::filesystem::path& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read the " + what + " " + path.string());
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json readJson(const std::filesystem::path& path, const std::string& what) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error("cannot read the " + what + " " + path.string());
    }
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("the " + what + " " + path.string() + " is not JSON: " + e.what());
    }
}

} // namespace

CairoRun readCairoRun(const nlohmann::json& publicInput, const nlohmann::json& privateInput,
                      std::span<const std::uint8_t> traceFile,
                      std::span<const std::uint8_t> memoryFile) {
    CairoRun run;
    run.publicInputJson = publicInput;
    run.publicInput = parsePublicInput(publicInput);
    if (!privateInput.is_object()) {
        throw std::runtime_error("the AIR private input is not a JSON object");
    }
    run.privateInput = privateInput;

    if (traceFile.size() % 24 != 0) {
        throw std::runtime_error("the trace file's size (" + std::to_string(traceFile.size()) +
                                 " bytes) is not a whole number of 24-byte steps");
    }
    run.trace.resize(traceFile.size() / 24);
    for (std::size_t i = 0; i < run.trace.size(); ++i) {
        const std::uint8_t* entry = traceFile.data() + 24 * i;
        run.trace[i] = {readU64(entry), readU64(entry + 8), readU64(entry + 16)};
    }

    if (memoryFile.size() % 40 != 0) {
        throw std::runtime_error("the memory file's size (" + std::to_string(memoryFile.size()) +
                                 " bytes) is not a whole number of 40-byte cells");
    }
    for (std::size_t at = 0; at < memoryFile.size(); at += 40) {
        const std::uint64_t address = readU64(memoryFile.data() + at);
        if (address >= kMaxAddress) {
            throw std::runtime_error("the memory file has address " + std::to_string(address) +
                                     ", beyond what the prover holds");
        }
        std::uint8_t bigEndian[32];
        for (int i = 0; i < 32; ++i) {
            bigEndian[i] = memoryFile[at + 8 + std::size_t(31 - i)];
        }
        const auto value = fromStandardBytes(bigEndian);
        if (!value) {
            throw std::runtime_error("the memory file's value at address " +
                                     std::to_string(address) + " is not below the field prime");
        }
        if (address >= run.memory.size()) {
            const std::size_t size = std::max<std::size_t>(address + 1, run.memory.size() * 2);
            run.memory.resize(size);
            run.memorySet.resize(size);
        }
        run.memory[address] = *value;
        run.memorySet[address] = true;
    }
    return run;
}

CairoRun cairoRunOf(const cairo::CairoRunner& runner) {
    std::ostringstream trace, memory;
    runner.writeTrace(trace);
    runner.writeMemory(memory);
    const std::string traceBytes = trace.str();
    const std::string memoryBytes = memory.str();
    return readCairoRun(
        nlohmann::json::parse(runner.airPublicInput().dump()),
        nlohmann::json::parse(runner.airPrivateInput("trace.bin", "memory.bin").dump()),
        {reinterpret_cast<const std::uint8_t*>(traceBytes.data()), traceBytes.size()},
        {reinterpret_cast<const std::uint8_t*>(memoryBytes.data()), memoryBytes.size()});
}

CairoRun readCairoRunFiles(const std::string& publicInputPath,
                           const std::string& privateInputPath) {
    const nlohmann::json publicInput = readJson(publicInputPath, "AIR public input");
    const nlohmann::json privateInput = readJson(privateInputPath, "AIR private input");
    const auto pathOf = [&](const char* key) {
        const auto it = privateInput.find(key);
        if (it == privateInput.end() || !it->is_string()) {
            throw std::runtime_error(std::string("the AIR private input has no \"") + key + "\"");
        }
        std::filesystem::path path = it->get<std::string>();
        if (path.is_relative() && !std::filesystem::exists(path)) {
            path = std::filesystem::path(privateInputPath).parent_path() / path;
        }
        return path;
    };
    const std::vector<std::uint8_t> trace = readWhole(pathOf("trace_path"), "trace file");
    const std::vector<std::uint8_t> memory = readWhole(pathOf("memory_path"), "memory file");
    return readCairoRun(publicInput, privateInput, trace, memory);
}

} // namespace proofdesk::stark
