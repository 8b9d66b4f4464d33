// Cairo 1 hints (issue #46): every hint kind on hand-worked cases in executables of our own, and
// the Blake opcode on RFC 7693's vector.

#include "Cairo1Runs.h"

#include "cairo/Runner.h"
#include "cairo/cairo1/Cairo1Hints.h"
#include "cairo/vm/Instruction.h"
#include "crypto/Blake2s.h"

#include <QTest>

using namespace proofdesk;
using namespace proofdesk::cairo;
using proofdesk::test::Cairo1Body;
using proofdesk::test::Cairo1Run;
using proofdesk::test::cellOf;
using proofdesk::test::felt;
using proofdesk::test::runExecutable;

namespace {

// One hint on `ap += width` as the body's first instruction, with immediates only; the cells it
// wrote, [fp + 0 .. width).
std::vector<Value> hintCells(const std::string& name, const nlohmann::json& fields, int width,
                             const std::vector<std::string>& builtins = {"output"}) {
    Cairo1Body body;
    body.hint(name, fields).reserve(width).returnBuiltins(static_cast<int>(builtins.size()));
    const Cairo1Run run = runExecutable(body.executable(builtins), {}, false);
    std::vector<Value> cells;
    for (int i = 0; i < width; ++i) {
        Value value;
        cells.push_back(run.runner->memory().tryGet(
                            {1, static_cast<std::uint64_t>(builtins.size() + 2 + i)}, &value)
                            ? value
                            : Value(felt("0xdead")));
    }
    return cells;
}

// A body whose first two segments hold BLAKE2s-256's first state for a 32-byte digest ([fp + 0])
// and the one-block message "abc" as little-endian words ([fp + 1]), followed by the byte count
// 3 on the stack: the inputs of RFC 7693's example, whose digest starts 508c5e8c 327c14e2.
Cairo1Body blakeOfAbc() {
    using B = Cairo1Body;
    Cairo1Body body;
    body.hint("AllocSegment", {{"dst", B::ap(0)}})
        .hint("AllocSegment", {{"dst", B::ap(1)}})
        .reserve(2);
    const auto& iv = crypto::blake2sIv();
    for (int i = 0; i < 8; ++i) {
        body.store(0, i, std::to_string(i == 0 ? (iv[0] ^ 0x01010020U) : iv[i]));
    }
    for (int i = 0; i < 16; ++i) {
        body.store(1, i, i == 0 ? "6513249" : "0"); // "abc" as a little-endian word
    }
    body.push("3"); // the byte count
    return body;
}

} // namespace

class Cairo1HintsTest : public QObject {
    Q_OBJECT
private slots:
    // --- each hint, hand-worked ----------------------------------------------------------------

