#pragma once

// A hint test fixture: a program whose references put each named id at fp + k (with a LoopTemps
// and a DictAccess struct and optional constants), memory set up by the test, and registered
// native hints run one after another on one scope stack, as a Cairo function would run them.

#include "cairo/hints/HintProcessor.h"
#include "cairo/python/PythonHints.h"
#include "cairo/vm/Vm.h"
#include "crypto/BigInt.h"

#include <QCoreApplication>
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
    nlohmann::json programJson; // the program's identifiers and references, for programs of ours
    int frameSize = 0;          // cells from fp the names take

    // `types` gives some names a struct type laid out at their cell: "BigInt3" (d0, d1, d2),
    // "BigInt5" (d0..d4), "EcPoint" (x and y, each a BigInt3), "StarkPoint" (felts x, y),
    // "Uint256" (low, high), "Uint256Halves" (b01, b23), "Uint384" (d0..d2), "Uint512"
    // (d0..d3) or "Uint768" (d0..d5); a type ending in '*' (such as "DictAccess*") makes the
    // name's one cell a typed pointer. `bigConstants` are constants written in decimal or hex.
    explicit Fixture(const std::vector<std::string>& names,
                     const std::map<std::string, std::uint64_t>& constants = {},
                     const std::map<std::string, std::string>& types = {},
                     const std::map<std::string, std::string>& bigConstants = {}) {
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
        const auto addFeltStruct = [&json](const std::string& name,
                                           const std::vector<std::string>& members) {
            nlohmann::json fields = nlohmann::json::object();
            for (std::size_t i = 0; i < members.size(); ++i) {
                fields[members[i]] = {{"offset", i}, {"cairo_type", "felt"}};
            }
            json["identifiers"]["__main__." + name] = {
                {"type", "struct"}, {"size", members.size()}, {"members", fields}};
        };
        addFeltStruct("StarkPoint", {"x", "y"});
        addFeltStruct("KeccakState", {"start_ptr", "end_ptr"});
        addFeltStruct("Uint256", {"low", "high"});
        addFeltStruct("Uint256Halves", {"b01", "b23"});
        addFeltStruct("Uint384", {"d0", "d1", "d2"});
        addFeltStruct("Uint512", {"d0", "d1", "d2", "d3"});
        addFeltStruct("Uint768", {"d0", "d1", "d2", "d3", "d4", "d5"});
        for (const auto& [name, value] : constants) {
            json["identifiers"]["__main__." + name] = {{"type", "const"}, {"value", value}};
        }
        for (const auto& [name, value] : bigConstants) {
            json["identifiers"]["__main__." + name] = {{"type", "const"}, {"value", value}};
        }
        int offset = 0;
        for (const std::string& name : names) {
            const auto typed = types.find(name);
            const std::string structType = typed != types.end()   ? typed->second
                                           : name == "loop_temps" ? "LoopTemps"
                                                                  : "";
            const std::string type = structType.empty() ? "felt*" : "__main__." + structType + "*";
            const bool pointer = !structType.empty() && structType.back() == '*';
            const int size = pointer || structType.empty()
                                 ? 1
                                 : json["identifiers"]["__main__." + structType]["size"].get<int>();
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
        programJson = json;
        frameSize = offset;
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
        if (execution == HintExecution::PythonOnly) {
            return pythonScopeValue(name);
        }
        std::any* value = scopes.find(name);
        if (!value || value->type() != typeid(crypto::BigInt)) {
            qWarning("scope variable %s is not a BigInt", name.c_str());
            return crypto::BigInt(-424242);
        }
        return *std::any_cast<crypto::BigInt>(value);
    }
    // NativeOnly runs the registered native hint; PythonOnly runs the same code as Python
    // (suites run once each way, so both paths meet the same expectations).
    static inline HintExecution execution = HintExecution::NativeOnly;
    std::unique_ptr<PythonHintEngine> python;

    // Python keeps its scope variables itself: a hint writes the value's sign and eight 128-bit
    // limbs of its magnitude to a scratch segment, which is read back here.
    crypto::BigInt pythonScopeValue(const std::string& name) {
        const Relocatable scratch = memory.addSegment();
        const Relocatable savedAp = vm->ap;
        vm->ap = scratch;
        run("__value = int(" + name +
            ")\nmemory[ap] = 1 if __value < 0 else 0\nfor __i in range(8):\n"
            "    memory[ap + 1 + __i] = (abs(__value) >> (128 * __i)) % 2**128\n"
            "del __value, __i");
        vm->ap = savedAp;
        crypto::BigInt magnitude(0);
        for (int i = 7; i >= 0; --i) {
            magnitude =
                (magnitude << 128) + crypto::BigInt::fromFelt(memory.get(scratch + (1 + i)).felt());
        }
        return memory.get(scratch).felt() == Felt::one() ? -magnitude : magnitude;
    }

    void run(const std::string& code) {
        HintContext context(*vm, program, spec, scopes, nlohmann::json::object(), builtins);
        if (execution == HintExecution::PythonOnly) {
            if (!python) {
                python = std::make_unique<PythonHintEngine>(nlohmann::json::object(), builtins,
                                                            std::chrono::seconds(20));
            }
            HintSpec pythonSpec = spec;
            pythonSpec.code = code;
            python->run(context, python->compile(pythonSpec, 0), 0);
            return;
        }
        const HintFn* fn = HintRegistry::instance().find(code);
        QVERIFY2(fn, code.c_str());
        (*fn)(context);
    }
};

template <typename Suite> int execSuite(int argc, char** argv) {
    Suite suite;
    return QTest::qExec(&suite, argc, argv);
}

// Runs each suite once with the native hints, then once more with every hint run as its Python
// code (cairo-lang's own hint text through the embedded interpreter and our helper modules), so
// both paths meet the same expectations.
template <typename... Suites> int execWithNativeThenPythonHints(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int failures = 0;
    for (const HintExecution execution : {HintExecution::NativeOnly, HintExecution::PythonOnly}) {
        Fixture::execution = execution;
        failures += (execSuite<Suites>(argc, argv) + ...);
    }
    return failures;
}

} // namespace proofdesk::test
