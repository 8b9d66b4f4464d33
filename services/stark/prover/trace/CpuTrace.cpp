#include "Parallel.h"
#include "TraceComponents.h"

#include <exception>
#include <mutex>
#include <optional>

namespace proofdesk::stark {

namespace {

// The value below 2^64 that a field element holds, if it does.
std::optional<std::uint64_t> smallOrNothing(const Fp& value) {
    const crypto::Felt felt = value.toFelt();
    const auto& limbs = felt.limbs();
    if (limbs[1] != 0 || limbs[2] != 0 || limbs[3] != 0) {
        return std::nullopt;
    }
    return limbs[0];
}

} // namespace

std::uint64_t smallValue(const Fp& value, const std::string& what) {
    if (const std::optional<std::uint64_t> small = smallOrNothing(value)) {
        return *small;
    }
    throw TraceError(what + " is not a 64-bit number");
}

Fp memoryAt(const CairoRun& run, std::uint64_t address, const std::string& what) {
    const auto value = run.at(address);
    if (!value) {
        throw TraceError(what + ": memory address " + std::to_string(address) +
                         " has no value in the run's memory file");
    }
    return *value;
}

const MemorySegment& builtinSegment(const CairoRun& run, const std::string& name) {
    const MemorySegment* segment = run.publicInput.segment(name);
    if (!segment) {
        throw TraceError("the public input has no memory segment for the " + name + " builtin");
    }
    return *segment;
}

namespace {

// The CPU component's columns, resolved once.
struct CpuColumns {
    explicit CpuColumns(TraceTable& trace)
        : instruction(trace.memoryColumns("cpu/decode/mem_inst/addr", "cpu/decode/mem_inst/value")),
          dst(trace.memoryColumns("cpu/operands/mem_dst/addr", "cpu/operands/mem_dst/value")),
          op0(trace.memoryColumns("cpu/operands/mem_op0/addr", "cpu/operands/mem_op0/value")),
          op1(trace.memoryColumns("cpu/operands/mem_op1/addr", "cpu/operands/mem_op1/value")),
          off0(trace.rangeChecked("cpu/decode/off0")), off1(trace.rangeChecked("cpu/decode/off1")),
          off2(trace.rangeChecked("cpu/decode/off2")),
          flags(trace.column("cpu/decode/opcode_range_check/column")),
          ap(trace.column("cpu/registers/ap")), fp(trace.column("cpu/registers/fp")),
          opsMul(trace.column("cpu/operands/ops_mul")), res(trace.column("cpu/operands/res")),
          tmp0(trace.column("cpu/update_registers/update_pc/tmp0")),
          tmp1(trace.column("cpu/update_registers/update_pc/tmp1")) {}

