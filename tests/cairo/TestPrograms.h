#pragma once

// A tiny assembler for tests: builds compiled-program JSON from instruction words we encode
// ourselves (cairo-lang's bit layout), so VM tests need no compiler and no third-party programs.

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::test {

// A batch of one mod builtin's operations modulo p: numbers as four 96-bit words (decimal), the
// least significant first; each operation is a, b, c.
struct ModBatch {
    using Number = std::array<std::string, 4>;
    Number p;
    std::vector<std::array<Number, 3>> operations;
};

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
    // [ap + 0] = [ap - 1] + imm; ap++
    Asm& pushTopPlus(std::int64_t value) {
        word(encode(0, -1, 1, (1u << 14) | (1u << 11) | (1u << 5) | (1u << 2)));
        return value >= 0 ? word(static_cast<std::uint64_t>(value)) : felt(value);
    }
    // jmp rel <delta> if [ap - 1] != 0
    Asm& jnzTop(std::int64_t delta) {
        word(encode(-1, -1, 1, (1u << 9) | (1u << 2) | (1u << 1)));
        return delta >= 0 ? word(static_cast<std::uint64_t>(delta)) : felt(delta);
    }
    // main(output_ptr): [output_ptr] = value; return output_ptr + 1 (builtins: output).
    static Asm writesOutput(std::uint64_t value) {
        Asm a;
        a.pushImm(value);
        // [[fp - 3] + 0] = [ap - 1]
        a.word(encode(-1, -3, 0, (1u << 14) | (1u << 1)));
        // [ap] = [fp - 3] + 1; ap++
        a.word(encode(0, -3, 1, (1u << 14) | (1u << 11) | (1u << 5) | (1u << 2) | (1u << 1)))
            .word(1);
        return a.ret();
    }
    // A negative number as a field element, written in decimal (-k).
    Asm& felt(std::int64_t value) {
        words.push_back(std::to_string(value));
        return *this;
    }
    // A countdown loop of 2·n + 2 steps: push n; loop { push top - 1; jnz loop }; ret.
    static Asm countdown(std::uint64_t n) {
        return Asm().pushImm(n).pushTopPlus(-1).jnzTop(-2).ret();
    }
    Asm& ret() { return word(0x208b7fff7fff7ffeULL); }

    // main(keccak_ptr) for the keccak builtin: for each given state (8 words of up to 200 bits,
    // in decimal), writes it as the next invocation's input, reads the invocation's 8 output
    // words (so the builtin computes them) and returns keccak_ptr past the invocations.
    static Asm keccakInvocations(const std::vector<std::vector<std::string>>& states) {
        Asm a;
        int offset = 0;
        for (const std::vector<std::string>& state : states) {
            for (const std::string& word : state) {
                a.pushImm(0).words.back() = word;
                // [ap - 1] = [[fp - 3] + offset]
                a.word(encode(-1, -3, offset++, (1u << 14) | (1u << 1)));
            }
            for (int w = 0; w < 8; ++w) {
                // [ap] = [[fp - 3] + offset]; ap++
                a.word(encode(0, -3, offset++, (1u << 14) | (1u << 11) | (1u << 1)));
            }
        }
        // [ap] = [fp - 3] + offset; ap++
        a.word(encode(0, -3, 1, (1u << 14) | (1u << 11) | (1u << 5) | (1u << 2) | (1u << 1)))
            .word(static_cast<std::uint64_t>(offset));
        return a.ret();
    }

    // main(add_mod_ptr, mul_mod_ptr) for the mod builtins: pushes a values table (every
    // operation's a, b, c) and an offsets table in its frame, writes one instance per operation
    // (each builtin's operations one batch: p and values_ptr repeat, offsets_ptr advances by 3,
    // n counts down to 1) and returns both pointers past them. Nothing is left for a hint. It
    // finds its own fp as get_fp_and_pc does, so it runs from main and in proof mode alike.
    static Asm modOperations(const ModBatch& add, const ModBatch& mul) {
        Asm a;
        const std::uint64_t assertFp = (1u << 14) | (1u << 1) | (1u << 0);
        const std::uint64_t assertAp = (1u << 14) | (1u << 1);
        const std::uint64_t pushFpPlusImm =
            (1u << 14) | (1u << 11) | (1u << 5) | (1u << 2) | (1u << 1);
        const std::uint64_t copyFromFp = (1u << 14) | (1u << 11) | (1u << 3); // [ap] = [fp + k]
        const std::uint64_t values = 12 * (add.operations.size() + mul.operations.size());
        // call rel 4; jmp rel 4; then the callee: [ap] = [fp - 2] (main's fp); ret. Main's frame:
        // fp + 0, 1: the call's, fp + 2: fp, fp + 3: values_ptr, fp + 4: the offsets' pointer.
        a.word(0x1104800180018000ULL).word(4);
        a.word(encode(-1, -1, 1, 0x107)).word(4);
        a.word(encode(0, -1, -2, copyFromFp)).ret();
        a.word(encode(0, 2, 1, pushFpPlusImm)).word(5);
        a.word(encode(0, 2, 1, pushFpPlusImm)).word(5 + values);
        for (const ModBatch* batch : {&add, &mul}) {
            for (const auto& operation : batch->operations) {
                for (const ModBatch::Number& number : operation) {
                    for (const std::string& word : number) {
                        a.pushImm(0).words.back() = word;
                    }
                }
            }
        }
        for (std::uint64_t k = 0; k < values / 12; ++k) {
            a.pushImm(12 * k).pushImm(12 * k + 4).pushImm(12 * k + 8);
        }
        std::uint64_t firstOffset = 0;
        for (int builtin = 0; builtin < 2; ++builtin) {
            const ModBatch& batch = builtin == 0 ? add : mul;
            const int pointer = builtin == 0 ? -4 : -3;
            const std::uint64_t n = batch.operations.size();
            for (std::uint64_t i = 0; i < n; ++i) {
                const int cell = static_cast<int>(7 * i);
                for (int w = 0; w < 4; ++w) {
                    a.pushImm(0).words.back() = batch.p[static_cast<std::size_t>(w)];
                    a.word(encode(-1, pointer, cell + w, assertAp)); // [ap-1] = [[fp+ptr]+k]
                }
                a.word(encode(3, pointer, cell + 4, assertFp)); // values_ptr
                a.word(encode(0, 4, 1, pushFpPlusImm)).word(firstOffset + 3 * i);
                a.word(encode(-1, pointer, cell + 5, assertAp));                // offsets_ptr
                a.pushImm(n - i).word(encode(-1, pointer, cell + 6, assertAp)); // n
            }
            firstOffset += 3 * n;
        }
        a.word(encode(0, -4, 1, pushFpPlusImm)).word(7 * add.operations.size());
        a.word(encode(0, -3, 1, pushFpPlusImm)).word(7 * mul.operations.size());
        return a.ret();
    }

    // The same code as a proof-mode compilation: `ap += <builtins>; call main; __end__: jmp rel 0`
    // prepended, main moved to pc 6 and taking the builtins' pointers.
    nlohmann::json proofModeProgram(const std::vector<std::string>& builtins = {}) const {
        Asm full;
        full.word(0x40780017fff7fffULL).word(builtins.size()); // ap += <builtins>
        full.word(0x1104800180018000ULL).word(4);              // call rel 4 (main at pc 6)
        full.jmpRel0();                                        // __end__ at pc 4
        full.words.insert(full.words.end(), words.begin(), words.end());
        nlohmann::json json = full.program(builtins);
        json["identifiers"] = {{"__main__.main", {{"type", "function"}, {"pc", 6}}},
                               {"__main__.__start__", {{"type", "label"}, {"pc", 0}}},
                               {"__main__.__end__", {{"type", "label"}, {"pc", 4}}}};
        return json;
    }

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
