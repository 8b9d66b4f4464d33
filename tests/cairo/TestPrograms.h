#pragma once

// A tiny assembler for tests: builds compiled-program JSON from instruction words we encode
// ourselves (cairo-lang's bit layout), so VM tests need no compiler and no third-party programs.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::test {

struct Asm {
    std::vector<std::string> words;

    static std::uint64_t encode(int off0, int off1, int off2, std::uint64_t flags) {
        auto biased = [](int off) { return static_cast<std::uint64_t>(off + 0x8000) & 0xffff; };
        return biased(off0) | (biased(off1) << 16) | (biased(off2) << 32) | (flags << 48);
    }
    static std::string hex(std::uint64_t v) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
        return buffer;
    }
    Asm& word(std::uint64_t v) {
        words.push_back(hex(v));
        return *this;
    }
    // [ap + 0] = imm; ap++
    Asm& pushImm(std::uint64_t value) { return word(0x480680017fff8000ULL).word(value); }
    // [ap + 0] = [ap - 1] * [ap - 1]; ap++   (assert_eq, res mul, op1 from ap)
    Asm& pushSquareOfTop() {
        return word(encode(0, -1, -1, (1u << 14) | (1u << 11) | (1u << 6) | (1u << 4)));
    }
    // [ap - 1] = imm   (assert_eq with an immediate, op0 = [fp - 1]; as cairo-compile encodes)
    Asm& assertTopEquals(std::uint64_t value) {
        return word(encode(-1, -1, 1, (1u << 14) | (1u << 2) | (1u << 1))).word(value);
    }
    Asm& jmpRel0() { return word(0x10780017fff7fffULL).word(0); }
    Asm& ret() { return word(0x208b7fff7fff7ffeULL); }

    nlohmann::json program(const std::vector<std::string>& builtins = {},
                           nlohmann::json hints = nlohmann::json::object()) const {
        return {{"prime", "0x800000000000011000000000000000000000000000000000000000000000001"},
                {"data", words},
                {"builtins", builtins},
                {"hints", hints},
                {"identifiers", {{"__main__.main", {{"type", "function"}, {"pc", 0}}}}},
                {"reference_manager", {{"references", nlohmann::json::array()}}},
                {"main_scope", "__main__"},
                {"attributes", nlohmann::json::array()},
                {"debug_info", nullptr}};
    }
};

} // namespace proofdesk::test