    TraceTable::MemoryColumns instruction, dst, op0, op1;
    TraceTable::PoolColumn off0, off1, off2;
    TraceTable::Column flags, ap, fp, opsMul, res, tmp0, tmp1;
};

// Step k's cells. The messages of its errors are built only when one is thrown.
void writeStep(const CpuColumns& cells, const CairoRun& run, std::uint64_t k) {
    constexpr std::uint64_t kBias = std::uint64_t(1) << 15;
    const RegisterState& s = run.trace[k];
    const auto where = [k] { return "step " + std::to_string(k); };
    const auto at = [&](std::uint64_t address, const char* operand) {
        if (const auto value = run.at(address)) {
            return *value;
        }
        return memoryAt(run, address, where() + " (" + operand + ")");
    };
    const auto small = [&](const Fp& value, const char* what) {
        if (const std::optional<std::uint64_t> number = smallOrNothing(value)) {
            return *number;
        }
        return smallValue(value, where() + what);
    };
    const Fp instructionValue = at(s.pc, "instruction");
    const crypto::Felt instructionFelt = instructionValue.toFelt();
    const auto& limbs = instructionFelt.limbs();
    if ((limbs[0] >> 63) != 0 ||
        (limbs[1] <= 1 && limbs[1] != 0 && limbs[2] == 0 && limbs[3] == 0)) {
        throw TraceError(where() + " runs an S-two opcode extension (Blake2s or QM31), which no "
                                   "Stone layout can prove: prove this program with S-two "
                                   "(stwo-cairo), or build it with Cairo 2.11, whose blake2s "
                                   "compiles to a hint");
    }
    const std::uint64_t instruction = small(instructionValue, "'s instruction");
    const std::uint64_t off0 = instruction & 0xffff;
    const std::uint64_t off1 = (instruction >> 16) & 0xffff;
    const std::uint64_t off2 = (instruction >> 32) & 0xffff;
    const std::uint64_t flags = instruction >> 48;
    const auto flag = [&](int i) { return (flags >> i) & 1; };

    cells.instruction.write(k, s.pc, instructionValue);
    cells.off0.write(k, Fp::fromU64(off0));
    cells.off1.write(k, Fp::fromU64(off1));
    cells.off2.write(k, Fp::fromU64(off2));
    for (std::uint64_t i = 0; i < 16; ++i) {
        cells.flags[16 * k + i] = Fp::fromU64(flags >> i);
    }
    cells.ap[k] = Fp::fromU64(s.ap);
    cells.fp[k] = Fp::fromU64(s.fp);

    const std::uint64_t dstAddress = (flag(0) ? s.fp : s.ap) + off0 - kBias;
    const std::uint64_t op0Address = (flag(1) ? s.fp : s.ap) + off1 - kBias;
    const Fp dst = at(dstAddress, "dst");
    const Fp op0 = at(op0Address, "op0");
    Fp op1Base;
    if (flag(2)) {
        op1Base = Fp::fromU64(s.pc);
    } else if (flag(4)) {
        op1Base = Fp::fromU64(s.ap);
    } else if (flag(3)) {
        op1Base = Fp::fromU64(s.fp);
    } else {
        op1Base = op0;
    }
    const std::uint64_t op1Address =
        small(op1Base + Fp::fromU64(off2) - Fp::fromU64(kBias), "'s op1 address");
    const Fp op1 = at(op1Address, "op1");
    cells.dst.write(k, dstAddress, dst);
    cells.op0.write(k, op0Address, op0);
    cells.op1.write(k, op1Address, op1);

    const Fp opsMul = op0 * op1;
    Fp res;
    if (flag(9)) { // jnz: res is dst's inverse (or 0), so that tmp1 says whether it jumps
        res = dst.isZero() ? Fp::zero() : dst.inverse();
    } else if (flag(5)) {
        res = op0 + op1;
    } else if (flag(6)) {
        res = opsMul;
    } else {
        res = op1;
    }
    const Fp tmp0 = flag(9) ? dst : Fp::zero();
    cells.opsMul[k] = opsMul;
    cells.res[k] = res;
    cells.tmp0[k] = tmp0;
    cells.tmp1[k] = tmp0 * res;
}

} // namespace

void writeCpu(TraceTable& trace, const CairoRun& run) {
    const std::uint64_t steps = trace.instances("cpu/decode/pc");
    if (run.trace.size() != steps) {
        throw TraceError("the run has " + std::to_string(run.trace.size()) +
                         " steps but its public input says n_steps " + std::to_string(steps));
    }
    const CpuColumns cells(trace);
    // Steps are written in parallel ranges; of the errors met, the earliest step's is thrown
    // (each range stops at its first), as a serial pass would.
    std::mutex failureMutex;
    std::uint64_t failedStep = steps;
    std::exception_ptr failure;
    Workers::shared().forRange(steps, 4096, [&](std::size_t begin, std::size_t end) {
        for (std::uint64_t k = begin; k < end; ++k) {
            try {
                writeStep(cells, run, k);
            } catch (...) {
                const std::lock_guard lock(failureMutex);
                if (k < failedStep) {
                    failedStep = k;
                    failure = std::current_exception();
                }
                return;
            }
        }
    });
    if (failure) {
        std::rethrow_exception(failure);
    }
}

} // namespace proofdesk::stark
