#include "TraceComponents.h"

namespace proofdesk::stark {

std::uint64_t smallValue(const Fp& value, const std::string& what) {
    const crypto::Felt felt = value.toFelt();
    const auto& limbs = felt.limbs();
    if (limbs[1] != 0 || limbs[2] != 0 || limbs[3] != 0) {
        throw TraceError(what + " is not a 64-bit number");
    }
    return limbs[0];
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

void writeCpu(TraceTable& trace, const CairoRun& run) {
    const std::uint64_t steps = trace.instances("cpu/decode/pc");
    if (run.trace.size() != steps) {
        throw TraceError("the run has " + std::to_string(run.trace.size()) +
                         " steps but its public input says n_steps " + std::to_string(steps));
    }
    constexpr std::uint64_t kBias = std::uint64_t(1) << 15;
    const Fp bias = Fp::fromU64(kBias);
    for (std::uint64_t k = 0; k < steps; ++k) {
        const RegisterState& s = run.trace[k];
        const std::string where = "step " + std::to_string(k);
        const Fp instructionValue = memoryAt(run, s.pc, where + " (instruction)");
        const crypto::Felt instructionFelt = instructionValue.toFelt();
        const auto& limbs = instructionFelt.limbs();
        if ((limbs[0] >> 63) != 0 ||
            (limbs[1] <= 1 && limbs[1] != 0 && limbs[2] == 0 && limbs[3] == 0)) {
            throw TraceError(where + " runs an S-two opcode extension (Blake2s or QM31), which no "
                                     "Stone layout can prove: prove this program with S-two "
                                     "(stwo-cairo), or build it with Cairo 2.11, whose blake2s "
                                     "compiles to a hint");
        }
        const std::uint64_t instruction = smallValue(instructionValue, where + "'s instruction");
        const std::uint64_t off0 = instruction & 0xffff;
        const std::uint64_t off1 = (instruction >> 16) & 0xffff;
        const std::uint64_t off2 = (instruction >> 32) & 0xffff;
        const std::uint64_t flags = instruction >> 48;
        const auto flag = [&](int i) { return (flags >> i) & 1; };

        trace.memory("cpu/decode/mem_inst/addr", "cpu/decode/mem_inst/value", k, s.pc,
                     instructionValue);
        trace.rangeCheck("cpu/decode/off0", k, off0);
        trace.rangeCheck("cpu/decode/off1", k, off1);
        trace.rangeCheck("cpu/decode/off2", k, off2);
        for (std::uint64_t i = 0; i < 16; ++i) {
            trace.set("cpu/decode/opcode_range_check/column", 16 * k + i, flags >> i);
        }
        trace.set("cpu/registers/ap", k, s.ap);
        trace.set("cpu/registers/fp", k, s.fp);

        const std::uint64_t dstAddress = (flag(0) ? s.fp : s.ap) + off0 - kBias;
        const std::uint64_t op0Address = (flag(1) ? s.fp : s.ap) + off1 - kBias;
        const Fp dst = memoryAt(run, dstAddress, where + " (dst)");
        const Fp op0 = memoryAt(run, op0Address, where + " (op0)");
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
            smallValue(op1Base + Fp::fromU64(off2) - bias, where + "'s op1 address");
        const Fp op1 = memoryAt(run, op1Address, where + " (op1)");
        trace.memory("cpu/operands/mem_dst/addr", "cpu/operands/mem_dst/value", k, dstAddress, dst);
        trace.memory("cpu/operands/mem_op0/addr", "cpu/operands/mem_op0/value", k, op0Address, op0);
        trace.memory("cpu/operands/mem_op1/addr", "cpu/operands/mem_op1/value", k, op1Address, op1);

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
        trace.set("cpu/operands/ops_mul", k, opsMul);
        trace.set("cpu/operands/res", k, res);
        trace.set("cpu/update_registers/update_pc/tmp0", k, tmp0);
        trace.set("cpu/update_registers/update_pc/tmp1", k, tmp0 * res);
    }
}

} // namespace proofdesk::stark
