// Native hints, each run inside a small assembled program: inputs are pushed on the stack,
// the hint sees them (and output cells after ap) through ap-based references, as compiled
// Cairo would give them, and the test reads what the hint wrote.

#include "TestPrograms.h"

#include "cairo/Runner.h"

#include <QTest>

using namespace proofdesk::cairo;
using proofdesk::test::Asm;

namespace {

// The suite runs twice: with the native hints, then with every hint run as its Python code
// (cairo-lang's own hint text, through the embedded interpreter and our helper modules).
HintExecution g_execution = HintExecution::NativeOnly;

struct Id {
    std::string name;
    std::vector<std::string> input; // values pushed (1 for felt, 2 for Uint256); empty: output
    bool uint256 = false;
};

struct HintRun {
    std::unique_ptr<Program> program;
    std::unique_ptr<CairoRunner> runner;
    std::string error;
    std::map<std::string, Relocatable> cells;

    Felt felt(const std::string& name, int offset = 0) const {
        return runner->memory().get(cells.at(name) + offset).felt();
    }
    Felt atAp() const { return runner->memory().get(apAtHint).felt(); }
    Relocatable apAtHint;
};

HintRun runHint(const std::string& code, const std::vector<Id>& ids,
                nlohmann::json constants = nlohmann::json::object(),
                nlohmann::json programInput = nlohmann::json::object()) {
    Asm code_;
    int pushed = 0;
    for (const Id& id : ids) {
        for (const std::string& value : id.input) {
            if (value[0] == '-') {
                code_.word(0x480680017fff8000ULL).felt(std::stoll(value));
            } else {
                const Felt f = *Felt::parse(value);
                code_.word(0x480680017fff8000ULL);
                code_.words.push_back(f.toHex());
            }
            ++pushed;
        }
    }
    const auto hintPc = code_.words.size();
    code_.ret();
    nlohmann::json program = code_.program();
    nlohmann::json references = nlohmann::json::array();
    nlohmann::json referenceIds = nlohmann::json::object();
    int inputCursor = 0;
    int outputCursor = 1; // [ap + 0] is left for `memory[ap] = ...` hints
    for (const Id& id : ids) {
        int offset;
        if (!id.input.empty()) {
            offset = inputCursor - pushed;
            inputCursor += static_cast<int>(id.input.size());
        } else {
            offset = outputCursor;
            outputCursor += id.uint256 ? 2 : 1;
        }
        const std::string type = id.uint256 ? "__main__.Uint256*" : "felt*";
        referenceIds["__main__." + id.name] = static_cast<int>(references.size());
        references.push_back(
            {{"ap_tracking_data", {{"group", 0}, {"offset", 0}}},
             {"pc", hintPc},
             {"value", "[cast(ap + (" + std::to_string(offset) + "), " + type + ")]"}});
    }
    program["reference_manager"]["references"] = references;
    program["hints"] = {
        {std::to_string(hintPc),
         {{{"code", code},
           {"accessible_scopes", {"__main__"}},
           {"flow_tracking_data",
            {{"ap_tracking", {{"group", 0}, {"offset", 0}}}, {"reference_ids", referenceIds}}}}}}};
    program["identifiers"]["__main__.Uint256"] = {
        {"type", "struct"},
        {"full_name", "__main__.Uint256"},
        {"size", 2},
        {"members",
         {{"low", {{"cairo_type", "felt"}, {"offset", 0}}},
          {"high", {{"cairo_type", "felt"}, {"offset", 1}}}}}};
    for (const auto& [name, value] : constants.items()) {
        program["identifiers"]["__main__." + name] = {{"type", "const"}, {"value", value}};
    }

    HintRun run;
    run.program = std::make_unique<Program>(Program::fromJson(program));
    RunOptions options;
    options.programInput = programInput;
    options.hints.execution = g_execution;
    run.runner = std::make_unique<CairoRunner>(*run.program, options);
    const Relocatable ap = Relocatable{1, 2} + pushed; // plain mode: [return_fp, end] first
    run.apAtHint = ap;
    inputCursor = 0;
    outputCursor = 1;
    for (const Id& id : ids) {
        if (!id.input.empty()) {
            run.cells[id.name] = ap + (inputCursor - pushed);
            inputCursor += static_cast<int>(id.input.size());
        } else {
            run.cells[id.name] = ap + outputCursor;
            outputCursor += id.uint256 ? 2 : 1;
        }
    }
    try {
        run.runner->run();
    } catch (const std::exception& error) {
        run.error = error.what();
    }
    return run;
}

Felt f(const char* text) {
    return *Felt::parse(text);
}

} // namespace

