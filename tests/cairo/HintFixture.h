#pragma once

// A hint test fixture: a program whose references put each named id at fp + k (with a LoopTemps
// and a DictAccess struct and optional constants), memory set up by the test, and registered
// native hints run one after another on one scope stack, as a Cairo function would run them.

#include "cairo/HintProcessor.h"
#include "cairo/Vm.h"
#include "crypto/BigInt.h"

#include <QTest>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace proofdesk::test {

using namespace proofdesk::cairo;

// A program with one fp-based reference per name (fp + offset), a LoopTemps struct and the
// DictAccess struct, so hints can address ids.<name> and ids.loop_temps.<member>.
struct Fixture {
    Program program;
    Memory memory;
    std::unique_ptr<Vm> vm;
    HintSpec spec;
    ExecutionScopes scopes;
    std::vector<std::unique_ptr<BuiltinRunner>> builtins;
    Relocatable frame;
    std::map<std::string, int> offsets;

    // `types` gives some names a struct type laid out at their cell: "BigInt3" (d0, d1, d2),
    // "BigInt5" (d0..d4) or "EcPoint" (x and y, each a BigInt3).
    explicit Fixture(const std::vector<std::string>& names,
                     const std::map<std::string, std::uint64_t>& constants = {},
                     const std::map<std::string, std::string>& types = {}) {
        nlohmann::json json = {
            {"prime", "0x800000000000011000000000000000000000000000000000000000000000001"},
            {"data", {"0x208b7fff7fff7ffe"}},
            {"identifiers",
             {{"__main__.main", {{"type", "function"}, {"pc", 0}}},
              {"__main__.DictAccess",
               {{"type", "struct"},
                {"size", 3},
                {"members",
                 {{"key", {{"offset", 0}, {"cairo_type", "felt"}}},
                  {"prev_value", {{"offset", 1}, {"cairo_type", "felt"}}},
                  {"new_value", {{"offset", 2}, {"cairo_type", "felt"}}}}}}},
              {"__main__.LoopTemps",
               {{"type", "struct"},
                {"size", 4},
                {"members",
                 {{"index_delta_minus1", {{"offset", 0}, {"cairo_type", "felt"}}},
                  {"index_delta", {{"offset", 1}, {"cairo_type", "felt"}}},
                  {"ptr_delta", {{"offset", 2}, {"cairo_type", "felt"}}},
                  {"should_continue", {{"offset", 3}, {"cairo_type", "felt"}}}}}}},
              {"__main__.BigInt3",
               {{"type", "struct"},
                {"size", 3},
                {"members",
                 {{"d0", {{"offset", 0}, {"cairo_type", "felt"}}},
                  {"d1", {{"offset", 1}, {"cairo_type", "felt"}}},
                  {"d2", {{"offset", 2}, {"cairo_type", "felt"}}}}}}},
              {"__main__.BigInt5",
               {{"type", "struct"},
                {"size", 5},
                {"members",
                 {{"d0", {{"offset", 0}, {"cairo_type", "felt"}}},
                  {"d1", {{"offset", 1}, {"cairo_type", "felt"}}},
                  {"d2", {{"offset", 2}, {"cairo_type", "felt"}}},
                  {"d3", {{"offset", 3}, {"cairo_type", "felt"}}},
                  {"d4", {{"offset", 4}, {"cairo_type", "felt"}}}}}}},
              {"__main__.EcPoint",
               {{"type", "struct"},
                {"size", 6},
                {"members",
                 {{"x", {{"offset", 0}, {"cairo_type", "__main__.BigInt3"}}},
                  {"y", {{"offset", 3}, {"cairo_type", "__main__.BigInt3"}}}}}}}}},
            {"reference_manager", {{"references", nlohmann::json::array()}}}};
        for (const auto& [name, value] : constants) {
            json["identifiers"]["__main__." + name] = {{"type", "const"}, {"value", value}};
        }
        int offset = 0;
        for (const std::string& name : names) {
            const auto typed = types.find(name);
            const std::string structType = typed != types.end()   ? typed->second
                                           : name == "loop_temps" ? "LoopTemps"
                                                                  : "";
            const std::string type = structType.empty() ? "felt*" : "__main__." + structType + "*";
            const int size = structType == "LoopTemps" ? 4
                             : structType == "BigInt3" ? 3
                             : structType == "BigInt5" ? 5
                             : structType == "EcPoint" ? 6
                                                       : 1;
            spec.referenceIds["__main__." + name] =
                static_cast<int>(json["reference_manager"]["references"].size());
            json["reference_manager"]["references"].push_back(
                {{"ap_tracking_data", {{"group", 0}, {"offset", 0}}},
                 {"pc", 0},
                 {"value", "[cast(fp + " + std::to_string(offset) + ", " + type + ")]"}});
            offsets[name] = offset;
            offset += size;
        }
        program = Program::fromJson(json);
        spec.accessibleScopes = {"__main__"};
        memory.addSegment();
        frame = memory.addSegment();
        vm = std::make_unique<Vm>(memory, 1);
        vm->fp = frame;
        vm->ap = frame + (offset + 20);
    }
    void set(const std::string& name, const Value& value) {
        memory.set(frame + offsets.at(name), value);
    }
    // A struct member cell by offset (name's cell + member).
    void setAt(const std::string& name, int member, const Value& value) {
        memory.set(frame + (offsets.at(name) + member), value);
    }
    Felt get(const std::string& name, int member = 0) {
        return memory.get(frame + (offsets.at(name) + member)).felt();
    }
    // A scope variable a hint left as a big integer (secp hints).
    crypto::BigInt scopeValue(const std::string& name) {
        std::any* value = scopes.find(name);
        if (!value || value->type() != typeid(crypto::BigInt)) {
            qWarning("scope variable %s is not a BigInt", name.c_str());
            return crypto::BigInt(-424242);
        }
        return *std::any_cast<crypto::BigInt>(value);
    }
    void run(const std::string& code) {
        const HintFn* fn = HintRegistry::instance().find(code);
        QVERIFY2(fn, code.c_str());
        HintContext context(*vm, program, spec, scopes, nlohmann::json::object(), builtins);
        (*fn)(context);
    }
};

} // namespace proofdesk::test
