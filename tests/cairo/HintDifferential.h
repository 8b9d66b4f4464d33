#pragma once

// The harness of the native-vs-Python hint tests (tst_cairo_hint_differential): generated VM
// states, the cases and what a run leaves (memory, scope variables, error), each hint run as a
// fixture call or as a whole program of our own, and cases derived from a hint's text alone.

#include "HintCodeReading.h"
#include "HintFixture.h"
#include "TestPrograms.h"

#include "cairo/Runner.h"

#include <functional>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>

namespace proofdesk::test::differential {

using proofdesk::crypto::BigInt;

#if defined(PROOFDESK_ADDRESS_SANITIZER)
constexpr int kStatesPerHint = 16; // the sanitizer build checks memory safety, not breadth
#else
constexpr int kStatesPerHint = 48;
#endif
constexpr int kProgramStatesPerHint = 8; // the same states, run as whole programs

// How a generated value is drawn.
enum class Draw {
    Felt,    // any field element, edges included
    Limb128, // mostly below 2^128, sometimes an edge
    Limb86,  // mostly below 2^86 (secp BigInt3 limbs), sometimes an edge
    Word32,  // mostly a 32-bit word, sometimes one bit too wide
    Shift,   // a bit index around the felt's width
    Prime,   // an odd prime (for square roots)
    Small,   // 0..63
};

inline BigInt fieldPrime() {
    return BigInt::fromFelt(-Felt::one()) + BigInt(1);
}

class StateGenerator {
public:
    explicit StateGenerator(std::uint64_t seed) : m_random(seed) {}

    BigInt bits(int count) {
        BigInt value;
        for (int done = 0; done < count; done += 32) {
            const int take = std::min(32, count - done);
            value = (value << take) + BigInt(static_cast<std::int64_t>(m_random() >> (64 - take)));
        }
        return value;
    }
    std::uint64_t below(std::uint64_t bound) { return m_random() % bound; }

    BigInt edge() {
        static const std::vector<BigInt> edges = [] {
            const BigInt p = fieldPrime();
            return std::vector<BigInt>{0,
                                       1,
                                       2,
                                       p - BigInt(1),
                                       p - BigInt(2),
                                       (p - BigInt(1)) >> 1,
                                       (p + BigInt(1)) >> 1,
                                       BigInt::powerOfTwo(64),
                                       BigInt::powerOfTwo(86) - BigInt(1),
                                       BigInt::powerOfTwo(127),
                                       BigInt::powerOfTwo(128) - BigInt(1),
                                       BigInt::powerOfTwo(128),
                                       BigInt::powerOfTwo(250),
                                       BigInt::powerOfTwo(251)};
        }();
        return edges[below(edges.size())];
    }

