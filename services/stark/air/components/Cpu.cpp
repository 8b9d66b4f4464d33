#include "air/AirBuilder.h"

// The Cairo CPU (the Cairo paper, section 9): one step every 16 units of cpu_component_step rows.
// An instruction's 15 flags are unpacked from the 16 cells f_0 … f_15 of the opcode range-check
// column (f_i = Σ_{j≥i} bit_j·2^{j−i}, f_15 = 0), its three offsets are range-checked cells, and
// the registers, operands and the next step's registers are tied together by the constraints
// below, in the order Stone lists them.

namespace proofdesk::stark::air {

void addCpu(AirBuilder& b) {
    const std::uint64_t unit = b.layout().cpuComponentStep;
    const std::uint64_t step = b.layout().cpuRows();
    const std::string orc = "cpu/decode/opcode_range_check/column";
    const auto bit = [&](int i) { return b.at(orc, i) - b.at(orc, i + 1) * 2; };
    const Expr halfOffset = b.powerOfTwo(15);
    const Expr offsetSize = b.powerOfTwo(16);

    const Expr pc = b.at("cpu/decode/pc");
    const Expr instruction = b.at("cpu/decode/instruction");
    const Expr off0 = b.at("cpu/decode/off0");
    const Expr off1 = b.at("cpu/decode/off1");
    const Expr off2 = b.at("cpu/decode/off2");
    const Expr ap = b.at("cpu/registers/ap");
    const Expr fp = b.at("cpu/registers/fp");
    const Expr dstAddr = b.at("cpu/operands/mem_dst/addr");
    const Expr dst = b.at("cpu/operands/mem_dst/value");
    const Expr op0Addr = b.at("cpu/operands/mem_op0/addr");
    const Expr op0 = b.at("cpu/operands/mem_op0/value");
    const Expr op1Addr = b.at("cpu/operands/mem_op1/addr");
    const Expr op1 = b.at("cpu/operands/mem_op1/value");
    const Expr opsMul = b.at("cpu/operands/ops_mul");
    const Expr res = b.at("cpu/operands/res");
    const Expr tmp0 = b.at("cpu/update_registers/update_pc/tmp0");
    const Expr tmp1 = b.at("cpu/update_registers/update_pc/tmp1");
    const Expr nextPc = b.at("cpu/decode/pc", 1);
    const Expr nextAp = b.at("cpu/registers/ap", 1);
    const Expr nextFp = b.at("cpu/registers/fp", 1);

    const Expr dstReg = bit(0), op0Reg = bit(1), op1Imm = bit(2), op1Fp = bit(3), op1Ap = bit(4);
    const Expr resAdd = bit(5), resMul = bit(6), pcJumpAbs = bit(7), pcJumpRel = bit(8);
    const Expr pcJnz = bit(9), apAdd = bit(10), apAdd1 = bit(11), opCall = bit(12);
    const Expr opRet = bit(13), opAssertEq = bit(14);
    const Expr op1BaseOp0 = b.one() - (op1Imm + op1Ap + op1Fp);
    const Expr resOp1 = b.one() - (resAdd + resMul + pcJnz);
    const Expr pcUpdateRegular = b.one() - (pcJumpAbs + pcJumpRel + pcJnz);
    const Expr fpUpdateRegular = b.one() - (opCall + opRet);
    const Expr instructionSize = op1Imm + 1;
    const Expr npcReg = pc + instructionSize;

    const Domain everyStep = {b.rows(step)};
    const Domain notLastStep = {b.row(-std::int64_t(step))};
    const auto isBit = [](const Expr& x) { return x * x - x; };

    // Decoding.
    b.constraint("cpu/decode/opcode_range_check/bit", isBit(bit(0)), {b.rows(step, 15 * unit)},
                 {b.rows(unit)});
    b.constraint("cpu/decode/opcode_range_check/zero", b.at(orc), {}, {b.rows(step, 15 * unit)});
    b.constraint("cpu/decode/opcode_range_check_input",
                 instruction -
                     (((b.at(orc) * offsetSize + off2) * offsetSize + off1) * offsetSize + off0),
                 {}, everyStep);
    b.constraint("cpu/decode/flag_op1_base_op0_bit", isBit(op1BaseOp0), {}, everyStep);
    b.constraint("cpu/decode/flag_res_op1_bit", isBit(resOp1), {}, everyStep);
    b.constraint("cpu/decode/flag_pc_update_regular_bit", isBit(pcUpdateRegular), {}, everyStep);
    b.constraint("cpu/decode/fp_update_regular_bit", isBit(fpUpdateRegular), {}, everyStep);

    // Operands.
    b.constraint("cpu/operands/mem_dst_addr",
                 dstAddr + halfOffset - (dstReg * fp + (b.one() - dstReg) * ap + off0), {},
                 everyStep);
    b.constraint("cpu/operands/mem0_addr",
                 op0Addr + halfOffset - (op0Reg * fp + (b.one() - op0Reg) * ap + off1), {},
                 everyStep);
    b.constraint("cpu/operands/mem1_addr",
                 op1Addr + halfOffset -
                     (op1Imm * pc + op1Ap * ap + op1Fp * fp + op1BaseOp0 * op0 + off2),
                 {}, everyStep);
    b.constraint("cpu/operands/ops_mul", opsMul - op0 * op1, {}, everyStep);
    b.constraint("cpu/operands/res",
                 (b.one() - pcJnz) * res - (resAdd * (op0 + op1) + resMul * opsMul + resOp1 * op1),
                 {}, everyStep);

    // Register updates (not after the last step).
    b.constraint("cpu/update_registers/update_pc/tmp0", tmp0 - pcJnz * dst, notLastStep, everyStep);
    b.constraint("cpu/update_registers/update_pc/tmp1", tmp1 - tmp0 * res, notLastStep, everyStep);
    b.constraint("cpu/update_registers/update_pc/pc_cond_negative",
                 (b.one() - pcJnz) * nextPc + tmp0 * (nextPc - (pc + op1)) -
                     (pcUpdateRegular * npcReg + pcJumpAbs * res + pcJumpRel * (pc + res)),
                 notLastStep, everyStep);
    b.constraint("cpu/update_registers/update_pc/pc_cond_positive",
                 (tmp1 - pcJnz) * (nextPc - npcReg), notLastStep, everyStep);
    b.constraint("cpu/update_registers/update_ap/ap_update",
                 nextAp - (ap + apAdd * res + apAdd1 + opCall * 2), notLastStep, everyStep);
    b.constraint("cpu/update_registers/update_fp/fp_update",
                 nextFp - (fpUpdateRegular * fp + opRet * dst + opCall * (ap + 2)), notLastStep,
                 everyStep);

    // Opcodes.
    b.constraint("cpu/opcodes/call/push_fp", opCall * (dst - fp), {}, everyStep);
    b.constraint("cpu/opcodes/call/push_pc", opCall * (op0 - npcReg), {}, everyStep);
    b.constraint("cpu/opcodes/call/off0", opCall * (off0 - halfOffset), {}, everyStep);
    b.constraint("cpu/opcodes/call/off1", opCall * (off1 - (halfOffset + 1)), {}, everyStep);
    b.constraint("cpu/opcodes/call/flags", opCall * (opCall * 2 + 2 - (dstReg + op0Reg + 4)), {},
                 everyStep);
    b.constraint("cpu/opcodes/ret/off0", opRet * (off0 + 2 - halfOffset), {}, everyStep);
    b.constraint("cpu/opcodes/ret/off2", opRet * (off2 + 1 - halfOffset), {}, everyStep);
    b.constraint("cpu/opcodes/ret/flags", opRet * (pcJumpAbs + dstReg + op1Fp + resOp1 - 4), {},
                 everyStep);
    b.constraint("cpu/opcodes/assert_eq/assert_eq", opAssertEq * (dst - res), {}, everyStep);

    // The registers at the first and the last step.
    const Domain first = {b.row(0)};
    const Domain last = {b.row(-std::int64_t(step))};
    b.constraint("initial_ap", ap - b.value("initial_ap"), {}, first);
    b.constraint("initial_fp", fp - b.value("initial_ap"), {}, first);
    b.constraint("initial_pc", pc - b.value("initial_pc"), {}, first);
    b.constraint("final_ap", ap - b.value("final_ap"), {}, last);
    b.constraint("final_fp", fp - b.value("initial_ap"), {}, last);
    b.constraint("final_pc", pc - b.value("final_pc"), {}, last);
}

} // namespace proofdesk::stark::air
