// The add_mod / mul_mod builtins and the run_mod_p_circuit hint: a small circuit over
// p = 2^255 - 19 whose missing values the hint deduces in cairo-lang's order, then the end-of-run
// check of every instance.

#include "HintFixture.h"

#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "cairo/vm/Layout.h"
#include "cairo/vm/ModBuiltin.h"
#include "crypto/BigInt.h"

#include <QRandomGenerator>

using namespace proofdesk;
using namespace proofdesk::test;
using crypto::BigInt;

namespace {

const char* kRunCircuit =
    R"(from starkware.cairo.lang.builtins.modulo.mod_builtin_runner import ModBuiltinRunner
assert builtin_runners["add_mod_builtin"].instance_def.batch_size == 1
assert builtin_runners["mul_mod_builtin"].instance_def.batch_size == 1

ModBuiltinRunner.fill_memory(
    memory=memory,
    add_mod=(ids.add_mod_ptr.address_, builtin_runners["add_mod_builtin"], ids.add_mod_n),
    mul_mod=(ids.mul_mod_ptr.address_, builtin_runners["mul_mod_builtin"], ids.mul_mod_n),
))";

const BigInt kP = BigInt::powerOfTwo(255) - BigInt(19);

void writeWords(Memory& memory, const Relocatable& at, BigInt value) {
    for (int i = 0; i < 4; ++i) {
        auto [q, r] = BigInt::divmod(value, BigInt::powerOfTwo(96));
        memory.set(at + i, r.toFelt());
        value = q;
    }
}

BigInt readWords(Memory& memory, const Relocatable& at) {
    BigInt value;
    for (int i = 3; i >= 0; --i) {
        value = (value << 96) + BigInt::fromFelt(memory.get(at + i).felt());
    }
    return value;
}

// A fixture with both mod builtins, a values table and an offsets table.
struct Circuit {
    Fixture f{{"add_mod_ptr", "mul_mod_ptr", "add_mod_n", "mul_mod_n"}};
    ModBuiltin* add = nullptr;
    ModBuiltin* mul = nullptr;
    Relocatable values;
    Relocatable offsets;

    Circuit() {
        const Layout layout = *layoutNamed("all_cairo");
        auto addRunner =
            std::make_unique<ModBuiltin>("add_mod", *layout.builtin("add_mod"), true, false);
        auto mulRunner =
            std::make_unique<ModBuiltin>("mul_mod", *layout.builtin("mul_mod"), true, true);
        addRunner->initializeSegment(f.memory);
        mulRunner->initializeSegment(f.memory);
        add = addRunner.get();
        mul = mulRunner.get();
        f.builtins.push_back(std::move(addRunner));
        f.builtins.push_back(std::move(mulRunner));
        values = f.memory.addSegment();
        offsets = f.memory.addSegment();
    }
    // The first instance of a builtin: p, values_ptr, offsets_ptr (+ start), n.
    void firstInstance(ModBuiltin* runner, std::int64_t offsetsStart, std::uint64_t n) {
        writeWords(f.memory, runner->base(), kP);
        f.memory.set(runner->base() + 4, values);
        f.memory.set(runner->base() + 5, offsets + offsetsStart);
        f.memory.set(runner->base() + 6, Felt::fromU64(n));
    }
    void setOffsets(std::int64_t at, std::vector<std::uint64_t> list) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            f.memory.set(offsets + (at + static_cast<std::int64_t>(i)), Felt::fromU64(list[i]));
        }
    }
    void run(std::uint64_t addN, std::uint64_t mulN) {
        f.set("add_mod_ptr", add->base());
        f.set("mul_mod_ptr", mul->base());
        f.set("add_mod_n", Felt::fromU64(addN));
        f.set("mul_mod_n", Felt::fromU64(mulN));
        f.run(kRunCircuit);
    }
};

} // namespace

