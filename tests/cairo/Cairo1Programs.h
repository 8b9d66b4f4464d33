#pragma once

// Cairo 1 executables of our own for tests: a body of CASM we encode ourselves (TestPrograms.h's
// bit layout), with the compiler's structured hints by pc, wrapped in the Standalone prologue
// every Scarb executable starts with (`ap += N; call rel 4; jmp rel 0`) and its two entry points.

#include "TestPrograms.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace proofdesk::test {

struct Cairo1Body {
    Asm code;
    std::vector<std::pair<std::size_t, nlohmann::json>> hints; // by the body's pc
    int depth = 0;                                             // ap - fp: the cells the body pushed

    // [ap + k] / [fp + k] as a hint's CellRef, and the ResOperand forms.
    static nlohmann::json ap(int offset) { return {{"register", "AP"}, {"offset", offset}}; }
    static nlohmann::json fp(int offset) { return {{"register", "FP"}, {"offset", offset}}; }
    static nlohmann::json deref(const nlohmann::json& cell) { return {{"Deref", cell}}; }
    static nlohmann::json imm(const std::string& value) { return {{"Immediate", value}}; }
    static nlohmann::json doubleDeref(const nlohmann::json& cell, int inner) {
        return {{"DoubleDeref", {cell, inner}}};
    }
    static nlohmann::json add(const nlohmann::json& a, const nlohmann::json& b) {
        return {{"BinOp", {{"op", "Add"}, {"a", a}, {"b", b}}}};
    }

    // A hint on the next instruction.
    Cairo1Body& hint(const std::string& name, nlohmann::json fields) {
        hints.emplace_back(code.words.size(), nlohmann::json{{name, std::move(fields)}});
        return *this;
    }
    // [ap] = value; ap++ (value: decimal or 0x-hex).
    Cairo1Body& push(const std::string& value) {
        code.word(0x480680017fff8000ULL);
        code.words.push_back(value);
        ++depth;
        return *this;
    }
    // ap += n
    Cairo1Body& reserve(int n) {
        code.word(0x40780017fff7fffULL).word(static_cast<std::uint64_t>(n));
        depth += n;
        return *this;
    }
    // [ap] = [fp + offset]; ap++
    Cairo1Body& copyFromFp(int offset) {
        code.word(Asm::encode(0, -1, offset, (1u << 14) | (1u << 11) | (1u << 3) | (1u << 1)));
        ++depth;
        return *this;
    }
    // [[fp + pointer] + index] = value, through a pushed cell: [ap] = value; ap++, then
    // [ap - 1] = [[fp + pointer] + index].
    Cairo1Body& store(int pointer, int index, const std::string& value) {
        push(value);
        code.word(Asm::encode(-1, pointer, index, (1u << 14) | (1u << 1)));
        return *this;
    }
    // Returns the builtin pointers unchanged (builtin j of n is at [fp - 2 - n + j]).
    Cairo1Body& returnBuiltins(int builtinCount) {
        for (int j = 0; j < builtinCount; ++j) {
            copyFromFp(-2 - builtinCount + j);
        }
        code.ret();
        return *this;
    }

    // An executable of builtins [output] that writes the sum of its two arguments to the output
    // (as `fn main(a: felt252, b: felt252) -> felt252 { a + b }` does, without the Serde
    // checks): WriteRunParam's span, both felts read, the sum stored at [output], output + 1
    // returned.
    static nlohmann::json sumOfTwoArguments() {
        Cairo1Body body;
        body.hint("WriteRunParam", {{"index", imm("0x0")}, {"dst", ap(0)}}).reserve(2);
        // [ap] = [[fp + 0] + 0]; ap++ and [ap] = [[fp + 0] + 1]; ap++
        body.code.word(Asm::encode(0, 0, 0, (1u << 14) | (1u << 11) | (1u << 1)));
        body.code.word(Asm::encode(0, 0, 1, (1u << 14) | (1u << 11) | (1u << 1)));
        // [ap] = [ap - 2] + [ap - 1]; ap++
        body.code.word(Asm::encode(0, -2, -1, (1u << 14) | (1u << 11) | (1u << 5) | (1u << 4)));
        // [ap - 1] = [[fp - 3] + 0]: the sum at the output builtin's first cell
        body.code.word(Asm::encode(-1, -3, 0, (1u << 14) | (1u << 1)));
        // [ap] = [fp - 3] + 1; ap++, then ret
        body.code
            .word(
                Asm::encode(0, -3, 1, (1u << 14) | (1u << 11) | (1u << 5) | (1u << 2) | (1u << 1)))
            .word(1)
            .ret();
        body.depth += 4;
        return body.executable({"output"});
    }

    // An executable that panics with its arguments as the panic data when it has any: the span
    // marked (AddMarker) on an assertion that start == end, as the wrapper marks its panic data
    // on its panic-flag assertion.
    static nlohmann::json panicsWithItsArguments() {
        Cairo1Body body;
        body.hint("WriteRunParam", {{"index", imm("0x0")}, {"dst", ap(0)}})
            .reserve(2)
            .hint("AddMarker", {{"start", deref(fp(0))}, {"end", deref(fp(1))}});
        // [fp + 0] = [fp + 1]
        body.code.word(Asm::encode(0, -1, 1, (1u << 14) | (1u << 3) | (1u << 1) | 1u));
        body.returnBuiltins(1);
        return body.executable({"output"});
    }

    // Scarb's executable.json of this body.
    nlohmann::json executable(const std::vector<std::string>& builtins) const {
        nlohmann::json bytecode = {"0x40780017fff7fff",  std::to_string(builtins.size()),
                                   "0x1104800180018000", "0x4",
                                   "0x10780017fff7fff",  "0x0"};
        for (const std::string& word : code.words) {
            bytecode.push_back(word);
        }
        std::map<std::size_t, nlohmann::json> byPc;
        for (const auto& [pc, hint] : hints) {
            byPc[pc + 6].push_back(hint);
        }
        nlohmann::json hintList = nlohmann::json::array();
        for (const auto& [pc, list] : byPc) {
            hintList.push_back({pc, list});
        }
        return {{"program", {{"bytecode", bytecode}, {"hints", hintList}}},
                {"entrypoints",
                 {{{"builtins", builtins}, {"offset", 0}, {"kind", "Standalone"}},
                  {{"builtins", builtins}, {"offset", 6}, {"kind", "Bootloader"}}}}};
    }
};

} // namespace proofdesk::test
