// The add_mod / mul_mod builtins and the run_mod_p_circuit hint: a small circuit over
// p = 2^255 - 19 whose missing values the hint deduces in cairo-lang's order, then the end-of-run
// check of every instance.

#include "HintFixture.h"

#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "cairo/vm/Layout.h"
#include "cairo/vm/ModBuiltin.h"
#include "crypto/BigInt.h"

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

    // Proof mode runs on all_cairo (whose AIR leaves the mod builtins unconstrained) unless the
    // program declares a mod builtin, which is refused naming it.
    void proofModeRefusesOnlyTheModBuiltins() {
        RunOptions options;
        options.layout = "all_cairo";
        options.proofMode = true;
        const Program declares = Program::fromJson(Asm::countdown(3).proofModeProgram({"add_mod"}));
        CairoRunner refused(declares, options);
        QString message;
        try {
            refused.run();
        } catch (const VmError& error) {
            message = QString::fromUtf8(error.what());
        }
        QVERIFY2(message.contains(QStringLiteral("the add_mod builtin")), qPrintable(message));

        const Program plain = Program::fromJson(Asm::countdown(3).proofModeProgram());
        CairoRunner runner(plain, options);
        runner.run();
        QCOMPARE(runner.layout().name, std::string("all_cairo"));
        QVERIFY(runner.executionResources().nSteps >= 8);
    }
};

QTEST_GUILESS_MAIN(CairoModBuiltinsTest)
#include "tst_cairo_mod_builtins.moc"