class CairoModBuiltinsTest : public QObject {
    Q_OBJECT
private slots:
    void theHintFillsTheCircuitInCairoLangsOrder() {
        Circuit c;
        // Values (4 words each): x@0 = 5, y@4 = 7, t@8, u@12, v@16, w@20.
        writeWords(c.f.memory, c.values, BigInt(5));
        writeWords(c.f.memory, c.values + 4, BigInt(7));
        // add: x + y = t; v + y = u.   mul: t * x = u; w * x = u.
        c.setOffsets(0, {0, 4, 8, 16, 4, 12});
        c.setOffsets(6, {8, 0, 12, 20, 0, 12});
        c.firstInstance(c.add, 0, 2);
        c.firstInstance(c.mul, 6, 2);
        c.run(2, 2);
        QCOMPARE(readWords(c.f.memory, c.values + 8), BigInt(12));  // t
        QCOMPARE(readWords(c.f.memory, c.values + 12), BigInt(60)); // u
        QCOMPARE(readWords(c.f.memory, c.values + 16), BigInt(53)); // v = u - y
        QCOMPARE(readWords(c.f.memory, c.values + 20), BigInt(12)); // w = u / x
        // The second instances were written from the first.
        QCOMPARE(c.f.memory.get(c.add->base() + 7 + 5).address(), c.offsets + 3);
        QCOMPARE(c.f.memory.get(c.add->base() + 7 + 6).felt(), Felt::one());
        QCOMPARE(readWords(c.f.memory, c.mul->base() + 7), kP);
        c.add->verifyAtEnd(c.f.memory);
        c.mul->verifyAtEnd(c.f.memory);
    }

    void anAdditionMayWrapOnceAndADivisionUsesTheInverse() {
        Circuit c;
        writeWords(c.f.memory, c.values, kP - BigInt(1)); // a = p - 1
        writeWords(c.f.memory, c.values + 4, BigInt(3));  // b = 3
        writeWords(c.f.memory, c.values + 12, BigInt(2)); // d = 2
        c.setOffsets(0, {0, 4, 8});                       // a + b = c  -> 2
        c.setOffsets(3, {16, 12, 4});                     // e * d = b  -> e = 3/2
        c.firstInstance(c.add, 0, 1);
        c.firstInstance(c.mul, 3, 1);
        c.run(1, 1);
        QCOMPARE(readWords(c.f.memory, c.values + 8), BigInt(2));
        QCOMPARE((readWords(c.f.memory, c.values + 16) * BigInt(2)).mod(kP), BigInt(3));
        c.add->verifyAtEnd(c.f.memory);
        c.mul->verifyAtEnd(c.f.memory);
    }

    void wrongValuesAndUnfillableTablesAreErrors() {
        Circuit c;
        writeWords(c.f.memory, c.values, BigInt(5));
        writeWords(c.f.memory, c.values + 4, BigInt(7));
        writeWords(c.f.memory, c.values + 8, BigInt(13)); // 5 + 7 != 13
        c.setOffsets(0, {0, 4, 8});
        c.firstInstance(c.add, 0, 1);
        c.firstInstance(c.mul, 3, 0);
        c.run(1, 0);
        bool refused = false;
        try {
            c.add->verifyAtEnd(c.f.memory);
        } catch (const VmError& error) {
            refused = std::string(error.what()).find("does not hold") != std::string::npos;
        }
        QVERIFY(refused);

        Circuit d;
        writeWords(d.f.memory, d.values, BigInt(5));
        d.setOffsets(0, {0, 4, 8}); // b and c both unknown
        d.firstInstance(d.add, 0, 1);
        d.firstInstance(d.mul, 3, 0);
        QString message;
        try {
            d.run(1, 0);
        } catch (const std::exception& error) {
            message = QString::fromUtf8(error.what());
        }
        QVERIFY2(message.contains(QStringLiteral("Could not fill the values table")),
                 qPrintable(message));
    }

