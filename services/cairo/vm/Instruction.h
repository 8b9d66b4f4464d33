#pragma once

#include "cairo/vm/Value.h"

namespace proofdesk::cairo {

// A decoded Cairo instruction (cairo-lang encode.py / instruction.py).
struct Instruction {
    enum class Register : std::uint8_t { AP, FP };
    enum class Op1Source : std::uint8_t { Op0, Imm, FP, AP };
    enum class Res : std::uint8_t { Op1, Add, Mul, Unconstrained };
    enum class PcUpdate : std::uint8_t { Regular, Jump, JumpRel, Jnz };
    enum class ApUpdate : std::uint8_t { Regular, Add, Add1, Add2 };
    enum class FpUpdate : std::uint8_t { Regular, ApPlus2, Dst };
    enum class Opcode : std::uint8_t { Nop, Call, Ret, AssertEq };
    // The opcode extension (bits 63 and up): Stone's instruction set, or S-two's additions the
    // Cairo 1 compiler emits for blake2s and qm31.
    enum class Extension : std::uint8_t { Stone, Blake, BlakeFinalize, QM31 };

    std::int16_t off0 = 0, off1 = 0, off2 = 0;
    Register dstRegister = Register::AP;
    Register op0Register = Register::AP;
    Op1Source op1Source = Op1Source::Op0;
    Res res = Res::Op1;
    PcUpdate pcUpdate = PcUpdate::Regular;
    ApUpdate apUpdate = ApUpdate::Regular;
    FpUpdate fpUpdate = FpUpdate::Regular;
    Opcode opcode = Opcode::Nop;
    Extension extension = Extension::Stone;
    // Biased (off + 2^15) offsets, as AIR range checks see them.
    std::uint16_t biasedOff0 = 0, biasedOff1 = 0, biasedOff2 = 0;

    int size() const { return op1Source == Op1Source::Imm ? 2 : 1; }
};

// Decodes an instruction word; throws VmError naming the problem for an invalid encoding.
Instruction decodeInstruction(const Felt& word);

const char* extensionName(Instruction::Extension extension);

} // namespace proofdesk::cairo