    void comparisons() {
        using B = Cairo1Body;
        QVERIFY(hintCells("TestLessThan",
                          {{"lhs", B::imm("3")}, {"rhs", B::imm("5")}, {"dst", B::ap(0)}},
                          1)[0] == Value(Felt::one()));
        QVERIFY(hintCells("TestLessThan",
                          {{"lhs", B::imm("5")}, {"rhs", B::imm("5")}, {"dst", B::ap(0)}},
                          1)[0] == Value(Felt::zero()));
        QVERIFY(hintCells("TestLessThanOrEqual",
                          {{"lhs", B::imm("5")}, {"rhs", B::imm("5")}, {"dst", B::ap(0)}},
                          1)[0] == Value(Felt::one()));
        // Operands read from cells: [ap - 1] = 7 pushed first; 7 + 1 < 8 is false.
        Cairo1Body body;
        body.push("7")
            .hint(
                "TestLessThan",
                {{"lhs", B::add(B::ap(-1), B::imm("1"))}, {"rhs", B::imm("8")}, {"dst", B::ap(0)}})
            .hint("TestLessThanOrEqual",
                  {{"lhs", B::deref(B::ap(-1))}, {"rhs", B::imm("7")}, {"dst", B::ap(1)}})
            .reserve(2)
            .returnBuiltins(1);
        const Cairo1Run run = runExecutable(body.executable({"output"}), {}, false);
        QVERIFY(cellOf(run, 1, 1) == Value(Felt::zero()));
        QVERIFY(cellOf(run, 1, 2) == Value(Felt::one()));
        // Addresses: base + 5 <= base is false, base <= base + 5 true.
        Cairo1Body addresses;
        addresses.hint("AllocSegment", {{"dst", B::ap(0)}})
            .hint("TestLessThanOrEqualAddress", {{"lhs", B::add(B::ap(0), B::imm("5"))},
                                                 {"rhs", B::deref(B::ap(0))},
                                                 {"dst", B::ap(1)}})
            .hint("TestLessThanOrEqualAddress", {{"lhs", B::deref(B::ap(0))},
                                                 {"rhs", B::add(B::ap(0), B::imm("5"))},
                                                 {"dst", B::ap(2)}})
            .reserve(3)
            .returnBuiltins(1);
        const Cairo1Run both = runExecutable(addresses.executable({"output"}), {}, false);
        QVERIFY(cellOf(both, 1, 0).isAddress());
        QVERIFY(cellOf(both, 1, 1) == Value(Felt::zero()));
        QVERIFY(cellOf(both, 1, 2) == Value(Felt::one()));
    }