    void aProgramDeclaringTheModBuiltinsRunsOnAllCairo() {
        // main(add_mod_ptr, mul_mod_ptr): return both unchanged.
        Asm program;
        const std::uint64_t copyFromFp = (1u << 14) | (1u << 11) | (1u << 3); // [ap] = [fp + k]
        program.word(Asm::encode(0, -1, -4, copyFromFp));
        program.word(Asm::encode(0, -1, -3, copyFromFp));
        program.ret();
        const Program compiled = Program::fromJson(program.program({"add_mod", "mul_mod"}));
        RunOptions options;
        options.layout = "all_cairo";
        CairoRunner runner(compiled, options);
        runner.run();
        QCOMPARE(runner.executionResources().nSteps, std::uint64_t(3));
        bool both = false;
        for (const auto& builtin : runner.builtins()) {
            both = both || builtin->name() == "mul_mod";
        }
        QVERIFY(both);
    }

    // Proof mode runs the mod builtins as cairo-lang does: a zero segment of four zeros last
    // (where the AIR's unused instances read), and the private input lists every instance with
    // its operation, pointers relocated. On all_cairo, whose AIR leaves them unconstrained, the
    // range-check bounds stay the instructions'; on a dynamic layout mul_mod's parts widen them.
    void proofModeWritesTheModBuiltinsPrivateInput() {
        const ModBatch add = {
            {"3", "1", "0", "0"},
            {{{{"5", "0", "0", "0"}, {"7", "0", "0", "0"}, {"12", "0", "0", "0"}}}}};
        const ModBatch mul = {
            {"3", "1", "0", "0"},
            {{{{"5", "0", "0", "0"}, {"7", "0", "0", "0"}, {"35", "0", "0", "0"}}}}};
        const Program program = Program::fromJson(
            Asm::modOperations(add, mul).proofModeProgram({"add_mod", "mul_mod"}));
        RunOptions options;
        options.layout = "all_cairo";
        options.proofMode = true;
        CairoRunner runner(program, options);
        runner.run();

        const auto zeroSegment = static_cast<std::int64_t>(runner.memory().segmentCount() - 1);
        QCOMPARE(runner.memory().segmentUsedSize(zeroSegment), std::uint64_t(4));
        for (std::int64_t i = 0; i < 4; ++i) {
            QCOMPARE(runner.memory().get(Relocatable{zeroSegment, 0} + i).felt(), Felt::zero());
        }
        const nlohmann::json input = nlohmann::json::parse(runner.airPrivateInput("t", "m").dump());
        // main's frame starts at execution + 6: the call's two cells, fp, values_ptr, the
        // offsets' pointer, then the values.
        const std::uint64_t values = runner.relocate(runner.executionBase() + 11);
        const std::uint64_t offsets = runner.relocate(runner.executionBase() + 11 + 24);
        const nlohmann::json expected = {
            {"instances",
             {{{"index", 0},
               {"p0", "0x3"},
               {"p1", "0x1"},
               {"p2", "0x0"},
               {"p3", "0x0"},
               {"values_ptr", values},
               {"offsets_ptr", offsets},
               {"n", 1},
               {"batch",
                {{{"a_offset", 0},
                  {"b_offset", 4},
                  {"c_offset", 8},
                  {"a0", "0x5"},
                  {"a1", "0x0"},
                  {"a2", "0x0"},
                  {"a3", "0x0"},
                  {"b0", "0x7"},
                  {"b1", "0x0"},
                  {"b2", "0x0"},
                  {"b3", "0x0"},
                  {"c0", "0xc"},
                  {"c1", "0x0"},
                  {"c2", "0x0"},
                  {"c3", "0x0"}}}}}}},
            {"zero_value_address", runner.relocate(Relocatable{zeroSegment, 0})}};
        QCOMPARE(input["add_mod"].dump(), expected.dump());
        QCOMPARE(input["mul_mod"]["instances"][0]["offsets_ptr"].get<std::uint64_t>(), offsets + 3);
        QCOMPARE(input["mul_mod"]["instances"][0]["batch"][0]["c0"].get<std::string>(),
                 std::string("0x23"));
        QVERIFY(runner.airPublicInput()["rc_min"].get<std::uint64_t>() > 4);

        options.layout = "dynamic";
        options.dynamicLayoutParams = nlohmann::json{{"uses_add_mod_builtin", 1},
                                                     {"add_mod_ratio", 128},
                                                     {"uses_mul_mod_builtin", 1},
                                                     {"mul_mod_ratio", 256}};
        CairoRunner dynamic(program, options);
        dynamic.run();
        QCOMPARE(dynamic.airPublicInput()["rc_min"].get<std::uint64_t>(), std::uint64_t(0));
    }

