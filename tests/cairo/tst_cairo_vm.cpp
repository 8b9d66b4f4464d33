#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/pie/CairoPie.h"
#include "cairo/vm/Instruction.h"
#include "cairo/vm/Layout.h"
#include "cairo/vm/Memory.h"
#include "cairo/vm/Program.h"
#include "cairo/vm/ProgramHash.h"

#include <QTest>

#include <sstream>

using namespace proofdesk::cairo;
using proofdesk::test::Asm;

namespace {

std::string runError(const nlohmann::json& programJson, RunOptions options = {}) {
    try {
        const Program program = Program::fromJson(programJson);
        CairoRunner runner(program, options);
        runner.run();
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class CairoVmTest : public QObject {
    Q_OBJECT
private slots:
    void decodesKnownInstructions() {
        const Instruction ret = decodeInstruction(Felt::fromU64(0x208b7fff7fff7ffeULL));
        QVERIFY(ret.opcode == Instruction::Opcode::Ret);
        QVERIFY(ret.pcUpdate == Instruction::PcUpdate::Jump);
        QVERIFY(ret.fpUpdate == Instruction::FpUpdate::Dst);
        QCOMPARE(ret.off0, std::int16_t(-2));
        QCOMPARE(ret.off2, std::int16_t(-1));
        const Instruction call = decodeInstruction(Felt::fromU64(0x1104800180018000ULL));
        QVERIFY(call.opcode == Instruction::Opcode::Call);
        QVERIFY(call.apUpdate == Instruction::ApUpdate::Add2);
        QCOMPARE(call.size(), 2);
    }

    void refusesInvalidInstructions() {
        // Both res flags, the reserved bit, two opcodes, a word wider than 63 bits.
        for (std::uint64_t flags :
             {std::uint64_t{3} << 5, std::uint64_t{1} << 15, std::uint64_t{3} << 12}) {
            QVERIFY_THROWS_EXCEPTION(VmError,
                                     decodeInstruction(Felt::fromU64(Asm::encode(0, 0, 0, flags))));
        }
        QVERIFY_THROWS_EXCEPTION(VmError, decodeInstruction(*Felt::parse("0x8000000000000000")));
    }

    void runsArithmeticAndReturns() {
        const Asm code = Asm().pushImm(5).pushSquareOfTop().assertTopEquals(25).ret();
        const Program program = Program::fromJson(code.program());
        CairoRunner runner(program, {});
        runner.run();
        QCOMPARE(runner.vm().steps(), std::uint64_t(4));
        // Initial stack: return_fp, end; values land at execution offsets 2 and 3.
        QCOMPARE(runner.memory().get({1, 2}).felt(), Felt::fromU64(5));
        QCOMPARE(runner.memory().get({1, 3}).felt(), Felt::fromU64(25));
        // Relocated trace: 24 bytes a step, (ap, fp, pc) little-endian.
        std::ostringstream trace;
        runner.writeTrace(trace);
        QCOMPARE(trace.str().size(), std::size_t(4 * 24));
        QCOMPARE(static_cast<unsigned char>(trace.str()[16]), static_cast<unsigned char>(1));
        const ExecutionResources resources = runner.executionResources();
        QCOMPARE(resources.nSteps, std::uint64_t(4));
    }

    void refusesBadPrograms() {
        QVERIFY_THROWS_EXCEPTION(ProgramError, Program::fromText("{not json"));
        nlohmann::json program = Asm().ret().program();
        program["prime"] = "0x11";
        QVERIFY(contains(runError(program), "not the STARK field prime"));
        program = Asm().ret().program();
        program["identifiers"] = nlohmann::json::object();
        QVERIFY(contains(runError(program), "no __main__.main"));
        program = Asm().ret().program({"output", "teleporter"});
        QVERIFY(contains(runError(program), "unknown builtin \"teleporter\""));
        program = Asm().ret().program({"pedersen", "output"});
        QVERIFY(contains(runError(program), "canonical order"));
        program = Asm().ret().program();
        program["data"][0] = "zz";
        QVERIFY(contains(runError(program), "data[0]"));
        // Found by fuzzing: a hint whose code is an object, not a string.
        program = Asm().ret().program();
        program["hints"] = {{"0", {{{"code", {{"ap_tracking", 0}}}}}}};
        QVERIFY(contains(runError(program), "wrong type"));
    }

    void refusesRunFailuresClearly() {
        // Invalid instruction word reached at run time.
        QVERIFY(contains(runError(Asm().word(Asm::encode(0, 0, 0, 3u << 5)).program()),
                         "invalid instruction"));
        // Writing another value to a written cell: [ap-1] is 5, then asserted to be 6.
        QVERIFY(
            contains(runError(Asm().pushImm(5).assertTopEquals(6).ret().program()), "ASSERT_EQ"));
        // Runaway loop stopped by max steps.
        RunOptions limited;
        limited.maxSteps = 1000;
        QVERIFY(contains(runError(Asm().jmpRel0().program(), limited), "1000 steps"));
        // A builtin the layout lacks.
        QVERIFY(contains(runError(Asm().ret().program({"output"})), "not present in layout plain"));
        // Unknown hint: its code and pc in the message.
        const nlohmann::json hints = {{"0",
                                       {{{"code", "do_something_magic()"},
                                         {"accessible_scopes", {"__main__"}},
                                         {"flow_tracking_data",
                                          {{"ap_tracking", {{"group", 0}, {"offset", 0}}},
                                           {"reference_ids", nlohmann::json::object()}}}}}}};
        const std::string unknown = runError(Asm().ret().program({}, hints));
        QVERIFY(contains(unknown, "unknown hint at pc 0"));
        QVERIFY(contains(unknown, "do_something_magic()"));
        // Proof mode needs a proof-mode compilation.
        RunOptions proof;
        proof.proofMode = true;
        QVERIFY(contains(runError(Asm().ret().program(), proof), "__start__"));
        RunOptions badLayout;
        badLayout.layout = "nonsense";
        QVERIFY(contains(runError(Asm().ret().program(), badLayout), "unknown layout"));
    }

    void memoryIsWriteOnce() {
        Memory memory;
        const Relocatable base = memory.addSegment();
        memory.set(base, Felt::fromU64(7));
        memory.set(base, Felt::fromU64(7)); // the same value again is fine
        QVERIFY_THROWS_EXCEPTION(VmError, memory.set(base, Felt::fromU64(8)));
        QCOMPARE(memory.get(base).felt(), Felt::fromU64(7));
        QVERIFY_THROWS_EXCEPTION(VmError, memory.get(base + 1));
        QVERIFY_THROWS_EXCEPTION(VmError, memory.set({9, 0}, Felt::zero()));
    }

    void outputBuiltinAndPieRoundTrip() {
        const Program program = Program::fromJson(Asm::writesOutput(7).program({"output"}));
        RunOptions options;
        options.layout = "small";
        CairoRunner runner(program, options);
        runner.run();
        QCOMPARE(runner.output(), std::vector<Felt>{Felt::fromU64(7)});
        QVERIFY(runner.printedOutput() == "Program output:\n  7\n\n");

        const CairoPie pie = runner.pie();
        QCOMPARE(pie.builtinSegments.size(), std::size_t(1));
        QCOMPARE(pie.builtinSegments[0].second.size, std::uint64_t(1));
        const CairoPie back = CairoPie::fromZip(pie.toZip());
        QCOMPARE(back.output(), std::vector<Felt>{Felt::fromU64(7)});
        QCOMPARE(back.programHash(), programHash(program));
        QCOMPARE(back.resources.nSteps, runner.executionResources().nSteps);
        QCOMPARE(back.memory.size(), pie.memory.size());
        for (std::size_t i = 0; i < pie.memory.size(); ++i) {
            QVERIFY(back.memory[i].first == pie.memory[i].first);
            QVERIFY(back.memory[i].second == pie.memory[i].second);
        }
        // Fact hashes are defined over the program hash and the output.
        QCOMPARE(sharpFactHash(back.programHash(), back.output()).size(), std::size_t(66));
        QVERIFY(integrityFactHash(back.programHash(), back.output()) !=
                integrityFactHash(back.programHash(), {Felt::fromU64(8)}));
    }

    void refusesBadPies() {
        QVERIFY_THROWS_EXCEPTION(PieError, CairoPie::fromZip("not a zip at all"));
        const Program program = Program::fromJson(Asm::writesOutput(7).program({"output"}));
        RunOptions options;
        options.layout = "small";
        CairoRunner runner(program, options);
        runner.run();
        CairoPie pie = runner.pie();
        // Found by fuzzing: an output segment claimed far larger than the memory it has.
        CairoPie huge = pie;
        huge.builtinSegments[0].second.size = 1u << 30;
        QVERIFY_THROWS_EXCEPTION(PieError, CairoPie::fromZip(huge.toZip()).output());
        pie.programSegment.size = 999; // inconsistent with the program
        try {
            CairoPie::fromZip(pie.toZip());
            QFAIL("an inconsistent PIE was accepted");
        } catch (const PieError& error) {
            QVERIFY(contains(error.what(), "inconsistent"));
        }
    }

    void autoLayoutWeighsColumnsAndPadding() {
        // No builtins, few steps: plain (8 columns, no minimum).
        QCOMPARE(autoLayout({}, 100), std::string("plain"));
        // Output and pedersen, few steps: dex (22 columns × 512) beats small (25 × 512) and
        // recursive (10 × 16384).
        QCOMPARE(autoLayout({"output", "pedersen"}, 100), std::string("dex"));
        // Many steps: the minimum no longer matters and fewer columns win.
        QCOMPARE(autoLayout({"output", "pedersen"}, 1u << 20),
                 std::string("recursive_with_poseidon"));
        QCOMPARE(autoLayout({"keccak"}, 100), std::string("starknet_with_keccak"));
        // The mod builtins: all_cairo has them but does not constrain them, so dynamic (with
        // Proofdesk's placement), for them alone or with every other builtin.
        QCOMPARE(autoLayout({"add_mod"}, 100), std::string("dynamic"));
        QCOMPARE(autoLayout({"output", "pedersen", "range_check", "ecdsa", "bitwise", "ec_op",
                             "keccak", "poseidon", "range_check96", "add_mod", "mul_mod"},
                            1u << 20),
                 std::string("dynamic"));
        // range_check96, which of the named layouts only all_cairo has: dynamic too.
        QCOMPARE(autoLayout({"output", "range_check96"}, 100), std::string("dynamic"));
        // A builtin no layout has.
        QCOMPARE(autoLayout({"segment_arena"}, 100), std::string());
        // A run with layout auto reports the layout it chose.
        const Program program = Program::fromJson(Asm::countdown(3).proofModeProgram());
        RunOptions options;
        options.proofMode = true;
        options.layout = "auto";
        CairoRunner runner(program, options);
        runner.run();
        QCOMPARE(runner.layout().name, std::string("plain"));
        // A declared builtin counts though the run leaves it empty (the proof's statement must
        // name it for the program hash); only a bootloader's run over a PIE may leave it out.
        // main(bitwise_ptr): return bitwise_ptr + 0.
        Asm passes;
        passes
            .word(
                Asm::encode(0, -3, 1, (1u << 14) | (1u << 11) | (1u << 5) | (1u << 2) | (1u << 1)))
            .word(0);
        const Program declares = Program::fromJson(passes.ret().proofModeProgram({"bitwise"}));
        CairoRunner withBitwise(declares, options);
        withBitwise.run();
        QVERIFY(withBitwise.layout().builtin("bitwise"));
        options.autoLayoutByUsedBuiltins = true;
        CairoRunner byUse(declares, options);
        byUse.run();
        QCOMPARE(byUse.layout().name, std::string("plain"));
    }

    void autoLayoutChoosesByWhatTheRunUses() {
        // One range-checked value, 0xffff: its 16-bit limbs are 0 and 0xffff, so the run's
        // range-check values span all 2^16, and Stone fills every gap with spare units. dex has
        // one spare unit a step (131072 steps); small has 13 (8192 steps), so small is cheaper
        // though it has more columns and the builtins alone would say dex.
        QCOMPARE(autoLayout({"range_check"}, 10), std::string("dex"));
        const Program program =
            Program::fromJson(Asm::writesOutput(0xffff).proofModeProgram({"range_check"}));
        RunOptions options;
        options.proofMode = true;
        options.layout = "auto";
        CairoRunner runner(program, options);
        runner.run();
        QCOMPARE(runner.layout().name, std::string("small"));
        QCOMPARE(runner.vm().steps(), std::uint64_t(8192));
        const RunDemand demand = runner.runDemand();
        QCOMPARE(demand.required, std::vector<std::string>{"range_check"});
        QCOMPARE(demand.rangeCheckSpan, std::uint64_t(0xffff));
        QCOMPARE(demand.rangeCheckUnits, std::uint64_t(8));
        QCOMPARE(paddedStepsOn(*layoutNamed("small"), demand), std::optional<std::uint64_t>(8192));
        QCOMPARE(paddedStepsOn(*layoutNamed("dex"), demand), std::optional<std::uint64_t>(131072));
        QCOMPARE(paddedStepsOn(*layoutNamed("plain"), demand), std::nullopt);
        // The runner pads a run on a named layout exactly as far as the model says.
        options.layout = "dex";
        CairoRunner onDex(program, options);
        onDex.run();
        QCOMPARE(onDex.vm().steps(), std::uint64_t(131072));

        // A PIE's execution resources: the builtins with instances are required, a used
        // range_check spans the 16-bit range.
        const RunDemand fromResources = runDemandOf(
            {{"n_steps", 1775},
             {"n_memory_holes", 3},
             {"builtin_instance_counter", {{"range_check_builtin", 500}, {"output_builtin", 0}}}});
        QCOMPARE(fromResources.steps, std::uint64_t(1775));
        QCOMPARE(fromResources.required, std::vector<std::string>{"range_check"});
        QCOMPARE(fromResources.rangeCheckUnits, std::uint64_t(4000));
        QCOMPARE(fromResources.rangeCheckSpan, std::uint64_t(0xffff));
        QCOMPARE(fromResources.memoryHoles, std::uint64_t(3));
        QCOMPARE(cheapestLayout(fromResources), std::string("small"));
    }

    void dynamicLayoutsReadStonesRowRatios() {
        // Stone's dynamic_params give periods in trace rows (here all_cairo's, two rows per
        // step's CPU component of 32): the run's units per step and ratios in steps follow.
        const nlohmann::json stone = {
            {"cpu_component_step", 2},          {"memory_units_row_ratio", 4},
            {"range_check_units_row_ratio", 4}, {"diluted_units_row_ratio", 2},
            {"uses_pedersen_builtin", 1},       {"pedersen_builtin_row_ratio", 8192},
            {"uses_keccak_builtin", 1},         {"keccak__row_ratio", 65536},
            {"uses_bitwise_builtin", 0},        {"bitwise__row_ratio", 512},
            {"uses_range_check_builtin", 0},    {"uses_ecdsa_builtin", 0},
            {"uses_ec_op_builtin", 0},          {"uses_poseidon_builtin", 0},
            {"uses_range_check96_builtin", 0},  {"uses_add_mod_builtin", 0},
            {"uses_mul_mod_builtin", 0}};
        const Layout fromRows = dynamicLayout(stone);
        const Layout allCairo = *layoutNamed("all_cairo");
        QCOMPARE(fromRows.rcUnits, allCairo.rcUnits);
        QCOMPARE(fromRows.memoryUnitsPerStep, allCairo.memoryUnitsPerStep);
        QCOMPARE(fromRows.logDilutedUnitsPerStep, allCairo.logDilutedUnitsPerStep);
        QCOMPARE(fromRows.builtins.size(), std::size_t(3));
        QCOMPARE(fromRows.builtin("pedersen")->ratio, allCairo.builtin("pedersen")->ratio);
        QCOMPARE(fromRows.builtin("keccak")->ratio, allCairo.builtin("keccak")->ratio);
        QCOMPARE(fromRows.builtin("keccak")->instancesPerComponent, 16);
        QVERIFY(!fromRows.has("bitwise"));
        // cairo-lang's layout params file (ratios in steps) still reads, flags as numbers too.
        const Layout fromSteps = dynamicLayout({{"rc_units", 8},
                                                {"memory_units_per_step", 8},
                                                {"log_diluted_units_per_step", 4},
                                                {"uses_bitwise_builtin", true},
                                                {"bitwise_ratio", 16},
                                                {"uses_pedersen_builtin", 1},
                                                {"pedersen_ratio", 256}});
        QCOMPARE(fromSteps.builtin("bitwise")->ratio, 16);
        QCOMPARE(fromSteps.builtin("pedersen")->ratio, 256);
        // Parameters that do not fit are refused saying which.
        const auto refusal = [](nlohmann::json params) {
            try {
                dynamicLayout(params);
                return std::string();
            } catch (const std::runtime_error& e) {
                return std::string(e.what());
            }
        };
        nlohmann::json broken = stone;
        broken["memory_units_row_ratio"] = 3;
        QVERIFY(contains(refusal(broken), "memory_units_row_ratio (3) does not divide"));
        broken = stone;
        broken["pedersen_builtin_row_ratio"] = 100;
        QVERIFY(contains(refusal(broken), "pedersen_builtin_row_ratio (100) is not a whole"));
        broken = stone;
        broken.erase("cpu_component_step");
        QVERIFY(contains(refusal(broken), "lack cpu_component_step"));
        broken = stone;
        broken["uses_pedersen_builtin"] = "yes";
        QVERIFY(contains(refusal(broken), "uses_pedersen_builtin is not"));
    }

    void programHashIsStableAndSensitive() {
        const Program a = Program::fromJson(Asm().pushImm(1).ret().program());
        const Program b = Program::fromJson(Asm().pushImm(2).ret().program());
        QCOMPARE(programHash(a), programHash(Program::fromJson(Asm().pushImm(1).ret().program())));
        QVERIFY(programHash(a) != programHash(b));
    }
};

QTEST_GUILESS_MAIN(CairoVmTest)
#include "tst_cairo_vm.moc"