    void arithmetic() {
        using B = Cairo1Body;
        // (2^127 + 3) * 2^64 = 2^191 + 3 * 2^64: high 2^63, low 3 * 2^64.
        auto cells = hintCells("WideMul128",
                               {{"lhs", B::imm("0x80000000000000000000000000000003")},
                                {"rhs", B::imm("0x10000000000000000")},
                                {"high", B::ap(0)},
                                {"low", B::ap(1)}},
                               2);
        QVERIFY(cells[0] == Value(felt("0x8000000000000000")));
        QVERIFY(cells[1] == Value(felt("0x30000000000000000")));
        cells = hintCells("DivMod",
                          {{"lhs", B::imm("100")},
                           {"rhs", B::imm("7")},
                           {"quotient", B::ap(0)},
                           {"remainder", B::ap(1)}},
                          2);
        QVERIFY(cells[0] == Value(Felt::fromU64(14)) && cells[1] == Value(Felt::fromU64(2)));
        // (2^128 + 10) / 3: 2^128 = 1 (mod 3), so remainder 2, quotient (2^128 + 8) / 3.
        cells = hintCells("Uint256DivMod",
                          {{"dividend0", B::imm("10")},
                           {"dividend1", B::imm("1")},
                           {"divisor0", B::imm("3")},
                           {"divisor1", B::imm("0")},
                           {"quotient0", B::ap(0)},
                           {"quotient1", B::ap(1)},
                           {"remainder0", B::ap(2)},
                           {"remainder1", B::ap(3)}},
                          4);
        QVERIFY(cells[0] == Value(felt("0x55555555555555555555555555555558")));
        QVERIFY(cells[1] == Value(Felt::zero()) && cells[2] == Value(Felt::fromU64(2)) &&
                cells[3] == Value(Felt::zero()));
        // (2^384 + 7) / 2^128 = 2^256 remainder 7.
        nlohmann::json fields = {{"dividend0", B::imm("7")}, {"dividend1", B::imm("0")},
                                 {"dividend2", B::imm("0")}, {"dividend3", B::imm("1")},
                                 {"divisor0", B::imm("0")},  {"divisor1", B::imm("1")}};
        for (int i = 0; i < 4; ++i) {
            fields["quotient" + std::to_string(i)] = B::ap(i);
        }
        fields["remainder0"] = B::ap(4);
        fields["remainder1"] = B::ap(5);
        cells = hintCells("Uint512DivModByUint256", fields, 6);
        const std::vector<std::uint64_t> expected = {0, 0, 1, 0, 7, 0};
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QVERIFY2(cells[i] == Value(Felt::fromU64(expected[i])), std::to_string(i).c_str());
        }
        cells = hintCells("LinearSplit",
                          {{"value", B::imm("1000")},
                           {"scalar", B::imm("300")},
                           {"max_x", B::imm("2")},
                           {"x", B::ap(0)},
                           {"y", B::ap(1)}},
                          2);
        QVERIFY(cells[0] == Value(Felt::fromU64(2)) && cells[1] == Value(Felt::fromU64(400)));
        // U256InvModN: 3^-1 mod 7 = 5, k = (5 * 3 - 1) / 7 = 2; n = 1 and gcd 3 have no inverse.
        const auto inverse = [](const char* b, const char* n) {
            return hintCells("U256InvModN",
                             {{"b0", B::imm(b)},
                              {"b1", B::imm("0")},
                              {"n0", B::imm(n)},
                              {"n1", B::imm("0")},
                              {"g0_or_no_inv", B::ap(0)},
                              {"g1_option", B::ap(1)},
                              {"s_or_r0", B::ap(2)},
                              {"s_or_r1", B::ap(3)},
                              {"t_or_k0", B::ap(4)},
                              {"t_or_k1", B::ap(5)}},
                             6);
        };
        cells = inverse("3", "7");
        QVERIFY(cells[0] == Value(Felt::zero()) && cells[2] == Value(Felt::fromU64(5)) &&
                cells[4] == Value(Felt::fromU64(2)));
        QVERIFY(cells[1] == Value(felt("0xdead"))); // not written on this branch
        cells = inverse("6", "9");                  // gcd 3: s = 2, t = 3
        QVERIFY(cells[0] == Value(Felt::fromU64(3)) && cells[1] == Value(Felt::zero()) &&
                cells[2] == Value(Felt::fromU64(2)) && cells[4] == Value(Felt::fromU64(3)));
        cells = inverse("5", "1");
        QVERIFY(cells[0] == Value(Felt::one()) && cells[2] == Value(Felt::fromU64(5)) &&
                cells[4] == Value(Felt::one()));
    }

    void squareRoots() {
        using B = Cairo1Body;
        QVERIFY(hintCells("SquareRoot", {{"value", B::imm("1000001")}, {"dst", B::ap(0)}}, 1)[0] ==
                Value(Felt::fromU64(1000)));
        // Uint256SquareRoot of high·2^128 + low: sqrt0, sqrt1, remainder low and high, flag.
        const auto uint256SquareRoot = [](const char* low, const char* high) {
            return hintCells("Uint256SquareRoot",
                             {{"value_low", B::imm(low)},
                              {"value_high", B::imm(high)},
                              {"sqrt0", B::ap(0)},
                              {"sqrt1", B::ap(1)},
                              {"remainder_low", B::ap(2)},
                              {"remainder_high", B::ap(3)},
                              {"sqrt_mul_2_minus_remainder_ge_u128", B::ap(4)}},
                             5);
        };
        // 2^256 - 1: root 2^128 - 1 (64-bit halves all ones), remainder 2^129 - 2, flag 0.
        auto cells = uint256SquareRoot("0xffffffffffffffffffffffffffffffff",
                                       "0xffffffffffffffffffffffffffffffff");
        QVERIFY(cells[0] == Value(felt("0xffffffffffffffff")) &&
                cells[1] == Value(felt("0xffffffffffffffff")));
        QVERIFY(cells[2] == Value(felt("0xfffffffffffffffffffffffffffffffe")) &&
                cells[3] == Value(Felt::one()) && cells[4] == Value(Felt::zero()));
        // 2^128: root 2^64, no remainder, 2 * 2^64 < 2^128.
        cells = uint256SquareRoot("0", "1");
        QVERIFY(cells[0] == Value(Felt::zero()) && cells[1] == Value(Felt::one()) &&
                cells[2] == Value(Felt::zero()) && cells[4] == Value(Felt::zero()));
        // FieldSqrt: 4 is a square (root 2); 3 is not, so the root of 9, the lower one.
        QVERIFY(hintCells("FieldSqrt", {{"val", B::imm("4")}, {"sqrt", B::ap(0)}}, 1)[0] ==
                Value(Felt::fromU64(2)));
        QVERIFY(hintCells("FieldSqrt", {{"val", B::imm("3")}, {"sqrt", B::ap(0)}}, 1)[0] ==
                Value(Felt::fromU64(3)));
    }

    void curvePointsAndBoxes() {
        using B = Cairo1Body;
        const auto point = hintCells("RandomEcPoint", {{"x", B::ap(0)}, {"y", B::ap(1)}}, 2);
        const Felt x = point[0].felt();
        const Felt y = point[1].felt();
        const Felt beta = felt("0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89");
        QVERIFY(y * y == x * x * x + x + beta); // on the STARK curve
        // AllocConstantSize: one segment, bumped by each size.
        const auto boxes =
            hintCells("AllocConstantSize", {{"size", B::imm("8")}, {"dst", B::ap(0)}}, 1);
        QVERIFY(boxes[0].isAddress() && boxes[0].address().offset == 0);
        Cairo1Body two;
        two.hint("AllocConstantSize", {{"size", B::imm("8")}, {"dst", B::ap(0)}})
            .hint("AllocConstantSize", {{"size", B::imm("2")}, {"dst", B::ap(1)}})
            .reserve(2)
            .returnBuiltins(1);
        const Cairo1Run run = runExecutable(two.executable({"output"}), {}, false);
        QCOMPARE(cellOf(run, 1, 1).address(), cellOf(run, 1, 0).address() + 8);
    }

    // The dictionary family at the hint level: entries tracked per dictionary, a squash walked
    // key by key, and the arcs of a felt comparison.
    void dictionariesAndSquashing() {
        using B = Cairo1Body;
        const cairo1::HintTable& table = cairo1::hintTable();
        const auto compile = [&](const std::string& name, const nlohmann::json& fields) {
            return table.at(name)(fields);
        };
        Memory memory;
        memory.addSegment(); // program
        memory.addSegment(); // execution
        const Relocatable infos = memory.addSegment();
        const Relocatable arena = memory.addSegment();
        const Relocatable rangeCheck = memory.addSegment();
        memory.set(arena, infos);
        memory.set(arena + 1, Felt::zero()); // no dictionaries yet
        Vm vm(memory, 1);
        vm.ap = vm.fp = {1, 0};
        std::vector<std::unique_ptr<BuiltinRunner>> builtins;
        cairo1::RunIo io;
        cairo1::HintState state;
        state.io = &io;
        cairo1::HintContext context(vm, builtins, state);

        memory.set({1, 0}, arena + 3);
        compile("AllocFelt252Dict", {{"segment_arena_ptr", B::deref(B::ap(0))}})(context);
        const Value dictValue = memory.get(infos);
        QVERIFY(dictValue.isAddress() && dictValue.address().segment > 0); // the first is real
        const Relocatable dict = dictValue.address();
        // Accesses (key, previous, new): 5 -> 10, 5 -> 11, 2 -> 7.
        const std::vector<std::array<std::uint64_t, 2>> accesses = {{5, 10}, {5, 11}, {2, 7}};
        for (std::size_t i = 0; i < accesses.size(); ++i) {
            const Relocatable entry = dict + static_cast<std::int64_t>(3 * i);
            memory.set({1, 1 + 2 * i}, entry);
            compile("Felt252DictEntryInit",
                    {{"dict_ptr", B::deref(B::ap(static_cast<int>(1 + 2 * i)))},
                     {"key", B::imm(std::to_string(accesses[i][0]))}})(context);
            memory.set(entry, Felt::fromU64(accesses[i][0]));
            memory.set(entry + 2, Felt::fromU64(accesses[i][1]));
            memory.set({1, 2 + 2 * i}, entry + 3);
            compile("Felt252DictEntryUpdate",
                    {{"dict_ptr", B::deref(B::ap(static_cast<int>(2 + 2 * i)))},
                     {"value", B::imm(std::to_string(accesses[i][1]))}})(context);
        }
        QVERIFY(memory.get(dict + 1) == Value(Felt::zero()));      // 5 was new
        QVERIFY(memory.get(dict + 4) == Value(Felt::fromU64(10))); // 5 held 10
        QVERIFY(memory.get(dict + 7) == Value(Felt::zero()));      // 2 was new
        compile("GetSegmentArenaIndex",
                {{"dict_end_ptr", B::deref(B::ap(6))}, {"dict_index", B::ap(7)}})(context);
        QVERIFY(memory.get({1, 7}) == Value(Felt::zero()));
        // A second dictionary lives in a temporary segment the wrapper relocates later.
        const Relocatable arena2 = memory.addSegment();
        memory.set(arena2, infos);
        memory.set(arena2 + 1, Felt::one());
        memory.set({1, 8}, arena2 + 3);
        compile("AllocFelt252Dict", {{"segment_arena_ptr", B::deref(B::ap(8))}})(context);
        QVERIFY(memory.get(infos + 3).address().segment < 0);

        // Squash: keys ascending (2, then 5); 5's accesses at indices 0 and 1.
        memory.set({1, 9}, dict);
        compile("InitSquashData", {{"dict_accesses", B::deref(B::ap(9))},
                                   {"n_accesses", B::imm("3")},
                                   {"big_keys", B::ap(10)},
                                   {"first_key", B::ap(11)}})(context);
        QVERIFY(memory.get({1, 10}) == Value(Felt::zero()));
        QVERIFY(memory.get({1, 11}) == Value(Felt::fromU64(2)));
        memory.set({1, 12}, rangeCheck);
        compile("GetCurrentAccessIndex", {{"range_check_ptr", B::deref(B::ap(12))}})(context);
        QVERIFY(memory.get(rangeCheck) == Value(Felt::fromU64(2)));
        compile("ShouldSkipSquashLoop", {{"should_skip_loop", B::ap(13)}})(context);
        QVERIFY(memory.get({1, 13}) == Value(Felt::one()));
        compile("GetNextDictKey", {{"next_key", B::ap(14)}})(context);
        QVERIFY(memory.get({1, 14}) == Value(Felt::fromU64(5)));
        memory.set({1, 15}, rangeCheck + 1);
        compile("GetCurrentAccessIndex", {{"range_check_ptr", B::deref(B::ap(15))}})(context);
        QVERIFY(memory.get(rangeCheck + 1) == Value(Felt::zero()));
        compile("ShouldSkipSquashLoop", {{"should_skip_loop", B::ap(16)}})(context);
        QVERIFY(memory.get({1, 16}) == Value(Felt::zero()));
        compile("GetCurrentAccessDelta", {{"index_delta_minus1", B::ap(17)}})(context);
        QVERIFY(memory.get({1, 17}) == Value(Felt::zero())); // 1 - 0 - 1
        compile("ShouldContinueSquashLoop", {{"should_continue", B::ap(18)}})(context);
        QVERIFY(memory.get({1, 18}) == Value(Felt::zero()));
        QVERIFY_THROWS_EXCEPTION(VmError, compile("GetNextDictKey", {{"next_key", B::ap(19)}})(
                                              context)); // no key after the last

        // a = 3 <= b = 10: arcs 3, 7 and p - 11; the long one (third) is excluded.
        memory.set({1, 20}, rangeCheck + 2);
        compile("AssertLeFindSmallArcs", {{"range_check_ptr", B::deref(B::ap(20))},
                                          {"a", B::imm("3")},
                                          {"b", B::imm("10")}})(context);
        QVERIFY(memory.get(rangeCheck + 2) == Value(Felt::fromU64(3)));
        QVERIFY(memory.get(rangeCheck + 3) == Value(Felt::zero()));
        QVERIFY(memory.get(rangeCheck + 4) == Value(Felt::fromU64(7)));
        QVERIFY(memory.get(rangeCheck + 5) == Value(Felt::zero()));
        compile("AssertLeIsFirstArcExcluded", {{"skip_exclude_a_flag", B::ap(21)}})(context);
        compile("AssertLeIsSecondArcExcluded", {{"skip_exclude_b_minus_a", B::ap(22)}})(context);
        QVERIFY(memory.get({1, 21}) == Value(Felt::one()));
        QVERIFY(memory.get({1, 22}) == Value(Felt::one()));
        // a = p - 5 <= b = p - 2: arcs p - 5, 3 and 1; the first (a itself) is excluded.
        memory.set({1, 23}, rangeCheck + 6);
        compile("AssertLeFindSmallArcs", {{"range_check_ptr", B::deref(B::ap(23))},
                                          {"a", B::imm("-5")},
                                          {"b", B::imm("-2")}})(context);
        QVERIFY(memory.get(rangeCheck + 6) == Value(Felt::one()));
        QVERIFY(memory.get(rangeCheck + 8) == Value(Felt::fromU64(3)));
        compile("AssertLeIsFirstArcExcluded", {{"skip_exclude_a_flag", B::ap(24)}})(context);
        QVERIFY(memory.get({1, 24}) == Value(Felt::zero()));
    }

    // EvalCircuit on (a, b) mod p: reductions 1·a and 1·b, a + b, a − b (a sub gate: the add
    // gate run backwards), a·b, then the inverse of a·b; the mod builtins' instances filled for
    // the gates computed.
    void circuits() {
        using B = Cairo1Body;
        struct Outcome {
            std::vector<std::uint64_t> results; // values 5..8: a + b, a·b, (a·b)^-1, a − b
            std::uint64_t mulGates = 0;         // mul_mod[6]: the gates computed
        };
        const auto evaluate = [](std::uint64_t p, std::uint64_t a, std::uint64_t b) {
            Memory memory;
            memory.addSegment();
            memory.addSegment();
            const Relocatable values = memory.addSegment();
            const Relocatable addOffsets = memory.addSegment();
            const Relocatable mulOffsets = memory.addSegment();
            const Relocatable addMod = memory.addSegment();
            const Relocatable mulMod = memory.addSegment();
            const auto setValue = [&](std::int64_t slot, std::uint64_t value) {
                for (int w = 0; w < 4; ++w) {
                    memory.set(values + (4 * slot + w), Felt::fromU64(w == 0 ? value : 0));
                }
            };
            setValue(0, 1);
            setValue(1, a);
            setValue(2, b);
            const std::vector<std::uint64_t> adds = {12, 16, 20, 32, 16, 12};
            const std::vector<std::uint64_t> muls = {0, 4, 12, 0, 8, 16, 12, 16, 24, 28, 24, 0};
            for (std::size_t i = 0; i < adds.size(); ++i) {
                memory.set(addOffsets + static_cast<std::int64_t>(i), Felt::fromU64(adds[i]));
            }
            for (std::size_t i = 0; i < muls.size(); ++i) {
                memory.set(mulOffsets + static_cast<std::int64_t>(i), Felt::fromU64(muls[i]));
            }
            for (const auto& [builtin, offsets] :
                 {std::pair{addMod, addOffsets}, std::pair{mulMod, mulOffsets}}) {
                memory.set(builtin, Felt::fromU64(p));
                for (int w = 1; w < 4; ++w) {
                    memory.set(builtin + w, Felt::zero());
                }
                memory.set(builtin + 4, values);
                memory.set(builtin + 5, offsets);
            }
            memory.set(addMod + 6, Felt::fromU64(2));
            Vm vm(memory, 1);
            vm.ap = vm.fp = {1, 0};
            memory.set({1, 0}, addMod);
            memory.set({1, 1}, mulMod);
            std::vector<std::unique_ptr<BuiltinRunner>> builtins;
            cairo1::RunIo io;
            cairo1::HintState state;
            state.io = &io;
            cairo1::HintContext context(vm, builtins, state);
            cairo1::hintTable().at("EvalCircuit")({{"n_add_mods", B::imm("2")},
                                                   {"add_mod_builtin", B::deref(B::ap(0))},
                                                   {"n_mul_mods", B::imm("4")},
                                                   {"mul_mod_builtin", B::deref(B::ap(1))}})(
                context);
            Outcome outcome;
            for (std::int64_t slot = 5; slot <= 8; ++slot) {
                outcome.results.push_back(memory.get(values + 4 * slot).felt().low64());
            }
            outcome.mulGates = memory.get(mulMod + 6).felt().low64();
            // The second add instance names its gate; the last mul instance computed says 1 left.
            if (!(memory.get(addMod + 12) == Value(addOffsets + 3)) ||
                !(memory.get(addMod + 13) == Value(Felt::one())) ||
                !(memory.get(mulMod + 7 * static_cast<std::int64_t>(outcome.mulGates - 1) + 6) ==
                  Value(Felt::one()))) {
                outcome.mulGates = 999;
            }
            return outcome;
        };
        // p = 11, a = 5, b = 7: 12 = 1, 35 = 2, 2^-1 = 6, 5 − 7 = 9.
        const Outcome invertible = evaluate(11, 5, 7);
        QVERIFY(invertible.results == (std::vector<std::uint64_t>{1, 2, 6, 9}));
        QCOMPARE(invertible.mulGates, std::uint64_t(4));
        // p = 12, a = 5, b = 2: 7, 10, and 10 has no inverse: its nullifier 12 / gcd(10, 12) = 6
        // is written, and only the 3 gates before it count.
        const Outcome failing = evaluate(12, 5, 2);
        QVERIFY(failing.results == (std::vector<std::uint64_t>{7, 10, 6, 3}));
        QCOMPARE(failing.mulGates, std::uint64_t(3));
    }

    void externalHints() {
        using B = Cairo1Body;
        // Blake2sCompress (compiler 2.11): BLAKE2s-256("abc") in one finalizing block.
        Cairo1Body body = blakeOfAbc();
        body.hint("AllocConstantSize", {{"size", B::imm("8")}, {"dst", B::ap(0)}})
            .hint("Blake2sCompress", {{"state", B::deref(B::fp(0))},
                                      {"byte_count", B::deref(B::ap(-1))},
                                      {"message", B::deref(B::fp(1))},
                                      {"output", B::deref(B::ap(0))},
                                      {"finalize", B::imm("1")}})
            .reserve(1);
        const int outputCell = body.depth - 1;
        body.returnBuiltins(1);
        const Cairo1Run run = runExecutable(body.executable({"output"}), {}, false);
        const Relocatable digest = cellOf(run, 1, outputCell).address();
        // 508c5e8c 327c14e2 ... (RFC 7693 appendix B), as little-endian words.
        QVERIFY(run.runner->memory().get(digest) == Value(Felt::fromU64(0x8c5e8c50)));
        QVERIFY(run.runner->memory().get(digest + 1) == Value(Felt::fromU64(0xe2147c32)));

        // DebugPrint prints and writes nothing; AddTrace is a no-op; a Starknet syscall refuses.
        Cairo1Body debug;
        debug.hint("AllocSegment", {{"dst", B::ap(0)}})
            .reserve(1)
            .hint("DebugPrint", {{"start", B::deref(B::fp(0))}, {"end", B::deref(B::fp(0))}})
            .hint("AddTrace", {{"flag", B::imm("0x70616e6963")}})
            .reserve(0)
            .returnBuiltins(1);
        runExecutable(debug.executable({"output"}), {}, false);
        Cairo1Body syscall;
        syscall.hint("SystemCall", {{"system", B::deref(B::fp(-3))}}).reserve(0).returnBuiltins(1);
        try {
            runExecutable(syscall.executable({"output"}), {}, false);
            QFAIL("a syscall ran");
        } catch (const VmError& error) {
            QVERIFY2(std::string(error.what()).find("SystemCall") != std::string::npos &&
                         std::string(error.what()).find("not a contract") != std::string::npos,
                     error.what());
        }
        // A hint the compiler never had fails at its pc, naming it.
        Cairo1Body unknown;
        unknown.hint("MakeItSo", nlohmann::json::object()).reserve(0).returnBuiltins(1);
        try {
            runExecutable(unknown.executable({"output"}), {}, false);
            QFAIL("an unknown hint ran");
        } catch (const VmError& error) {
            QVERIFY2(std::string(error.what()).find("unknown Cairo 1 hint MakeItSo at pc 6") !=
                         std::string::npos,
                     error.what());
        }
    }

    // The Blake opcode (compiler 2.12 and later) runs in the VM: blake2s[state = [fp + 0],
    // message = [fp + 1], byte_count = [fp + 2]] => [[ap] .. [ap] + 8), ap++.
    void blakeOpcode() {
        using B = Cairo1Body;
        Cairo1Body body = blakeOfAbc();
        const int countCell = body.depth - 1;
        // off0 = count (fp), off1 = state [fp + 0], off2 = message [fp + 1]; flags: dst fp,
        // op0 fp, op1 fp, ap++; opcode extension 2 (BlakeFinalize) above bit 63.
        const std::uint64_t low =
            test::Asm::encode(countCell, 0, 1, 1u | 2u | (1u << 3) | (1u << 11));
        body.hint("AllocConstantSize", {{"size", B::imm("8")}, {"dst", B::ap(0)}});
        char word[40];
        std::snprintf(word, sizeof word, "0x1%016llx", static_cast<unsigned long long>(low));
        body.code.words.push_back(word);
        QCOMPARE(decodeInstruction(felt(word)).extension, Instruction::Extension::BlakeFinalize);
        const int outputCell = body.depth; // [ap] when the instruction runs
        ++body.depth;
        body.returnBuiltins(1);
        const Cairo1Run run = runExecutable(body.executable({"output"}), {}, false);
        const Relocatable digest = cellOf(run, 1, outputCell).address();
        QVERIFY(run.runner->memory().get(digest) == Value(Felt::fromU64(0x8c5e8c50)));
        QVERIFY(run.runner->memory().get(digest + 7) == Value(Felt::fromU64(0x82596786)));
        QCOMPARE(run.runner->vm().extendedSteps(), std::uint64_t(1));
        // The encoder's vectors (cairo-lang-casm): Blake and BlakeFinalize with message = [ap].
        QCOMPARE(decodeInstruction(felt("0x8813800080007fff")).extension,
                 Instruction::Extension::Blake);
        QCOMPARE(decodeInstruction(felt("0x10813800080007fff")).extension,
                 Instruction::Extension::BlakeFinalize);
        QCOMPARE(decodeInstruction(felt("0x1c80a7ffd7fff8000")).extension,
                 Instruction::Extension::QM31);
        QVERIFY_THROWS_EXCEPTION(VmError, decodeInstruction(felt("0x20813800080007fff")));
        // A Blake extension on a call is not an instruction.
        QVERIFY_THROWS_EXCEPTION(VmError, decodeInstruction(felt("0x9104800180018000")));
    }
};

QTEST_GUILESS_MAIN(Cairo1HintsTest)
#include "tst_cairo1_hints.moc"
