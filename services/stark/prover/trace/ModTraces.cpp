#include "TraceComponents.h"

#include "cairo/vm/ModBuiltin.h"
#include "crypto/BigInt.h"

// The trace writers of the add_mod and mul_mod builtins (batch size 1, four 96-bit words per
// number), mirroring air/components/ModBuiltins.cpp. Every instance the trace holds is written:
// the run's, read from its memory, then padding instances 0 + 0 = 0 (mod 0) whose pointers name
// the run's zero segment (the private input's zero_value_address).

namespace proofdesk::stark {
namespace {

using crypto::BigInt;

constexpr std::uint64_t kWords = 4;
constexpr std::uint64_t kInstanceCells = 7; // p0..p3, values_ptr, offsets_ptr, n
constexpr int kWordBits = 96;

using Number = std::array<Fp, kWords>;

// One instance and its operation, as the AIR reads them.
struct ModOperation {
    Number p{};
    std::uint64_t valuesPtr = 0;
    std::uint64_t offsetsPtr = 0;
    std::uint64_t n = 1;
    std::array<std::uint64_t, 3> offsets{};
    std::array<Number, 3> values{}; // a, b, c
};

ModOperation readOperation(const CairoRun& run, const std::string& what, std::uint64_t address) {
    ModOperation op;
    for (std::uint64_t w = 0; w < kWords; ++w) {
        op.p[w] = memoryAt(run, address + w, what);
    }
    op.valuesPtr = smallValue(memoryAt(run, address + 4, what), what + "'s values_ptr");
    op.offsetsPtr = smallValue(memoryAt(run, address + 5, what), what + "'s offsets_ptr");
    op.n = smallValue(memoryAt(run, address + 6, what), what + "'s n");
    for (std::uint64_t j = 0; j < 3; ++j) {
        op.offsets[j] =
            smallValue(memoryAt(run, op.offsetsPtr + j, what), what + "'s operand offset");
        for (std::uint64_t w = 0; w < kWords; ++w) {
            op.values[j][w] = memoryAt(run, op.valuesPtr + op.offsets[j] + w, what);
        }
    }
    return op;
}

// The cells of instance i: its own seven at `address`, its three offsets and twelve words.
void writeMemory(TraceTable& trace, const std::string& name, std::uint64_t i, std::uint64_t address,
                 const ModOperation& op) {
    const auto cell = [&](const std::string& cellName, std::uint64_t at, const Fp& value) {
        const std::string column = name + "/" + cellName;
        trace.memory(column + "/addr", column + "/value", i, at, value);
    };
    for (std::uint64_t w = 0; w < kWords; ++w) {
        cell("p" + std::to_string(w), address + w, op.p[w]);
    }
    cell("values_ptr", address + 4, Fp::fromU64(op.valuesPtr));
    cell("offsets_ptr", address + 5, Fp::fromU64(op.offsetsPtr));
    cell("n", address + 6, Fp::fromU64(op.n));
    const char* operands[] = {"a", "b", "c"};
    for (std::uint64_t j = 0; j < 3; ++j) {
        const std::string operand = operands[j];
        cell(operand + "_offset", op.offsetsPtr + j, Fp::fromU64(op.offsets[j]));
        for (std::uint64_t w = 0; w < kWords; ++w) {
            cell(operand + std::to_string(w), op.valuesPtr + op.offsets[j] + w, op.values[j][w]);
        }
    }
}

BigInt wordValue(const Fp& word, const std::string& what) {
    const BigInt value = BigInt::fromFelt(word.toFelt());
    if (value >= BigInt::powerOfTwo(kWordBits)) {
        throw TraceError(what + " has a word of " + std::to_string(value.bitLength()) +
                         " bits (at most 96)");
    }
    return value;
}

BigInt numberValue(const Number& words, const std::string& what) {
    BigInt value;
    for (std::uint64_t w = kWords; w-- > 0;) {
        value = (value << kWordBits) + wordValue(words[w], what);
    }
    return value;
}

// add_mod: a + b = c + sub_p·p, and the carries out of words 0..2 (−1, 0 or 1) as bit and sign.
void writeAddition(TraceTable& trace, std::uint64_t i, const ModOperation& op,
                   const std::string& what) {
    const BigInt a = numberValue(op.values[0], what + "'s a");
    const BigInt b = numberValue(op.values[1], what + "'s b");
    const BigInt c = numberValue(op.values[2], what + "'s c");
    const BigInt p = numberValue(op.p, what + "'s p");
    bool subP = false;
    if (a + b != c) {
        if (a + b != c + p) {
            throw TraceError(what + " does not hold: a + b is neither c nor c + p");
        }
        subP = true;
    }
    trace.set("add_mod/sub_p_bit", i, subP ? Fp::one() : Fp::zero());
    const BigInt unit = BigInt::powerOfTwo(kWordBits);
    BigInt carry;
    for (std::uint64_t w = 0; w < kWords; ++w) {
        BigInt sum = BigInt::fromFelt(op.values[0][w].toFelt()) +
                     BigInt::fromFelt(op.values[1][w].toFelt()) -
                     BigInt::fromFelt(op.values[2][w].toFelt()) + carry;
        if (subP) {
            sum = sum - BigInt::fromFelt(op.p[w].toFelt());
        }
        if (w == kWords - 1) {
            if (!sum.isZero()) {
                throw TraceError(what + " leaves a carry past its top word");
            }
            break;
        }
        const std::string k = std::to_string(w + 1);
        if (sum.isZero()) {
            carry = 0;
        } else if (sum == unit || sum == -unit) {
            carry = sum.isNegative() ? -1 : 1;
        } else {
            throw TraceError(what + ": the carry out of word " + std::to_string(w) +
                             " is not -1, 0 or 1");
        }
        trace.set("add_mod/carry" + k + "_bit", i, carry.isZero() ? Fp::zero() : Fp::one());
        trace.set("add_mod/carry" + k + "_sign", i, carry.isNegative() ? -Fp::one() : Fp::one());
    }
}

// mul_mod: k = (a·b − c)/p and the carries, as 16-bit parts in the range-check pool.
void writeMultiplication(TraceTable& trace, std::uint64_t i, const ModOperation& op,
                         const std::string& what) {
    cairo::MulModParts parts;
    try {
        parts = cairo::mulModParts(
            numberValue(op.p, what + "'s p"), numberValue(op.values[0], what + "'s a"),
            numberValue(op.values[1], what + "'s b"), numberValue(op.values[2], what + "'s c"));
    } catch (const cairo::VmError& error) {
        throw TraceError(what + ": " + error.what());
    }
    for (std::size_t w = 0; w < parts.multiplier.size(); ++w) {
        for (std::size_t j = 0; j < parts.multiplier[w].size(); ++j) {
            trace.rangeCheck("mul_mod/p_multiplier" + std::to_string(w) + "/part" +
                                 std::to_string(j),
                             i, parts.multiplier[w][j]);
        }
    }
    for (std::size_t w = 0; w < parts.carries.size(); ++w) {
        for (std::size_t j = 0; j < parts.carries[w].size(); ++j) {
            trace.rangeCheck("mul_mod/carry" + std::to_string(w) + "/part" + std::to_string(j), i,
                             parts.carries[w][j]);
        }
    }
}

void writeModBuiltin(TraceTable& trace, const CairoRun& run, const std::string& name) {
    const MemorySegment& segment = builtinSegment(run, name);
    const std::uint64_t instances = trace.instances(name + "/p0/addr");
    const std::uint64_t usedCells = segment.stop - segment.begin;
    if (segment.stop < segment.begin || usedCells % kInstanceCells != 0) {
        throw TraceError("the " + name + " segment's size is not a whole number of instances");
    }
    const std::uint64_t used = usedCells / kInstanceCells;
    if (used > instances) {
        throw TraceError("the run has " + std::to_string(used) + " " + name +
                         " instances but the trace holds " + std::to_string(instances) +
                         "; prove with more steps");
    }
    ModOperation padding;
    if (used < instances) {
        const nlohmann::json* zeros = nullptr;
        if (run.privateInput.contains(name) && run.privateInput[name].is_object() &&
            run.privateInput[name].contains("zero_value_address")) {
            zeros = &run.privateInput[name]["zero_value_address"];
        }
        if (!zeros || !zeros->is_number_unsigned()) {
            throw TraceError("the private input's " + name +
                             " has no zero_value_address, where the trace's unused instances "
                             "read their zeros (cairo-run writes it)");
        }
        padding.valuesPtr = padding.offsetsPtr = zeros->get<std::uint64_t>();
        for (std::uint64_t k = 0; k < kWords; ++k) {
            const std::string what = "the zero segment";
            if (memoryAt(run, padding.valuesPtr + k, what) != Fp::zero()) {
                throw TraceError("the " + name + " zero_value_address " +
                                 std::to_string(padding.valuesPtr) + " does not hold four zeros");
            }
        }
    }
    const bool multiplication = name == "mul_mod";
    for (std::uint64_t i = 0; i < instances; ++i) {
        const std::uint64_t address = segment.begin + kInstanceCells * i;
        const std::string what = "the " + name + " instance " + std::to_string(i);
        const ModOperation op = i < used ? readOperation(run, what, address) : padding;
        writeMemory(trace, name, i, address, op);
        if (multiplication) {
            writeMultiplication(trace, i, op, what);
        } else {
            writeAddition(trace, i, op, what);
        }
    }
}

} // namespace

void writeAddMod(TraceTable& trace, const CairoRun& run) {
    writeModBuiltin(trace, run, "add_mod");
}

void writeMulMod(TraceTable& trace, const CairoRun& run) {
    writeModBuiltin(trace, run, "mul_mod");
}

} // namespace proofdesk::stark
