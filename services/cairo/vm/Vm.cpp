#include "cairo/vm/Vm.h"

#include "crypto/Blake2s.h"

namespace proofdesk::cairo {
namespace {

using Op = Instruction::Opcode;
using Res = Instruction::Res;

bool isZeroValue(const Value& value) {
    return value.isFelt() && value.felt().isZero();
}

} // namespace

Vm::Vm(Memory& memory, std::size_t programSize) : m_memory(memory), m_decoded(programSize) {}

void Vm::addBuiltin(BuiltinRunner* builtin) {
    const auto segment = static_cast<std::size_t>(builtin->base().segment);
    if (m_builtinBySegment.size() <= segment) {
        m_builtinBySegment.resize(segment + 1, nullptr);
    }
    m_builtinBySegment[segment] = builtin;
}

void Vm::setHintSites(std::vector<bool> sites, HintRunner runner) {
    m_hintSites = std::move(sites);
    m_hintRunner = std::move(runner);
}

const Instruction& Vm::instructionAt(const Relocatable& pcAddress) {
    if (pcAddress.segment == 0 && pcAddress.offset < m_decoded.size()) {
        auto& cached = m_decoded[pcAddress.offset];
        if (!cached) {
            cached = decodeInstruction(m_memory.get(pcAddress).felt());
        }
        return *cached;
    }
    Value word;
    if (!m_memory.tryGet(pcAddress, &word)) {
        throw VmError("no instruction at pc " + pcAddress.toString());
    }
    m_scratch = decodeInstruction(word.felt());
    return m_scratch;
}

bool Vm::readOrDeduce(const Relocatable& address, Value* out) {
    if (m_memory.tryGet(address, out)) {
        return true;
    }
    if (address.segment >= 0 &&
        static_cast<std::size_t>(address.segment) < m_builtinBySegment.size()) {
        if (BuiltinRunner* builtin =
                m_builtinBySegment[static_cast<std::size_t>(address.segment)]) {
            if (auto deduced = builtin->deduce(m_memory, address)) {
                m_memory.set(address, *deduced);
                *out = *deduced;
                return true;
            }
        }
    }
    return false;
}

// The hints at `at`, before its instruction.
[[gnu::always_inline]] inline void Vm::runHintsAt(const Relocatable& at) {
    if (!m_hintRunner) {
        return;
    }
    if (at.segment == 0) {
        if (at.offset < m_hintSites.size() && m_hintSites[at.offset]) {
            m_hintRunner(*this, at);
        }
    } else if (!m_loadedHintSites.empty() && m_loadedHintSites.count(packAddress(at)) != 0) {
        m_hintRunner(*this, at);
    }
}

// The step's accessed cells, its offsets' range and its trace entry.
[[gnu::always_inline]] inline void Vm::recordStep(const Instruction& in, const Relocatable& dstAddr,
                                                  const Relocatable& op0Addr,
                                                  const Relocatable& op1Addr) {
    m_memory.markAccessed(pc);
    m_memory.markAccessed(dstAddr);
    m_memory.markAccessed(op0Addr);
    m_memory.markAccessed(op1Addr);
    m_rcMin = std::min({m_rcMin, std::uint64_t{in.biasedOff0}, std::uint64_t{in.biasedOff1},
                        std::uint64_t{in.biasedOff2}});
    m_rcMax = std::max({m_rcMax, std::uint64_t{in.biasedOff0}, std::uint64_t{in.biasedOff1},
                        std::uint64_t{in.biasedOff2}});
    if (m_traceEnabled) {
        m_trace.push_back({packAddress(pc), packAddress(ap), packAddress(fp)});
    }
}

// The opcode's own assertions: assert_eq's equality, call's return pc and old fp.
[[gnu::always_inline]] inline void Vm::checkOpcode(const Instruction& in, const Relocatable& nextPc,
                                                   const Value& dst, const Value& op0,
                                                   const std::optional<Value>& res) const {
    if (in.opcode == Op::AssertEq) {
        // Addresses are compared with the relocation rules applied (cairo-lang's check_eq).
        const bool equal = res && (dst == *res || (dst.isAddress() && res->isAddress() &&
                                                   m_memory.relocated(dst.address()) ==
                                                       m_memory.relocated(res->address())));
        if (!equal) {
            throw VmError("an ASSERT_EQ instruction failed at pc " + pc.toString() + ": " +
                          dst.toString() + " != " + (res ? res->toString() : std::string("?")));
        }
    } else if (in.opcode == Op::Call) {
        if (!(op0 == Value(nextPc))) {
            throw VmError("call at pc " + pc.toString() + " did not write the return pc");
        }
        if (!(dst == Value(fp))) {
            throw VmError("call at pc " + pc.toString() + " did not write the old fp");
        }
    }
}

// fp, then ap, then pc, all from the pre-step values.
[[gnu::always_inline]] inline void Vm::updateRegisters(const Instruction& in,
                                                       const Relocatable& nextPc, const Value& dst,
                                                       const Value& op1,
                                                       const std::optional<Value>& res) {
    const Relocatable oldAp = ap;
    switch (in.fpUpdate) {
    case Instruction::FpUpdate::ApPlus2:
        fp = oldAp + 2;
        break;
    case Instruction::FpUpdate::Dst:
        fp = dst.address(); // throws if a ret finds a field element where the old fp belongs
        break;
    case Instruction::FpUpdate::Regular:
        break;
    }
    switch (in.apUpdate) {
    case Instruction::ApUpdate::Add:
        if (!res) {
            throw VmError("ap += res with an unconstrained res at pc " + pc.toString());
        }
        ap = oldAp + res->felt();
        break;
    case Instruction::ApUpdate::Add1:
        ap = oldAp + 1;
        break;
    case Instruction::ApUpdate::Add2:
        ap = oldAp + 2;
        break;
    case Instruction::ApUpdate::Regular:
        break;
    }
    switch (in.pcUpdate) {
    case Instruction::PcUpdate::Regular:
        pc = nextPc;
        break;
    case Instruction::PcUpdate::Jump:
        pc = res->address();
        break;
    case Instruction::PcUpdate::JumpRel:
        pc = pc + res->felt();
        break;
    case Instruction::PcUpdate::Jnz:
        pc = isZeroValue(dst) ? nextPc : pc + op1.felt();
        break;
    }
}

void Vm::step() {
    runHintsAt(pc);
    const Instruction& in = instructionAt(pc);
    if (in.extension != Instruction::Extension::Stone) [[unlikely]] {
        stepExtended(in);
        return;
    }
    const int size = in.size();

    const Relocatable dstAddr = registerValue(in.dstRegister) + in.off0;
    const Relocatable op0Addr = registerValue(in.op0Register) + in.off1;

    Value dst, op0, op1;
    bool haveDst = readOrDeduce(dstAddr, &dst);
    bool haveOp0 = readOrDeduce(op0Addr, &op0);

    Relocatable op1Addr;
    switch (in.op1Source) {
    case Instruction::Op1Source::Imm:
        if (in.off2 != 1) {
            throw VmError("immediate operand with off2 != 1 at pc " + pc.toString());
        }
        op1Addr = pc + 1;
        break;
    case Instruction::Op1Source::AP:
        op1Addr = ap + in.off2;
        break;
    case Instruction::Op1Source::FP:
        op1Addr = fp + in.off2;
        break;
    case Instruction::Op1Source::Op0:
        if (!haveOp0) {
            throw VmError("op1 is based on op0, which is unknown, at pc " + pc.toString());
        }
        op1Addr = op0.address() + in.off2;
        break;
    }
    bool haveOp1 = readOrDeduce(op1Addr, &op1);

    std::optional<Value> res;
    const Relocatable nextPc = pc + size;
    // Deduce op0 from the opcode.
    if (!haveOp0) {
        if (in.opcode == Op::Call) {
            op0 = nextPc;
            haveOp0 = true;
        } else if (in.opcode == Op::AssertEq && haveDst && haveOp1) {
            if (in.res == Res::Add) {
                op0 = dst - op1;
                res = dst;
                haveOp0 = true;
            } else if (in.res == Res::Mul && dst.isFelt() && op1.isFelt() && !op1.felt().isZero()) {
                op0 = dst.felt() * op1.felt().inverse();
                res = dst;
                haveOp0 = true;
            }
        }
        if (!haveOp0) {
            throw VmError("cannot compute op0 at pc " + pc.toString());
        }
        m_memory.set(op0Addr, op0);
    }
    // Deduce op1.
    if (!haveOp1) {
        if (in.opcode == Op::AssertEq && haveDst) {
            if (in.res == Res::Op1) {
                op1 = dst;
                res = dst;
                haveOp1 = true;
            } else if (in.res == Res::Add) {
                op1 = dst - op0;
                res = dst;
                haveOp1 = true;
            } else if (in.res == Res::Mul && dst.isFelt() && op0.isFelt() && !op0.felt().isZero()) {
                op1 = dst.felt() * op0.felt().inverse();
                res = dst;
                haveOp1 = true;
            }
        }
        if (!haveOp1) {
            throw VmError("cannot compute op1 at pc " + pc.toString());
        }
        m_memory.set(op1Addr, op1);
    }
    if (!res) {
        switch (in.res) {
        case Res::Op1:
            res = op1;
            break;
        case Res::Add:
            res = op0 + op1;
            break;
        case Res::Mul:
            res = op0 * op1;
            break;
        case Res::Unconstrained:
            break;
        }
    }
    if (!haveDst) {
        if (in.opcode == Op::AssertEq && res) {
            dst = *res;
        } else if (in.opcode == Op::Call) {
            dst = fp;
        } else {
            throw VmError("cannot compute dst at pc " + pc.toString());
        }
        m_memory.set(dstAddr, dst);
    }

    checkOpcode(in, nextPc, dst, op0, res);
    recordStep(in, dstAddr, op0Addr, op1Addr);
    updateRegisters(in, nextPc, dst, op1, res);
    ++m_steps;
}

void Vm::stepExtended(const Instruction& in) {
    if (in.extension == Instruction::Extension::QM31) {
        throw VmError("the QM31 opcode at pc " + pc.toString() +
                      " (S-two's qm31 arithmetic) is not run by this VM, and no Stone layout "
                      "proves it");
    }
    // blake2s[state = [op0], message = [op1], byte_count = [dst]] => [[ap] .. [ap] + 8).
    const Relocatable dstAddr = registerValue(in.dstRegister) + in.off0;
    const Relocatable op0Addr = registerValue(in.op0Register) + in.off1;
    const Relocatable op1Addr = (in.op1Source == Instruction::Op1Source::AP ? ap : fp) + in.off2;
    const auto read = [this](const Relocatable& address, const char* what) {
        Value value;
        if (!m_memory.tryGet(address, &value)) {
            throw VmError(std::string("the Blake instruction at pc ") + pc.toString() + "'s " +
                          what + " at " + address.toString() + " is unknown");
        }
        return value;
    };
    const auto word = [this](const Value& value, const std::string& what) {
        if (!value.isFelt() || !value.felt().fitsU64() || value.felt().low64() > 0xffffffffULL) {
            throw VmError("the Blake instruction at pc " + pc.toString() + ": " + what +
                          " is not a 32-bit word");
        }
        return static_cast<std::uint32_t>(value.felt().low64());
    };
    const auto pointer = [this](const Value& value, const char* what) {
        if (!value.isAddress()) {
            throw VmError(std::string("the Blake instruction at pc ") + pc.toString() + ": " +
                          what + " is not an address");
        }
        return value.address();
    };
    const std::uint32_t byteCount = word(read(dstAddr, "byte count"), "the byte count");
    const Relocatable state = pointer(read(op0Addr, "state pointer"), "the state pointer");
    const Relocatable message = pointer(read(op1Addr, "message pointer"), "the message pointer");
    const Relocatable output = pointer(read(ap, "output pointer"), "the output pointer [ap]");
    std::array<std::uint32_t, 8> h{};
    for (std::size_t i = 0; i < h.size(); ++i) {
        h[i] = word(read(state + static_cast<std::int64_t>(i), "state word"),
                    "state word " + std::to_string(i));
    }
    std::array<std::uint32_t, 16> m{};
    for (std::size_t i = 0; i < m.size(); ++i) {
        m[i] = word(read(message + static_cast<std::int64_t>(i), "message word"),
                    "message word " + std::to_string(i));
    }
    const std::uint32_t finalize =
        in.extension == Instruction::Extension::BlakeFinalize ? 0xffffffffU : 0;
    const std::array<std::uint32_t, 8> next =
        crypto::blake2sCompress(h, m, byteCount, 0, finalize, 0);
    for (std::size_t i = 0; i < next.size(); ++i) {
        m_memory.set(output + static_cast<std::int64_t>(i), Felt::fromU64(next[i]));
    }
    recordStep(in, dstAddr, op0Addr, op1Addr);
    pc = pc + 1;
    if (in.apUpdate == Instruction::ApUpdate::Add1) {
        ap = ap + 1;
    }
    ++m_extendedSteps;
    ++m_steps;
}

} // namespace proofdesk::cairo
