// Differential testing of native hints against the Python engine: each hint text runs natively
// and as Python (cairo-lang's own text through the embedded interpreter and our starkware.*
// helper modules) on the same generated VM states, and the two must agree exactly: the same
// memory afterwards, the same scope variables, and an error in one exactly when the other fails.
//
// States mix random values with the edges where big-integer code goes wrong: 0, 1, p - 1,
// (p ± 1) / 2, 2^64, 2^127, 2^128 - 1, 2^128, 2^250, 2^251, values that read as negative.

#include "HintFixture.h"
#include "TestPrograms.h"

#include "cairo/Runner.h"

#include <functional>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>

using namespace proofdesk::cairo;
using namespace proofdesk::test;
using proofdesk::crypto::BigInt;

namespace {

#if defined(__SANITIZE_ADDRESS__)
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

BigInt fieldPrime() {
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
std::string nativeHint(std::initializer_list<std::string> fragments) {
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

const std::map<std::string, std::vector<std::string>>& structMembers() {
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

void writeInputs(Fixture& f, const HintCase& hint, StateGenerator& random) {
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

std::string describe(const Value& value) {
    return value.isFelt() ? value.felt().toHex() : value.address().toString();
}

// Every written cell outside segment 0 (the program).
std::map<std::string, std::string> cellsOf(const Memory& memory) {
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
Outcome runAsProgram(const HintCase& hint, HintExecution execution, std::uint64_t seed) {
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

const std::string kNoInteger = "(no integer)";

// A scope variable as a decimal integer, or kNoInteger when the scope holds none of that name.
std::string scopeText(Fixture& f, const std::string& name, HintExecution execution) {
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

Outcome runOnce(const HintCase& hint, HintExecution execution, std::uint64_t seed) {
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

std::string differences(const Outcome& native, const Outcome& python,
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

const std::map<std::string, std::string>& knownConstants() {
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
std::string structFor(const std::set<std::string>& members) {
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

std::optional<HintCase> derivedCase(const std::string& code) {
    static const char* const untouchable[] = {
        "segments", "memory.",       "memory[ids",   "memory[fp",  "vm_",
        "dict",     "keccak",        "sha256",       "blake2s",    "program_input",
        "syscall",  "task",          "builtin",      "positions",  "current_pos",
        "last_pos", "get_range",     "fact_topolog", "address_",   "globals()",
        "__",       "output_ptr",    "print(",       "bootloader", "simple_bootloader",
        "pie",      "packed_values", "data_ptr",     "n_words",    "import itertools"};
    for (const char* word : untouchable) {
        if (code.find(word) != std::string::npos) {
            return std::nullopt;
        }
    }
    if (code.find("memory[") != std::string::npos && code.find("memory[ap]") == std::string::npos) {
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
    // Names assigned to (left of a lone '=') are outputs: the hint writes them.
    std::set<std::string> outputs;
    static const std::regex assignment(R"(^\s*([^=#]*[^=!<>])=[^=])");
    static const std::regex idsName(R"(ids\.([A-Za-z_][A-Za-z0-9_]*))");
    std::istringstream lines(code);
    for (std::string line; std::getline(lines, line);) {
        std::smatch match;
        if (std::regex_search(line, match, assignment)) {
            const std::string target = match[1];
            for (auto it = std::sregex_iterator(target.begin(), target.end(), idsName);
                 it != std::sregex_iterator(); ++it) {
                outputs.insert((*it)[1]);
            }
        }
    }
    // Names packed as secp BigInt3s (pack(ids.x, PRIME)) or EcPoints (pack(ids.p.x, PRIME)).
    std::set<std::string> packed;
    static const std::regex packedName(R"(pack\(ids\.([A-Za-z_][A-Za-z0-9_]*))");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), packedName);
         it != std::sregex_iterator(); ++it) {
        packed.insert((*it)[1]);
    }
    // The hint's own locals (value, slope, q, r, ...), compared where the native hint keeps them.
    static const std::regex localTargets(R"(^((?:\s*[A-Za-z_][A-Za-z0-9_]*\s*[,=])+)[^=])");
    static const std::regex localName(R"([A-Za-z_][A-Za-z0-9_]*)");
    std::istringstream localLines(code);
    for (std::string line; std::getline(localLines, line);) {
        std::smatch match;
        if (line.rfind("ids.", 0) != 0 && std::regex_search(line, match, localTargets)) {
            const std::string targets = match[1];
            for (auto it = std::sregex_iterator(targets.begin(), targets.end(), localName);
                 it != std::sregex_iterator(); ++it) {
                hint.scopeOutputs.push_back((*it)[0]);
            }
        }
    }
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

std::vector<HintCase> cases();

} // namespace

class CairoHintDifferentialTest : public QObject {
    Q_OBJECT

private slots:
    void nativeAndPythonAgree_data() {
        QTest::addColumn<int>("index");
        const auto all = cases();
        for (std::size_t i = 0; i < all.size(); ++i) {
            QTest::newRow(all[i].label) << static_cast<int>(i);
        }
    }

    void nativeAndPythonAgree() {
        QFETCH(int, index);
        const HintCase hint = cases()[static_cast<std::size_t>(index)];
        QVERIFY2(HintProcessor::hasNativeImplementation(hint.code), "the hint is not native");
        int succeeded = 0;
        QCOMPARE(disagreements(hint, static_cast<std::uint64_t>(index + 1), &succeeded), 0);
        // Generated states that always fail would test nothing but the error path.
        QVERIFY2(succeeded >= hint.minSucceeded,
                 qPrintable(QStringLiteral("only %1 states ran without an error").arg(succeeded)));
    }

    // Each case as a program of our own run end to end by the runner, natively (cairoVm=rust)
    // and with every hint as Python: the same memory, or an error in both.
    void casesRunAsProgramsAgree_data() { nativeAndPythonAgree_data(); }
    void casesRunAsProgramsAgree() {
        QFETCH(int, index);
        const HintCase hint = cases()[static_cast<std::size_t>(index)];
        int succeeded = 0;
        int failures = 0;
        for (int state = 0; state < kProgramStatesPerHint; ++state) {
            const std::uint64_t seed = 1000003ULL * static_cast<std::uint64_t>(index + 1) +
                                       static_cast<std::uint64_t>(state);
            const Outcome native = runAsProgram(hint, HintExecution::NativeOnly, seed);
            const Outcome python = runAsProgram(hint, HintExecution::PythonOnly, seed);
            const std::string diff = differences(native, python);
            if (!diff.empty()) {
                ++failures;
                qWarning("state %d (seed %llu) differs:\n%s", state,
                         static_cast<unsigned long long>(seed), diff.c_str());
            }
            succeeded += native.error ? 0 : 1;
        }
        QCOMPARE(failures, 0);
        QVERIFY2(hint.minSucceeded == 0 || succeeded > 0, "no state ran to the end");
    }

    // Every native hint simple enough to derive its states from its text alone.
    void derivedCasesAgree() {
        int swept = 0;
        int exercised = 0; // hints with at least one state that ran without an error
        int failures = 0;
        std::set<std::string> exercisedCodes;
        std::uint64_t salt = 7777;
        for (const std::string& code : HintRegistry::instance().codes()) {
            const auto hint = derivedCase(code);
            if (!hint) {
                continue;
            }
            ++swept;
            int succeeded = 0;
            const int differing = disagreements(*hint, ++salt, &succeeded);
            if (differing) {
                ++failures;
                qWarning("derived case disagrees in %d states:\n%s", differing, code.c_str());
            }
            exercised += succeeded > 0 ? 1 : 0;
            if (succeeded > 0) {
                exercisedCodes.insert(code);
            }
            if (succeeded == 0 && qEnvironmentVariableIsSet("PROOFDESK_SWEEP_DEBUG")) {
                const Outcome outcome = runOnce(*hint, HintExecution::NativeOnly, 1);
                qInfo("never ran to the end (%s):\n%s", outcome.error.value_or("").c_str(),
                      code.c_str());
            }
        }
        std::set<std::string> covered = exercisedCodes;
        for (const HintCase& hint : cases()) {
            covered.insert(hint.code);
            covered.insert(hint.before.begin(), hint.before.end());
        }
        qInfo("derived cases: %d hints swept, %d of them with states that ran to the end; with the "
              "hand-written cases, %zu of the %zu native hint texts are checked against Python",
              swept, exercised, covered.size(), HintRegistry::instance().codes().size());
        if (qEnvironmentVariableIsSet("PROOFDESK_SWEEP_DEBUG")) {
            for (const std::string& code : HintRegistry::instance().codes()) {
                if (!covered.count(code)) {
                    qInfo("not in a differential case:\n%s\n", code.c_str());
                }
            }
        }
        QCOMPARE(failures, 0);
        QVERIFY(exercised >= 70);
    }

private:
    static int disagreements(const HintCase& hint, std::uint64_t salt, int* succeeded) {
        int failures = 0;
        for (int state = 0; state < kStatesPerHint; ++state) {
            const std::uint64_t seed = 1000003ULL * salt + static_cast<std::uint64_t>(state);
            const Outcome native = runOnce(hint, HintExecution::NativeOnly, seed);
            const Outcome python = runOnce(hint, HintExecution::PythonOnly, seed);
            const std::string diff = differences(native, python, hint.nativeLocalsOnly);
            if (!diff.empty()) {
                ++failures;
                qWarning("%s: state %d (seed %llu) differs:\n%s", hint.label, state,
                         static_cast<unsigned long long>(seed), diff.c_str());
            }
            *succeeded += native.error ? 0 : 1;
        }
        return failures;
    }
};

namespace {

std::vector<HintCase> cases() {
    const std::string shift = BigInt::powerOfTwo(128).toDecimal();
    // A pointer to `count` drawn values in a new segment (count may exceed what is written).
    const auto array = [](Fixture& f, StateGenerator& random, const std::string& name,
                          std::uint64_t count, Draw kind) {
        const Relocatable start = f.memory.addSegment();
        for (std::uint64_t i = 0; i < count; ++i) {
            f.memory.set(start + static_cast<std::int64_t>(i), random.draw(kind).toFelt());
        }
        f.set(name, start);
    };
    std::vector<HintCase> all = {
        // --- wide unsigned integers ---
        {"uint256_mul_div_mod",
         nativeHint({"quotient_high.high = quotient >> 384"}),
         {"a", "b", "div", "quotient_low", "quotient_high", "remainder"},
         {{"a", "Uint256"},
          {"b", "Uint256"},
          {"div", "Uint256"},
          {"quotient_low", "Uint256"},
          {"quotient_high", "Uint256"},
          {"remainder", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint256 div by (b01, b23)",
         nativeHint({"div = (ids.div.b23 << 128) + ids.div.b01"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint256"},
          {"div", "Uint256Halves"},
          {"quotient", "Uint256"},
          {"remainder", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint256_unsigned_div_rem",
         nativeHint(
             {"div = (ids.div.high << 128) + ids.div.low\nquotient, remainder = divmod(a, div)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint256"}, {"div", "Uint256"}, {"quotient", "Uint256"}, {"remainder", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint256 sub",
         nativeHint({"res = (a - b)%2**256"}),
         {"a", "b", "res"},
         {{"a", "Uint256"}, {"b", "Uint256"}, {"res", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}}},
        {"uint256 add carries",
         nativeHint({"sum_high = ids.a.high + ids.b.high + ids.carry_low"}),
         {"a", "b", "carry_low", "carry_high"},
         {{"a", "Uint256"}, {"b", "Uint256"}},
         {{"SHIFT", shift}},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}}},
        {"felt add carry",
         nativeHint({"res = ids.a + ids.b\nids.carry = 1 if res >= ids.SHIFT else 0"}),
         {"a", "b", "carry"},
         {},
         {{"SHIFT", shift}},
         {{"a", Draw::Felt}, {"b", Draw::Felt}}},
        {"uint256 sqrt",
         nativeHint({"n = (ids.n.high << 128) + ids.n.low", "ids.root.low = root"}),
         {"n", "root"},
         {{"n", "Uint256"}, {"root", "Uint256"}},
         {},
         {{"n", Draw::Limb128}}},
        {"uint256 high limb below 2^127",
         nativeHint({"memory[ap] = 1 if 0 <= (ids.a.high % PRIME) < 2 ** 127 else 0"}),
         {"a"},
         {{"a", "Uint256"}},
         {},
         {{"a", Draw::Felt}}},
        {"uint256 inverse mod p",
         nativeHint({"b_inverse_mod_p_split = split(b_inverse_mod_p)\n"}),
         {"a", "b", "p", "b_inverse_mod_p"},
         {{"a", "Uint256"}, {"b", "Uint256"}, {"p", "Uint256"}, {"b_inverse_mod_p", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint256 sqrt or generator sqrt",
         nativeHint({"ids.sqrt_gx.high = split_root_gx[1]"}),
         {"generator", "x", "p", "sqrt_x", "sqrt_gx", "success_x", "success_gx"},
         {{"generator", "Uint256"},
          {"x", "Uint256"},
          {"p", "Uint256"},
          {"sqrt_x", "Uint256"},
          {"sqrt_gx", "Uint256"}},
         {},
         {{"generator", Draw::Limb128}, {"x", Draw::Limb128}, {"p", Draw::Prime}},
         {},
         {},
         {},
         kStatesPerHint / 8},
        {"ed25519 sqrt of a uint256",
         nativeHint({"II = pow(2, (PRIME - 1) // 4, PRIME)"}),
         {"xx", "x"},
         {{"xx", "Uint256"}, {"x", "Uint256"}},
         {},
         {{"xx", Draw::Limb128}}},
        {"uint512 inverse mod p",
         nativeHint({"x_inverse_mod_p = pow(x,-1, p)"}),
         {"x", "p", "x_inverse_mod_p"},
         {{"x", "Uint512"}, {"p", "Uint256"}, {"x_inverse_mod_p", "Uint256"}},
         {},
         {{"x", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint512 div by uint256",
         nativeHint({"x = pack_extended(ids.x, num_bits_shift = 128)"}),
         {"x", "div", "quotient", "remainder"},
         {{"x", "Uint512"}, {"div", "Uint256"}, {"quotient", "Uint512"}, {"remainder", "Uint256"}},
         {},
         {{"x", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint384 sub mod p",
         nativeHint({"res = (a - b) % p"}),
         {"a", "b", "p", "res"},
         {{"a", "Uint384"}, {"b", "Uint384"}, {"p", "Uint384"}, {"res", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint384 unsigned_div_rem",
         nativeHint({"quotient_split = split(quotient, num_bits_shift=128, length=3)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint384"}, {"div", "Uint384"}, {"quotient", "Uint384"}, {"remainder", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint768 div by uint384",
         nativeHint({"pack_extended(ids.a", "num_bits_shift\n    return tuple(a)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint768"}, {"div", "Uint384"}, {"quotient", "Uint768"}, {"remainder", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint768 div by uint384 (spaced text)",
         nativeHint({"pack_extended(ids.a", "num_bits_shift \n    return tuple(a)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint768"}, {"div", "Uint384"}, {"quotient", "Uint768"}, {"remainder", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint384 inverse mod p",
         nativeHint({"ids.b_inverse_mod_p.d2 = b_inverse_mod_p_split[2]"}),
         {"a", "b", "p", "b_inverse_mod_p"},
         {{"a", "Uint384"}, {"b", "Uint384"}, {"p", "Uint384"}, {"b_inverse_mod_p", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint384 sqrt or generator sqrt",
         nativeHint({"ids.sqrt_gx.d2 = split_root_gx[2]"}),
         {"generator", "x", "p", "sqrt_x", "sqrt_gx", "success_x", "success_gx"},
         {{"generator", "Uint384"},
          {"x", "Uint384"},
          {"p", "Uint384"},
          {"sqrt_x", "Uint384"},
          {"sqrt_gx", "Uint384"}},
         {},
         {{"generator", Draw::Limb128}, {"x", Draw::Limb128}, {"p", Draw::Prime}},
         {},
         {},
         {},
         kStatesPerHint / 8},
        {"uint384 isqrt",
         nativeHint({"root = isqrt(a)\nassert 0 <= root < 2 ** 192"}),
         {"a", "root"},
         {{"a", "Uint384"}, {"root", "Uint384"}},
         {},
         {{"a", Draw::Limb128}}},
        {"uint384 add carries",
         nativeHint({"sum_d2 = ids.a.d2 + ids.b.d2 + ids.carry_d1"}),
         {"a", "b", "carry_d0", "carry_d1", "carry_d2"},
         {{"a", "Uint384"}, {"b", "Uint384"}},
         {{"SHIFT", shift}},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}}},
        {"uint384 top limb below 2^127",
         nativeHint({"memory[ap] = 1 if 0 <= (ids.a.d2 % PRIME) < 2 ** 127 else 0"}),
         {"a"},
         {{"a", "Uint384"}},
         {},
         {{"a", Draw::Felt}}},
        // --- felts ---
        {"split 128",
         nativeHint({"ids.low = ids.a & ((1<<128) - 1)\nids.high = ids.a >> 128"}),
         {"a", "low", "high"},
         {},
         {},
         {{"a", Draw::Felt}}},
        {"split_64",
         nativeHint({"ids.low = ids.a & ((1<<64) - 1)\nids.high = ids.a >> 64"}),
         {"a", "low", "high"},
         {},
         {},
         {{"a", Draw::Felt}}},
        {"normalize_address",
         nativeHint({"ids.is_small = 1 if ids.addr < ADDR_BOUND else 0"}),
         {"addr", "is_small"},
         {},
         {{"ADDR_BOUND", (BigInt::powerOfTwo(251) - BigInt(256)).toDecimal()}},
         {{"addr", Draw::Felt}}},
        {"normalize_address with a bad bound",
         nativeHint({"ids.is_small = 1 if ids.addr < ADDR_BOUND else 0"}),
         {"addr", "is_small"},
         {},
         {{"ADDR_BOUND", BigInt::powerOfTwo(249).toDecimal()}},
         {{"addr", Draw::Felt}},
         {},
         {},
         {},
         0},
        // --- elliptic curves ---
        {"scalar lowest bits",
         nativeHint({"ids.a_lsb = ids.a & 1"}),
         {"a", "b", "a_lsb", "b_lsb"},
         {},
         {},
         {{"a", Draw::Felt}, {"b", Draw::Felt}}},
        {"dibit",
         nativeHint({"ids.dibit = ((ids.scalar_u >> ids.m) & 1)"}),
         {"scalar_u", "scalar_v", "m", "dibit"},
         {},
         {},
         {{"scalar_u", Draw::Felt}, {"scalar_v", Draw::Felt}, {"m", Draw::Shift}}},
        {"quad_bit",
         nativeHint({"ids.quad_bit = ("}),
         {"scalar_u", "scalar_v", "m", "quad_bit"},
         {},
         {},
         {{"scalar_u", Draw::Felt}, {"scalar_v", Draw::Felt}, {"m", Draw::Shift}}},
        {"len_hi",
         nativeHint({"ids.len_hi = max("}),
         {"scalar_u", "scalar_v", "len_hi"},
         {{"scalar_u", "BigInt3"}, {"scalar_v", "BigInt3"}},
         {},
         {{"scalar_u", Draw::Limb86}, {"scalar_v", Draw::Limb86}}},
        {"y from x or x / 3",
         nativeHint({"sqrt(div_mod(x, 3, FIELD_PRIME), FIELD_PRIME)"}),
         {"x", "y"},
         {},
         {},
         {{"x", Draw::Felt}}},
        {"ec_op random point",
         nativeHint({"ids.m, ids.q.x, ids.q.y]"}),
         {"p", "m", "q", "s"},
         {{"p", "StarkPoint"}, {"q", "StarkPoint"}, {"s", "StarkPoint"}},
         {},
         {{"p", Draw::Felt}, {"m", Draw::Felt}, {"q", Draw::Felt}}},
        {"chained_ec_op random point",
         nativeHint({"chained_ec_op() can only be used"}),
         {"p", "m", "q", "len", "s"},
         {{"p", "StarkPoint"}, {"q", "StarkPoint*"}, {"s", "StarkPoint"}},
         {},
         {{"p", Draw::Felt}},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             const std::uint64_t length = random.below(5);
             // Now and then the arrays are one cell short: both engines must fail.
             const std::uint64_t missing = random.below(8) == 0 ? 1 : 0;
             f.set("len", Felt::fromU64(length));
             array(f, random, "m", length, Draw::Felt);
             array(f, random, "q", 2 * length - (length ? missing : 0), Draw::Felt);
         }},
        // --- secp ---
        {"secp new_x with SECP_P from the scope",
         nativeHint({"import pack\n\nslope = pack(ids.slope, PRIME)\nx0 = pack(ids.point0.x"}),
         {"slope", "point0", "point1"},
         {{"slope", "BigInt3"}, {"point0", "EcPoint"}, {"point1", "EcPoint"}},
         {},
         {{"slope", Draw::Limb86}, {"point0", Draw::Limb86}, {"point1", Draw::Limb86}},
         {"slope", "x0", "x1", "y0", "new_x", "value"},
         {"from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_P as SECP_P"}},
        {"secp new_y after new_x",
         "value = new_y = (slope * (x0 - new_x) - y0) % SECP_P",
         {"slope", "point0", "point1"},
         {{"slope", "BigInt3"}, {"point0", "EcPoint"}, {"point1", "EcPoint"}},
         {},
         {{"slope", Draw::Limb86}, {"point0", Draw::Limb86}, {"point1", Draw::Limb86}},
         {"new_y", "value"},
         {nativeHint({"import SECP_P, pack\n\nslope = pack(ids.slope, PRIME)\nx0 = "
                      "pack(ids.point0.x"})}},
        {"ec_recover div_mod N",
         nativeHint({"N = pack(ids.n, PRIME)"}),
         {"n", "x", "s"},
         {{"n", "BigInt3"}, {"x", "BigInt3"}, {"s", "BigInt3"}},
         {},
         {{"n", Draw::Limb86}, {"x", Draw::Limb86}, {"s", Draw::Limb86}},
         {"N", "x", "s", "res", "value"}},
        {"ec_recover a - b",
         nativeHint({"value = res = a - b"}),
         {"a", "b"},
         {{"a", "BigInt3"}, {"b", "BigInt3"}},
         {},
         {{"a", Draw::Limb86}, {"b", Draw::Limb86}},
         {"a", "b", "res", "value"}},
        {"ec_recover product mod m",
         nativeHint({"value = res = product % m"}),
         {"a", "b", "m"},
         {{"a", "BigInt3"}, {"b", "BigInt3"}, {"m", "BigInt3"}},
         {},
         {{"a", Draw::Limb86}, {"b", Draw::Limb86}, {"m", Draw::Limb86}},
         {"a", "b", "product", "m", "res", "value"}},
        {"ec_recover product // m",
         "value = k = product // m",
         {"a", "b", "m"},
         {{"a", "BigInt3"}, {"b", "BigInt3"}, {"m", "BigInt3"}},
         {},
         {{"a", Draw::Limb86}, {"b", Draw::Limb86}, {"m", Draw::Limb86}},
         {"k", "value"},
         {nativeHint({"value = res = product % m"})}},
        // --- arrays: find_element, search_sorted_lower, set_add ---
        {"find_element",
         nativeHint({"raise ValueError(f'Key {key} was not found.')"}),
         {"array_ptr", "elm_size", "n_elms", "key", "index"},
         {},
         {},
         {},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             // Small keys, so the key is often there; sometimes n_elms runs past the array.
             const std::uint64_t size = 1 + random.below(3);
             const std::uint64_t count = random.below(6);
             f.set("elm_size", Felt::fromU64(size));
             f.set("n_elms", Felt::fromU64(count + (random.below(8) == 0 ? 1 : 0)));
             array(f, random, "array_ptr", size * count, Draw::Small);
             // Mostly a key the array holds (as a Cairo caller would ask), sometimes not.
             const Relocatable start = f.memory.get(f.frame + f.offsets.at("array_ptr")).address();
             f.set("key",
                   count > 0 && random.below(4) != 0
                       ? f.memory.get(start + static_cast<std::int64_t>(size * random.below(count)))
                       : random.draw(Draw::Small).toFelt());
         }},
        {"search_sorted_lower",
         nativeHint({"if memory[array_ptr + elm_size * i] >= ids.key:"}),
         {"array_ptr", "elm_size", "n_elms", "key", "index"},
         {},
         {},
         {},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             const std::uint64_t size = 1 + random.below(3);
             const std::uint64_t count = random.below(6);
             f.set("elm_size", Felt::fromU64(size));
             f.set("n_elms", Felt::fromU64(count));
             f.set("key", random.draw(Draw::Small).toFelt());
             array(f, random, "array_ptr", size * count, Draw::Small);
         }},
        {"set_add",
         nativeHint({"if memory.get_range(ids.set_ptr + i, ids.elm_size) == elm_list:"}),
         {"elm_size", "elm_ptr", "set_ptr", "set_end_ptr", "index", "is_elm_in_set"},
         {},
         {},
         {},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             const std::uint64_t size = 1 + random.below(2);
             const std::uint64_t count = random.below(5);
             f.set("elm_size", Felt::fromU64(size));
             array(f, random, "elm_ptr", size, Draw::Small);
             array(f, random, "set_ptr", size * count, Draw::Small);
             f.set("set_end_ptr", f.memory.get(f.frame + f.offsets.at("set_ptr")).address() +
                                      static_cast<std::int64_t>(size * count));
         }},
        {"usort",
         nativeHint({"positions_dict = defaultdict(list)"}),
         {"input", "input_len", "output", "output_len", "multiplicities"},
         {},
         {},
         {},
         {},
         {"vm_enter_scope(dict(__usort_max_size = globals().get('__usort_max_size')))"},
         [array](Fixture& f, StateGenerator& random) {
             const std::uint64_t count = random.below(9);
             f.set("input_len", Felt::fromU64(count));
             array(f, random, "input", count, random.below(2) ? Draw::Small : Draw::Felt);
         }},
        // --- sha256 ---
        {"sha256 compression from the IV",
         nativeHint({"new_state = sha2_compress_function(IV, w)"}),
         {"sha256_start", "output"},
         {},
         {{"SHA256_INPUT_CHUNK_SIZE_FELTS", "16"}},
         {},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             array(f, random, "sha256_start", 16, Draw::Word32);
             array(f, random, "output", 0, Draw::Word32);
         },
         kStatesPerHint / 8},
        {"sha256 compression from a state",
         nativeHint({"sha2_compress_function(memory.get_range(ids.state"}),
         {"sha256_start", "state", "output"},
         {},
         {{"SHA256_INPUT_CHUNK_SIZE_FELTS", "16"}, {"SHA256_STATE_SIZE_FELTS", "8"}},
         {},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             array(f, random, "sha256_start", 16, Draw::Word32);
             array(f, random, "state", 8, Draw::Word32);
             array(f, random, "output", 0, Draw::Word32);
         },
         kStatesPerHint / 8},
        {"sha256 finalize",
         nativeHint({"segments.write_arg(ids.sha256_ptr_end, padding)"}),
         {"sha256_ptr_end"},
         {},
         {{"SHA256_INPUT_CHUNK_SIZE_FELTS", "16"},
          {"SHA256_STATE_SIZE_FELTS", "8"},
          {"BLOCK_SIZE", "3"}},
         {},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             array(f, random, "sha256_ptr_end", 0, Draw::Word32);
         }},
        // --- blake2s ---
        {"blake2s one-block message",
         nativeHint({"t0=ids.n_bytes"}),
         {"blake2s_start", "n_bytes", "output"},
         {},
         {{"BLAKE2S_INPUT_CHUNK_SIZE_FELTS", "16"}},
         {{"n_bytes", Draw::Word32}},
         {},
         {},
         [array](Fixture& f, StateGenerator& random) {
             array(f, random, "blake2s_start", 16, Draw::Word32);
             f.set("output", f.memory.addSegment());
         },
         kStatesPerHint / 8},
    };
    return all;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    CairoHintDifferentialTest test;
    const int failures = QTest::qExec(&test, argc, argv);
    Fixture::execution = HintExecution::NativeOnly;
    return failures;
}
#include "tst_cairo_hint_differential.moc"
