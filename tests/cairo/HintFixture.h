#pragma once

// A hint test fixture: a program whose references put each named id at fp + k (with a LoopTemps
// and a DictAccess struct and optional constants), memory set up by the test, and registered
// native hints run one after another on one scope stack, as a Cairo function would run them.

#include "cairo/HintProcessor.h"
#include "cairo/Vm.h"

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

    explicit Fixture(const std::vector<std::string>& names,
                     const std::map<std::string, std::uint64_t>& constants = {}) {
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
                  {"should_continue", {{"offset", 3}, {"cairo_type", "felt"}}}}}}}}},
            {"reference_manager", {{"references", nlohmann::json::array()}}}};
        for (const auto& [name, value] : constants) {
            json["identifiers"]["__main__." + name] = {{"type", "const"}, {"value", value}};
        }
        int offset = 0;
        for (const std::string& name : names) {
            const std::string type = name == "loop_temps" ? "__main__.LoopTemps*" : "felt*";
            spec.referenceIds["__main__." + name] =
                static_cast<int>(json["reference_manager"]["references"].size());
            json["reference_manager"]["references"].push_back(
                {{"ap_tracking_data", {{"group", 0}, {"offset", 0}}},
                 {"pc", 0},
                 {"value", "[cast(fp + " + std::to_string(offset) + ", " + type + ")]"}});
            offsets[name] = offset;
            offset += name == "loop_temps" ? 4 : 1;
        }
        program = Program::fromJson(json);
        spec.accessibleScopes = {"__main__"};
        memory.addSegment();
        frame = memory.addSegment();
        vm = std::make_unique<Vm>(memory, 1);
        vm->fp = frame;
        vm->ap = frame + 20;
    }
    void set(const std::string& name, const Value& value) {
        memory.set(frame + offsets.at(name), value);
    }
    Felt get(const std::string& name, int member = 0) {
        return memory.get(frame + (offsets.at(name) + member)).felt();
    }
    void run(const std::string& code) {
        const HintFn* fn = HintRegistry::instance().find(code);
        QVERIFY2(fn, code.c_str());
        HintContext context(*vm, program, spec, scopes, nlohmann::json::object(), builtins);
        (*fn)(context);
    }
};

} // namespace proofdesk::test