    // mul_mod's range-checked parts on random 384-bit operations: k = (a·b − c)/p, and the
    // carries satisfy the AIR's identity A(z)·B(z) + carries(z)·(z − 2^96) = C(z) + P(z)·K(z) at
    // a random z; some carries are negative (parts 0xffff). Operations that do not hold, or
    // whose k would be negative, are errors.
    void mulModPartsSatisfyTheAirsIdentity() {
        QRandomGenerator random(2026);
        const auto randomBelow = [&](const BigInt& bound) {
            BigInt value;
            for (int i = 0; i < 7; ++i) {
                value = (value << 64) + BigInt(static_cast<std::int64_t>(random.generate64() >> 1));
            }
            return value.mod(bound);
        };
        const BigInt word = BigInt::powerOfTwo(96);
        const auto atZ = [&](const std::vector<BigInt>& coefficients, const BigInt& z) {
            BigInt sum;
            for (std::size_t i = coefficients.size(); i-- > 0;) {
                sum = sum * z + coefficients[i];
            }
            return sum;
        };
        const auto wordsOf = [&](BigInt value) {
            std::vector<BigInt> out;
            for (int i = 0; i < 4; ++i) {
                out.push_back(value.mod(word));
                value = value >> 96;
            }
            return out;
        };
        bool negativeCarry = false;
        for (int sample = 0; sample < 40; ++sample) {
            const BigInt p = randomBelow(BigInt::powerOfTwo(384)) + BigInt(2);
            const BigInt a = randomBelow(p), b = randomBelow(p);
            const BigInt c = (a * b).mod(p);
            const MulModParts parts = mulModParts(p, a, b, c);
            std::vector<BigInt> k, carries;
            for (const auto& w : parts.multiplier) {
                BigInt value;
                for (std::size_t j = w.size(); j-- > 0;) {
                    value = (value << 16) + BigInt(w[j]);
                }
                k.push_back(value);
            }
            for (const auto& w : parts.carries) {
                BigInt value;
                for (std::size_t j = w.size(); j-- > 0;) {
                    value = (value << 16) + BigInt(w[j]);
                }
                carries.push_back(value - BigInt::powerOfTwo(98));
                negativeCarry = negativeCarry || carries.back().isNegative();
            }
            QCOMPARE(atZ(k, word), BigInt::divmod(a * b - c, p).first);
            const BigInt z = randomBelow(BigInt::powerOfTwo(251));
            QCOMPARE(atZ(wordsOf(a), z) * atZ(wordsOf(b), z) + atZ(carries, z) * (z - word),
                     atZ(wordsOf(c), z) + atZ(wordsOf(p), z) * atZ(k, z));
        }
        QVERIFY(negativeCarry);
        QVERIFY_THROWS_EXCEPTION(VmError, mulModParts(BigInt(7), BigInt(3), BigInt(5), BigInt(2)));
        QVERIFY_THROWS_EXCEPTION(VmError, mulModParts(BigInt(7), BigInt(3), BigInt(5), BigInt(22)));
    }
};

QTEST_GUILESS_MAIN(CairoModBuiltinsTest)
#include "tst_cairo_mod_builtins.moc"