    BigInt draw(Draw kind) {
        const bool useEdge = below(4) == 0;
        switch (kind) {
        case Draw::Felt:
            return useEdge ? edge() : bits(static_cast<int>(64 + below(189))).mod(fieldPrime());
        case Draw::Limb128:
            return useEdge ? edge() : bits(static_cast<int>(1 + below(128)));
        case Draw::Limb86:
            return useEdge ? edge() : bits(static_cast<int>(1 + below(86)));
        case Draw::Word32:
            return below(16) == 0 ? BigInt::powerOfTwo(32) + bits(8) : bits(32);
        case Draw::Shift:
            return BigInt(static_cast<std::int64_t>(below(260)));
        case Draw::Prime: {
            static const std::vector<BigInt> primes = {
                3,
                7,
                13,
                65537,
                BigInt::powerOfTwo(127) - BigInt(1),
                BigInt::powerOfTwo(255) - BigInt(19),
                BigInt::powerOfTwo(256) - BigInt::powerOfTwo(32) - BigInt(977),
                fieldPrime(),
                *BigInt::parse("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241"
                               "eabfffeb153ffffb9feffffffffaaab")};
            return primes[below(primes.size())];
        }
        case Draw::Small:
            return BigInt(static_cast<std::int64_t>(below(64)));
        }
        return {};
    }

private:
    std::mt19937_64 m_random;
};

// One input: ids.<name> (a felt) or every member of a struct, drawn as `kind`; a Prime input of
// a Uint struct is split into its limbs.
struct Input {
    std::string name;
    Draw kind;
};

struct HintCase {
    const char* label = "";
    std::string code;
    std::vector<std::string> names;
    std::map<std::string, std::string> types{};
    std::map<std::string, std::string> constants{};
    std::vector<Input> inputs{};
    std::vector<std::string> scopeOutputs{}; // scope variables both engines must leave equal
    std::vector<std::string> before{};       // hints run first (to set scope variables)
    // Extra memory a hint reads (arrays behind pointers), after the inputs are written.
    std::function<void(Fixture&, StateGenerator&)> setUp{};
    int minSucceeded = kStatesPerHint / 4; // states expected to run without an error
    // Compare only the scope variables the native hint keeps (derived cases: Python keeps every
    // local, the native hints those a later hint reads).
    bool nativeLocalsOnly = false;
};

// The one registered hint text containing every fragment.
inline std::string nativeHint(std::initializer_list<std::string> fragments) {
    std::string found;
    int matches = 0;
    for (const std::string& code : HintRegistry::instance().codes()) {
        bool all = true;
        for (const std::string& fragment : fragments) {
            all = all && code.find(fragment) != std::string::npos;
        }
        if (all) {
            found = code;
            ++matches;
        }
    }
    if (matches != 1) {
        qFatal("%d native hints match %s", matches, fragments.begin()->c_str());
    }
    return found;
}

inline const std::map<std::string, std::vector<std::string>>& structMembers() {
    static const std::map<std::string, std::vector<std::string>> members = {
        {"Uint256", {"low", "high"}},
        {"Uint256Halves", {"b01", "b23"}},
        {"Uint384", {"d0", "d1", "d2"}},
        {"Uint512", {"d0", "d1", "d2", "d3"}},
        {"Uint768", {"d0", "d1", "d2", "d3", "d4", "d5"}},
        {"BigInt3", {"d0", "d1", "d2"}},
        {"StarkPoint", {"x", "y"}},
        {"EcPoint", {"x.d0", "x.d1", "x.d2", "y.d0", "y.d1", "y.d2"}}};
    return members;
}

inline void writeInputs(Fixture& f, const HintCase& hint, StateGenerator& random) {
    for (const Input& input : hint.inputs) {
        const auto type = hint.types.find(input.name);
        if (type == hint.types.end()) {
            f.set(input.name, random.draw(input.kind).toFelt());
            continue;
        }
        const auto& members = structMembers().at(type->second);
        if (input.kind == Draw::Prime) {
            BigInt prime = random.draw(Draw::Prime);
            while (prime.bitLength() > static_cast<int>(128 * members.size())) {
                prime = random.draw(Draw::Prime);
            }
            for (std::size_t i = 0; i < members.size(); ++i) {
                f.setAt(input.name, static_cast<int>(i),
                        (prime >> static_cast<int>(128 * i)).mod(BigInt::powerOfTwo(128)).toFelt());
            }
            continue;
        }
        for (std::size_t i = 0; i < members.size(); ++i) {
            f.setAt(input.name, static_cast<int>(i), random.draw(input.kind).toFelt());
        }
    }
}

// What a run left: its error (if any), every memory cell, and the compared scope variables.
struct Outcome {
    std::optional<std::string> error;
    std::map<std::string, std::string> cells;
    std::map<std::string, std::string> scope;
};

inline std::string describe(const Value& value) {
    return value.isFelt() ? value.felt().toHex() : value.address().toString();
}

// Every written cell outside segment 0 (the program).
inline std::map<std::string, std::string> cellsOf(const Memory& memory) {
    std::map<std::string, std::string> out;
    for (std::size_t segment = 1; segment < memory.segmentCount(); ++segment) {
        const auto& cells = memory.segmentCells(static_cast<std::int64_t>(segment));
        for (std::size_t offset = 0; offset < cells.size(); ++offset) {
            if (cells[offset].isSet()) {
                out[std::to_string(segment) + ":" + std::to_string(offset)] =
                    describe(cells[offset].value());
            }
        }
    }
    return out;
}

// The case as a compiled program of our own, run by the CairoRunner: main reserves the frame,
// writes the state's input cells (`[fp + i] = value`; an array behind a pointer gets a segment
// of its own from the alloc hint and is written cell by cell), runs the hints before its next
// instruction (`ap += 0`), and returns. The hints find their ids through the program's
// reference manager, as in any compiled program.
inline Outcome runAsProgram(const HintCase& hint, HintExecution execution, std::uint64_t seed) {
    Fixture f(hint.names, {}, hint.types, hint.constants);
    StateGenerator random(seed);
    writeInputs(f, hint, random);
    if (hint.setUp) {
        hint.setUp(f, random);
    }
    nlohmann::json referenceIds = nlohmann::json::object();
    for (const auto& [name, id] : f.spec.referenceIds) {
        referenceIds[name] = id;
    }
    nlohmann::json hintsByPc = nlohmann::json::object();
    const auto addHint = [&hintsByPc, &referenceIds](std::size_t pc, const std::string& text) {
        hintsByPc[std::to_string(pc)].push_back(
            {{"code", text},
             {"accessible_scopes", {"__main__", "__main__.main"}},
             {"flow_tracking_data",
              {{"ap_tracking", {{"group", 0}, {"offset", 0}}}, {"reference_ids", referenceIds}}}});
    };
    constexpr std::uint64_t kAssertEq = 1u << 14, kOp0Fp = 1u << 1, kDstFp = 1u, kOp1Imm = 1u << 2,
                            kOp1Ap = 1u << 4, kResAdd = 1u << 5;
    std::map<std::int64_t, int> pointerCells; // array segment -> the frame cell pointing at it
    Asm code;
    code.word(0x40780017fff7fffULL).word(static_cast<std::uint64_t>(f.frameSize + 1)); // ap += n
    const auto& frameCells = f.memory.segmentCells(f.frame.segment);
    for (std::size_t i = 0; i < frameCells.size(); ++i) {
        if (!frameCells[i].isSet()) {
            continue;
        }
        const Value value = frameCells[i].value();
        const int cell = static_cast<int>(i);
        if (value.isFelt()) { // [fp + i] = value
            code.word(Asm::encode(cell, -1, 1, kAssertEq | kOp1Imm | kOp0Fp | kDstFp));
            code.words.push_back(value.felt().toHex());
            continue;
        }
        const Relocatable pointer = value.address();
        const auto base = pointerCells.find(pointer.segment);
        if (base != pointerCells.end()) { // [fp + i] = [fp + k] + offset, into a known array
            code.word(Asm::encode(cell, base->second, 1,
                                  kAssertEq | kResAdd | kOp1Imm | kOp0Fp | kDstFp));
            code.word(pointer.offset);
            continue;
        }
        if (pointer.offset != 0) {
            qFatal("a case's first pointer into an array must point at its start");
        }
        pointerCells[pointer.segment] = cell;
        // [fp + i] = a new segment (the alloc hint writes it at [ap]); ap += 1.
        addHint(code.words.size(), "memory[ap] = segments.add()");
        code.word(Asm::encode(cell, -1, 0, kAssertEq | kOp1Ap | kOp0Fp | kDstFp));
        code.word(0x40780017fff7fffULL).word(1);
        const auto& array = f.memory.segmentCells(value.address().segment);
        for (std::size_t j = 0; j < array.size(); ++j) {
            // [ap] = v; ap++; then [[fp + i] + j] = [ap - 1].
            code.pushImm(0);
            code.words.back() = array[j].value().felt().toHex();
            code.word(Asm::encode(-1, cell, static_cast<int>(j), kAssertEq | kOp0Fp));
        }
    }
    const std::size_t hintPc = code.words.size();
    code.word(0x40780017fff7fffULL).word(0).ret(); // ap += 0; ret
    nlohmann::json program = code.program();
    program["identifiers"] = f.programJson["identifiers"];
    program["reference_manager"] = f.programJson["reference_manager"];
    for (const std::string& text : hint.before) {
        addHint(hintPc, text);
    }
    addHint(hintPc, hint.code);
    program["hints"] = hintsByPc;
    Outcome outcome;
    try {
        const Program parsed = Program::fromJson(program);
        RunOptions options;
        options.hints.execution = execution;
        options.hints.pythonTimeLimit = std::chrono::seconds(20);
        CairoRunner runner(parsed, options);
        runner.run();
        outcome.cells = cellsOf(runner.memory());
    } catch (const std::exception& error) {
        outcome.error = error.what();
    }
    return outcome;
}

inline const std::string kNoInteger = "(no integer)";

// A scope variable as a decimal integer, or kNoInteger when the scope holds none of that name.
inline std::string scopeText(Fixture& f, const std::string& name, HintExecution execution) {
    if (execution == HintExecution::PythonOnly) {
        try {
            return f.pythonScopeValue(name).toDecimal();
        } catch (const std::exception&) {
            return kNoInteger;
        }
    }
    const std::any* value = f.scopes.find(name);
    if (value && value->type() == typeid(BigInt)) {
        return std::any_cast<const BigInt&>(*value).toDecimal();
    }
    if (value && value->type() == typeid(Felt)) {
        return BigInt::fromFelt(std::any_cast<const Felt&>(*value)).toDecimal();
    }
    return kNoInteger;
}

inline Outcome runOnce(const HintCase& hint, HintExecution execution, std::uint64_t seed) {
    Fixture::execution = execution;
    Fixture f(hint.names, {}, hint.types, hint.constants);
    StateGenerator random(seed);
    writeInputs(f, hint, random);
    if (hint.setUp) {
        hint.setUp(f, random);
    }
    Outcome outcome;
    try {
        for (const std::string& code : hint.before) {
            f.run(code);
        }
        f.run(hint.code);
    } catch (const std::exception& error) {
        outcome.error = error.what();
        return outcome;
    }
    outcome.cells = cellsOf(f.memory);
    for (const std::string& name : hint.scopeOutputs) {
        outcome.scope[name] = scopeText(f, name, execution);
    }
    return outcome;
}

inline std::string differences(const Outcome& native, const Outcome& python,
                               bool nativeLocalsOnly = false) {
    if (native.error.has_value() != python.error.has_value()) {
        return "native " + (native.error ? "failed: " + *native.error : std::string("succeeded")) +
               "; python " + (python.error ? "failed: " + *python.error : std::string("succeeded"));
    }
    std::string out;
    const auto compare = [&out](const std::map<std::string, std::string>& a,
                                const std::map<std::string, std::string>& b, const char* what) {
        std::set<std::string> keys;
        for (const auto& [key, _] : a) {
            keys.insert(key);
        }
        for (const auto& [key, _] : b) {
            keys.insert(key);
        }
        for (const std::string& key : keys) {
            const auto x = a.find(key);
            const auto y = b.find(key);
            const std::string nativeValue = x == a.end() ? "(unset)" : x->second;
            const std::string pythonValue = y == b.end() ? "(unset)" : y->second;
            if (nativeValue != pythonValue) {
                out += std::string(what) + " " + key + ": native " + nativeValue + ", python " +
                       pythonValue + "\n";
            }
        }
    };
    compare(native.cells, python.cells, "cell");
    std::map<std::string, std::string> pythonScope = python.scope;
    if (nativeLocalsOnly) {
        std::erase_if(pythonScope, [&native](const auto& entry) {
            const auto kept = native.scope.find(entry.first);
            return kept == native.scope.end() || kept->second == kNoInteger;
        });
        std::map<std::string, std::string> nativeScope;
        for (const auto& [name, value] : native.scope) {
            if (value != kNoInteger) {
                nativeScope[name] = value;
            }
        }
        compare(nativeScope, pythonScope, "scope");
        return out;
    }
    compare(native.scope, pythonScope, "scope");
    return out;
}

// --- The sweep: cases derived from a hint's text alone ---
//
// Hints whose ids are felts or plain structs of felts (read as ids.<name>.<member>), whose
// constants are known, and which touch no other memory, segment, scope or builtin state, get a
// case generated from their text: every ids name becomes an input and an output cell.

inline const std::map<std::string, std::string>& knownConstants() {
    static const std::map<std::string, std::string> constants = {
        {"SHIFT", BigInt::powerOfTwo(128).toDecimal()},
        {"BASE", BigInt::powerOfTwo(86).toDecimal()},
        {"BETA", "7"},
        {"ALPHA", "0"},
        {"MAX_HIGH", ((fieldPrime() - BigInt(1)) >> 128).toDecimal()},
        {"MAX_LOW", "0"},
        {"ADDR_BOUND", (BigInt::powerOfTwo(251) - BigInt(256)).toDecimal()}};
    return constants;
}

// The struct type a set of members names, or "" when none fits.
inline std::string structFor(const std::set<std::string>& members) {
    const auto within = [&members](std::initializer_list<const char*> allowed) {
        for (const std::string& member : members) {
            if (std::find_if(allowed.begin(), allowed.end(), [&member](const char* name) {
                    return member == name;
                }) == allowed.end()) {
                return false;
            }
        }
        return true;
    };
    if (within({"low", "high"})) {
        return "Uint256";
    }
    if (within({"b01", "b23"})) {
        return "Uint256Halves";
    }
    if (within({"d0", "d1", "d2"})) {
        return "BigInt3";
    }
    if (within({"d0", "d1", "d2", "d3"})) {
        return "Uint512";
    }
    if (within({"d0", "d1", "d2", "d3", "d4"})) {
        return "BigInt5";
    }
    if (within({"d0", "d1", "d2", "d3", "d4", "d5"})) {
        return "Uint768";
    }
    if (within({"x", "y"})) {
        return "StarkPoint";
    }
    return "";
}

inline std::optional<HintCase> derivedCase(const std::string& code) {
    if (isUntouchable(code)) {
        return std::nullopt;
    }
    HintCase hint;
    hint.code = code;
    std::map<std::string, std::set<std::string>> members;
    static const std::regex idsPath(
        R"(ids\.([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*))");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), idsPath);
         it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        const std::string rest = (*it)[2];
        if (std::all_of(name.begin(), name.end(), [](char c) {
                return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(c) || c == '_';
            })) {
            const auto known = knownConstants().find(name);
            if (known == knownConstants().end()) {
                return std::nullopt;
            }
            hint.constants[name] = known->second;
            continue;
        }
        auto& set = members[name];
        if (!rest.empty()) {
            const std::string member = rest.substr(1);
            if (member.find('.') != std::string::npos) {
                // x.d0 / y.d0: an EcPoint of BigInt3s.
                if (member.rfind("x.", 0) == 0 || member.rfind("y.", 0) == 0) {
                    set.insert("ec:" + member);
                    continue;
                }
                return std::nullopt;
            }
            set.insert(member);
        }
    }
    if (members.empty()) {
        return std::nullopt;
    }
    const std::set<std::string> outputs = assignedIdsNames(code);
    const std::set<std::string> packed = packedNames(code);
    hint.scopeOutputs = localsOf(code);
    hint.nativeLocalsOnly = true;
    const bool importsOrSetsP = code.find("import SECP_P") != std::string::npos ||
                                code.find("SECP_P = ") != std::string::npos ||
                                code.find("import SECP256R1_P as SECP_P") != std::string::npos;
    if (code.find("SECP_P") != std::string::npos && !importsOrSetsP) {
        hint.before.push_back(
            "from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_P as SECP_P");
    }
    for (const auto& [name, set] : members) {
        hint.names.push_back(name);
        if (packed.count(name)) {
            hint.types[name] = set.empty() ? "BigInt3" : "EcPoint";
            hint.inputs.push_back({name, Draw::Limb86});
            continue;
        }
        if (outputs.count(name)) {
            const std::string type = set.empty() ? "" : structFor(set);
            if (!type.empty()) {
                hint.types[name] = type;
            }
            continue;
        }
        if (set.empty()) {
            hint.inputs.push_back({name, Draw::Felt});
            continue;
        }
        const bool ec = std::any_of(set.begin(), set.end(),
                                    [](const std::string& m) { return m.rfind("ec:", 0) == 0; });
        const std::string type = ec ? "EcPoint" : structFor(set);
        if (type.empty()) {
            return std::nullopt;
        }
        hint.types[name] = type;
        const bool limbs86 = type == "BigInt3" || type == "BigInt5" || type == "EcPoint";
        hint.inputs.push_back({name, limbs86 ? Draw::Limb86 : Draw::Limb128});
    }
    hint.minSucceeded = 0;
    return hint;
}

} // namespace proofdesk::test::differential
