#include "cairo/vm/Instruction.h"

namespace proofdesk::cairo {
namespace {

[[noreturn]] void invalid(const Felt& word, const char* why) {
    throw VmError(std::string("invalid instruction ") + word.toHex() + ": " + why);
}

} // namespace

Instruction decodeInstruction(const Felt& word) {
    // Bits 63 and up are the opcode extension (0: Stone's set).
    const auto& limbs = word.limbs();
    if (limbs[2] != 0 || limbs[3] != 0 || limbs[1] > 1) {
        invalid(word, "its opcode extension is not one this VM knows");
    }
    const std::uint64_t extension = (limbs[1] << 1) | (limbs[0] >> 63);
    const std::uint64_t encoded = limbs[0] & ~(1ULL << 63);
    Instruction in;
    in.extension = static_cast<Instruction::Extension>(extension);
    in.biasedOff0 = static_cast<std::uint16_t>(encoded & 0xffff);
    in.biasedOff1 = static_cast<std::uint16_t>((encoded >> 16) & 0xffff);
    in.biasedOff2 = static_cast<std::uint16_t>((encoded >> 32) & 0xffff);
    in.off0 = static_cast<std::int16_t>(static_cast<int>(in.biasedOff0) - 0x8000);
    in.off1 = static_cast<std::int16_t>(static_cast<int>(in.biasedOff1) - 0x8000);
    in.off2 = static_cast<std::int16_t>(static_cast<int>(in.biasedOff2) - 0x8000);
    const std::uint64_t flags = encoded >> 48;
    if (flags & 0x8000) {
        invalid(word, "the reserved flag bit is set");
    }
    in.dstRegister = (flags & 1) ? Instruction::Register::FP : Instruction::Register::AP;
    in.op0Register = (flags & 2) ? Instruction::Register::FP : Instruction::Register::AP;
    switch ((flags >> 2) & 7) {
    case 0:
        in.op1Source = Instruction::Op1Source::Op0;
        break;
    case 1:
        in.op1Source = Instruction::Op1Source::Imm;
        break;
    case 2:
        in.op1Source = Instruction::Op1Source::FP;
        break;
    case 4:
        in.op1Source = Instruction::Op1Source::AP;
        break;
    default:
        invalid(word, "more than one op1 source");
    }
    switch ((flags >> 5) & 3) {
    case 0:
        in.res = Instruction::Res::Op1;
        break;
    case 1:
        in.res = Instruction::Res::Add;
        break;
    case 2:
        in.res = Instruction::Res::Mul;
        break;
    default:
        invalid(word, "both res flags are set");
    }
    switch ((flags >> 7) & 7) {
    case 0:
        in.pcUpdate = Instruction::PcUpdate::Regular;
        break;
    case 1:
        in.pcUpdate = Instruction::PcUpdate::Jump;
        break;
    case 2:
        in.pcUpdate = Instruction::PcUpdate::JumpRel;
        break;
    case 4:
        in.pcUpdate = Instruction::PcUpdate::Jnz;
        break;
    default:
        invalid(word, "more than one pc update");
    }
    if (in.pcUpdate == Instruction::PcUpdate::Jnz) {
        if (in.res != Instruction::Res::Op1) {
            invalid(word, "jnz with a res computation");
        }
        in.res = Instruction::Res::Unconstrained;
    }
    switch ((flags >> 10) & 3) {
    case 0:
        in.apUpdate = Instruction::ApUpdate::Regular;
        break;
    case 1:
        in.apUpdate = Instruction::ApUpdate::Add;
        break;
    case 2:
        in.apUpdate = Instruction::ApUpdate::Add1;
        break;
    default:
        invalid(word, "both ap update flags are set");
    }
    switch ((flags >> 12) & 7) {
    case 0:
        in.opcode = Instruction::Opcode::Nop;
        break;
    case 1:
        in.opcode = Instruction::Opcode::Call;
        break;
    case 2:
        in.opcode = Instruction::Opcode::Ret;
        break;
    case 4:
        in.opcode = Instruction::Opcode::AssertEq;
        break;
    default:
        invalid(word, "more than one opcode");
    }
    if (in.opcode == Instruction::Opcode::Call) {
        if (in.apUpdate != Instruction::ApUpdate::Regular) {
            invalid(word, "call with an ap update");
        }
        in.apUpdate = Instruction::ApUpdate::Add2;
        in.fpUpdate = Instruction::FpUpdate::ApPlus2;
    } else if (in.opcode == Instruction::Opcode::Ret) {
        in.fpUpdate = Instruction::FpUpdate::Dst;
    }
    if (in.extension == Instruction::Extension::Blake ||
        in.extension == Instruction::Extension::BlakeFinalize) {
        const bool operandsOk = in.opcode == Instruction::Opcode::Nop &&
                                (in.op1Source == Instruction::Op1Source::AP ||
                                 in.op1Source == Instruction::Op1Source::FP) &&
                                in.res == Instruction::Res::Op1 &&
                                in.pcUpdate == Instruction::PcUpdate::Regular &&
                                (in.apUpdate == Instruction::ApUpdate::Regular ||
                                 in.apUpdate == Instruction::ApUpdate::Add1);
        if (!operandsOk) {
            invalid(word, "a Blake instruction must be a NOp with op1 from ap or fp, res op1, a "
                          "regular pc update and ap += 0 or 1");
        }
    } else if (in.extension == Instruction::Extension::QM31) {
        const bool operandsOk = in.opcode == Instruction::Opcode::AssertEq &&
                                in.op1Source != Instruction::Op1Source::Op0 &&
                                in.pcUpdate == Instruction::PcUpdate::Regular;
        if (!operandsOk) {
            invalid(word, "a QM31 instruction must be an assert-eq with op1 not from op0 and a "
                          "regular pc update");
        }
    }
    return in;
}

const char* extensionName(Instruction::Extension extension) {
    switch (extension) {
    case Instruction::Extension::Stone:
        return "Stone";
    case Instruction::Extension::Blake:
        return "Blake";
    case Instruction::Extension::BlakeFinalize:
        return "BlakeFinalize";
    case Instruction::Extension::QM31:
        return "QM31Operation";
    }
    return "?";
}

} // namespace proofdesk::cairo