class CairoHintsTest : public QObject {
    Q_OBJECT
private slots:
    void isNnAndIsLe() {
        const char* isNn =
            "memory[ap] = 0 if 0 <= (ids.a % PRIME) < range_check_builtin.bound else 1";
        QCOMPARE(runHint(isNn, {{"a", {"5"}}}).atAp(), Felt::zero());
        QCOMPARE(runHint(isNn, {{"a", {"-5"}}}).atAp(), Felt::one());
        QCOMPARE(runHint(isNn, {{"a", {"0x100000000000000000000000000000000"}}}).atAp(),
                 Felt::one());
        const char* isLe = "memory[ap] = 0 if (ids.a % PRIME) <= (ids.b % PRIME) else 1";
        QCOMPARE(runHint(isLe, {{"a", {"3"}}, {"b", {"3"}}}).atAp(), Felt::zero());
        QCOMPARE(runHint(isLe, {{"a", {"4"}}, {"b", {"3"}}}).atAp(), Felt::one());
    }

    void assertNnAndNotZeroRefuseWithTheirMessages() {
        const auto nn = runHint("from starkware.cairo.common.math_utils import assert_integer\n"
                                "assert_integer(ids.a)\nassert 0 <= ids.a % PRIME < "
                                "range_check_builtin.bound, f'a = {ids.a} is out of range.'",
                                {{"a", {"-1"}}});
        QVERIFY2(nn.error.find("is out of range") != std::string::npos, nn.error.c_str());
        QVERIFY(nn.error.find("hint at pc") != std::string::npos);
        const auto zero = runHint("from starkware.cairo.common.math_utils import assert_integer\n"
                                  "assert_integer(ids.value)\nassert ids.value % PRIME != 0, "
                                  "f'assert_not_zero failed: {ids.value} = 0.'",
                                  {{"value", {"0"}}});
        QVERIFY(zero.error.find("assert_not_zero failed") != std::string::npos);
    }

    void splitsAndRoots() {
        const auto split =
            runHint("ids.low = ids.a & ((1<<64) - 1)\nids.high = ids.a >> 64",
                    {{"a", {"0x1234567890abcdef0011223344556677"}}, {"low", {}}, {"high", {}}});
        QVERIFY2(split.error.empty(), split.error.c_str());
        QCOMPARE(split.felt("low"), f("0x0011223344556677"));
        QCOMPARE(split.felt("high"), f("0x1234567890abcdef"));
        const auto root =
            runHint("from starkware.python.math_utils import isqrt\nvalue = ids.value % "
                    "PRIME\nassert value < 2 ** 250, f\"value={value} is outside of the "
                    "range [0, 2**250).\"\nassert 2 ** 250 < PRIME\nids.root = isqrt(value)",
                    {{"value", {"1000001"}}, {"root", {}}});
        QVERIFY2(root.error.empty(), root.error.c_str());
        QCOMPARE(root.felt("root"), f("1000"));
    }

    void signedDivRemFloorsLikePython() {
        const std::string code =
            "from starkware.cairo.common.math_utils import as_int, "
            "assert_integer\n\nassert_integer(ids.div)\n"
            "assert 0 < ids.div <= PRIME // range_check_builtin.bound, \\\n    "
            "f'div={hex(ids.div)} is out of "
            "the valid range.'\n\nassert_integer(ids.bound)\nassert ids.bound <= "
            "range_check_builtin.bound // "
            "2, \\\n    f'bound={hex(ids.bound)} is out of the valid range.'\n\nint_value = "
            "as_int(ids.value, "
            "PRIME)\nq, ids.r = divmod(int_value, ids.div)\n\nassert -ids.bound <= q < ids.bound, "
            "\\\n    "
            "f'{int_value} / {ids.div} = {q} is out of the range [{-ids.bound}, {ids.bound}).'\n\n"
            "ids.biased_q = q + ids.bound";
        // -7 // 2 = -4, -7 % 2 = 1 in Python.
        const auto run = runHint(
            code,
            {{"value", {"-7"}}, {"div", {"2"}}, {"bound", {"100"}}, {"r", {}}, {"biased_q", {}}});
        QVERIFY2(run.error.empty(), run.error.c_str());
        QCOMPARE(run.felt("r"), Felt::one());
        QCOMPARE(run.felt("biased_q"), f("96"));
        const auto out = runHint(
            code,
            {{"value", {"1000"}}, {"div", {"2"}}, {"bound", {"100"}}, {"r", {}}, {"biased_q", {}}});
        QVERIFY(out.error.find("out of the range") != std::string::npos);
    }

    void uint256Arithmetic() {
        const char* add =
            "sum_low = ids.a.low + ids.b.low\nids.carry_low = 1 if sum_low >= ids.SHIFT "
            "else 0\nsum_high = ids.a.high + ids.b.high + ids.carry_low\nids.carry_high = 1 "
            "if sum_high >= ids.SHIFT else 0";
        const std::string max128 = "0xffffffffffffffffffffffffffffffff";
        const auto sum = runHint(add,
                                 {{"a", {max128, "1"}, true},
                                  {"b", {"1", max128}, true},
                                  {"carry_low", {}},
                                  {"carry_high", {}}},
                                 {{"SHIFT", "340282366920938463463374607431768211456"}});
        QVERIFY2(sum.error.empty(), sum.error.c_str());
        QCOMPARE(sum.felt("carry_low"), Felt::one());
        QCOMPARE(sum.felt("carry_high"), Felt::one());

        const char* divRem =
            "a = (ids.a.high << 128) + ids.a.low\ndiv = (ids.div.high << 128) + "
            "ids.div.low\nquotient, remainder = divmod(a, div)\n\nids.quotient.low = "
            "quotient & ((1 << 128) - 1)\nids.quotient.high = quotient >> 128\n"
            "ids.remainder.low = remainder & ((1 << 128) - 1)\nids.remainder.high = "
            "remainder >> 128";
        // (2^128 + 5) / 3 = 113427455640312821154458202477256070487, remainder 0.
        const auto dr = runHint(divRem, {{"a", {"5", "1"}, true},
                                         {"div", {"3", "0"}, true},
                                         {"quotient", {}, true},
                                         {"remainder", {}, true}});
        QVERIFY2(dr.error.empty(), dr.error.c_str());
        QCOMPARE(dr.felt("quotient"), f("113427455640312821154458202477256070487"));
        QCOMPARE(dr.felt("quotient", 1), Felt::zero());
        QCOMPARE(dr.felt("remainder"), Felt::zero());
    }

    void programInputHintsReadTheInput() {
        const auto run = runHint("ids.n = program_input['n']", {{"n", {}}},
                                 nlohmann::json::object(), {{"n", 42}});
        QVERIFY2(run.error.empty(), run.error.c_str());
        QCOMPARE(run.felt("n"), f("42"));
        const auto missing = runHint("ids.n = program_input['n']", {{"n", {}}});
        const std::string expected = g_execution == HintExecution::NativeOnly
                                         ? "program_input has no \"n\""
                                         : "KeyError: 'n'";
        QVERIFY2(missing.error.find(expected) != std::string::npos, missing.error.c_str());
    }
};

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    CairoHintsTest test;
    int failures = QTest::qExec(&test, argc, argv);
    g_execution = HintExecution::PythonOnly;
    failures += QTest::qExec(&test, argc, argv);
    return failures;
}
#include "tst_cairo_hints.moc"
