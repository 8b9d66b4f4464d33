#include "cairo/cairo1/Cairo1Hints.h"

#include <limits>

namespace proofdesk::cairo::cairo1 {
namespace {

std::int16_t offsetOf(const nlohmann::json& value) {
    if (!value.is_number_integer()) {
        throw ProgramError("a hint operand's offset is not an integer");
    }
    const std::int64_t offset = value.get<std::int64_t>();
    if (offset < std::numeric_limits<std::int16_t>::min() ||
        offset > std::numeric_limits<std::int16_t>::max()) {
        throw ProgramError("a hint operand's offset is beyond 16 bits");
    }
    return static_cast<std::int16_t>(offset);
}

Felt immediateOf(const nlohmann::json& value) {
    const auto felt =
        value.is_string() ? Felt::parse(value.get<std::string>()) : std::optional<Felt>();
    if (!felt) {
        throw ProgramError("a hint's immediate is not a field element");
    }
    return *felt;
}

// The minimal big-endian bytes of a value below 2^256 (0: one zero byte).
std::vector<std::uint8_t> bigEndianBytes(const Felt& value) {
    std::uint8_t bytes[32];
    value.toBytesBE(bytes);
    std::size_t first = 0;
    while (first < 31 && bytes[first] == 0) {
        ++first;
    }
    return {bytes + first, bytes + 32};
}

bool graphicOrSpace(std::uint8_t c) {
    return (c >= 0x21 && c <= 0x7e) || c == ' ' || (c >= '\t' && c <= '\r');
}

// A ByteArray word of `length` bytes as text (as_cairo_short_string_ex), if it is one.
std::optional<std::string> wordText(const Felt& value, std::size_t length) {
    if (length > 31) {
        return std::nullopt;
    }
    if (length == 0) {
        return value.isZero() ? std::optional<std::string>("") : std::nullopt;
    }
    std::vector<std::uint8_t> bytes =
        value.isZero() ? std::vector<std::uint8_t>{} : bigEndianBytes(value);
    if (bytes.size() > length) {
        return std::nullopt;
    }
    std::string text(length - bytes.size(), '\0');
    for (const std::uint8_t c : bytes) {
        if (c == 0) {
            text += '\0';
        } else if (graphicOrSpace(c)) {
            text += static_cast<char>(c);
        } else {
            static const char kHex[] = "0123456789abcdef";
            text += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
        }
    }
    return text;
}

// The magic first felt of a ByteArray in panic data (the corelib's BYTE_ARRAY_MAGIC).
const Felt& byteArrayMagic() {
    static const Felt magic =
        *Felt::parse("0x46a6158a16a947e5916b2a2ca68501a45e93d7110e81aa2d6438b1c57c879a3");
    return magic;
}

std::string shortStringItem(const Felt& value) {
    std::string item = value.toHex();
    if (const auto text = shortString(value)) {
        item += " ('" + *text + "')";
    }
    return item;
}

} // namespace

CellRef cellRefOf(const nlohmann::json& json) {
    if (!json.is_object() || !json.contains("register") || !json.contains("offset")) {
        throw ProgramError("a hint operand is not a cell reference {register, offset}");
    }
    const std::string reg =
        json.at("register").is_string() ? json.at("register").get<std::string>() : std::string();
    if (reg != "AP" && reg != "FP") {
        throw ProgramError("a hint operand's register is not AP or FP");
    }
    return {reg == "FP", offsetOf(json.at("offset"))};
}

ResOperand resOperandOf(const nlohmann::json& json) {
    if (!json.is_object() || json.size() != 1) {
        throw ProgramError("a hint operand is not one of Deref, DoubleDeref, Immediate, BinOp");
    }
    ResOperand operand;
    // Its one member (not a binding to `*json.items().begin()`: that proxy is a temporary).
    const auto member = json.begin();
    const std::string kind = member.key();
    const nlohmann::json& body = member.value();
    if (kind == "Deref") {
        operand.kind = ResOperand::Kind::Deref;
        operand.cell = cellRefOf(body);
    } else if (kind == "DoubleDeref") {
        if (!body.is_array() || body.size() != 2) {
            throw ProgramError("DoubleDeref is not [cell, offset]");
        }
        operand.kind = ResOperand::Kind::DoubleDeref;
        operand.cell = cellRefOf(body[0]);
        operand.inner = offsetOf(body[1]);
    } else if (kind == "Immediate") {
        operand.kind = ResOperand::Kind::Immediate;
        operand.immediate = immediateOf(body);
    } else if (kind == "BinOp") {
        if (!body.is_object() || !body.contains("op") || !body.contains("a") ||
            !body.contains("b")) {
            throw ProgramError("BinOp is not {op, a, b}");
        }
        const std::string op = body.at("op").is_string() ? body.at("op").get<std::string>() : "";
        if (op != "Add" && op != "Mul") {
            throw ProgramError("BinOp's op is not Add or Mul");
        }
        operand.kind = ResOperand::Kind::BinOp;
        operand.multiply = op == "Mul";
        operand.cell = cellRefOf(body.at("a"));
        const nlohmann::json& b = body.at("b");
        if (b.is_object() && b.contains("Immediate")) {
            operand.bIsImmediate = true;
            operand.immediate = immediateOf(b.at("Immediate"));
        } else if (b.is_object() && b.contains("Deref")) {
            operand.b = cellRefOf(b.at("Deref"));
        } else {
            throw ProgramError("BinOp's b is not Deref or Immediate");
        }
    } else {
        throw ProgramError("a hint operand is not one of Deref, DoubleDeref, Immediate, BinOp");
    }
    return operand;
}

const BuiltinRunner* HintContext::builtin(const std::string& name) const {
    for (const auto& runner : m_builtins) {
        if (runner->name() == name) {
            return runner.get();
        }
    }
    return nullptr;
}

Relocatable HintContext::address(const CellRef& cell) const {
    return (cell.fp ? m_vm.fp : m_vm.ap) + std::int64_t{cell.offset};
}

Felt HintContext::feltAt(const Relocatable& address) const {
    Value value;
    if (!m_vm.memory().tryGet(address, &value)) {
        fail("the cell " + address.toString() + " is not set");
    }
    if (!value.isFelt()) {
        fail("the cell " + address.toString() + " holds an address, not a number");
    }
    return value.felt();
}

Value HintContext::maybe(const ResOperand& operand) const {
    switch (operand.kind) {
    case ResOperand::Kind::Immediate:
        return operand.immediate;
    case ResOperand::Kind::Deref:
        return m_vm.memory().get(address(operand.cell));
    case ResOperand::Kind::DoubleDeref: {
        const Value pointer = m_vm.memory().get(address(operand.cell));
        if (!pointer.isAddress()) {
            fail("DoubleDeref's cell " + address(operand.cell).toString() +
                 " does not hold an address");
        }
        return m_vm.memory().get(pointer.address() + std::int64_t{operand.inner});
    }
    case ResOperand::Kind::BinOp: {
        const Value a = m_vm.memory().get(address(operand.cell));
        const Felt b = operand.bIsImmediate ? operand.immediate : feltAt(address(operand.b));
        if (operand.multiply) {
            if (!a.isFelt()) {
                fail("BinOp Mul of an address");
            }
            return a.felt() * b;
        }
        return a.isAddress() ? Value(a.address() + b) : Value(a.felt() + b);
    }
    }
    return Felt::zero();
}

Felt HintContext::value(const ResOperand& operand) const {
    const Value read = maybe(operand);
    if (!read.isFelt()) {
        fail("a hint operand holds an address where a number is needed");
    }
    return read.felt();
}

Relocatable HintContext::pointer(const ResOperand& operand) const {
    const bool addImmediate =
        operand.kind == ResOperand::Kind::BinOp && !operand.multiply && operand.bIsImmediate;
    if (operand.kind != ResOperand::Kind::Deref && !addImmediate) {
        fail("a pointer operand is neither [cell] nor [cell] + immediate");
    }
    const Value base = m_vm.memory().get(address(operand.cell));
    if (!base.isAddress()) {
        fail("the cell " + address(operand.cell).toString() + " does not hold an address");
    }
    return addImmediate ? base.address() + operand.immediate : base.address();
}

void HintContext::write(const CellRef& cell, const Value& value) {
    write(address(cell), value);
}

void HintContext::write(const Relocatable& address, const Value& value) {
    m_vm.memory().set(address, value);
}

void HintContext::fail(const std::string& message) const {
    throw VmError(message);
}

const HintTable& hintTable() {
    static const HintTable table = [] {
        HintTable all;
        addMathHints(all);
        addDictHints(all);
        addCurveHints(all);
        addCircuitHints(all);
        addExternalHints(all);
        // Starknet's: an executable is not a contract, so there is no state to call.
        for (const char* name : {"SystemCall", "Cheatcode"}) {
            all[name] = [name = std::string(name)](const nlohmann::json&) -> HintFn {
                return [name](HintContext& context) {
                    context.fail("the Starknet hint " + name +
                                 " needs a contract's state, and an executable is not a "
                                 "contract: build it without syscalls (Scarb's executable "
                                 "target refuses them unless --allow-syscalls)");
                };
            };
        }
        return all;
    }();
    return table;
}

HintProcessor::HintProcessor(const Program& program, RunIo& io) {
    m_state.io = &io;
    const HintTable& table = hintTable();
    for (const auto& [pc, hints] : program.cairo1Hints) {
        auto& compiled = m_hints[pc];
        for (const nlohmann::json& hint : hints) {
            // A unit variant (the deprecated assertions) is a bare string.
            const std::string name =
                hint.is_string() ? hint.get<std::string>()
                                 : (hint.is_object() && hint.size() == 1 ? hint.begin().key() : "");
            const nlohmann::json fields =
                hint.is_object() && hint.size() == 1 ? hint.begin().value() : nlohmann::json();
            const auto it = table.find(name);
            if (it == table.end()) {
                compiled.push_back([name, pc = pc](HintContext& context) {
                    context.fail("unknown Cairo 1 hint " + (name.empty() ? "(unnamed)" : name) +
                                 " at pc " + std::to_string(pc));
                });
                continue;
            }
            try {
                compiled.push_back(it->second(fields));
            } catch (const ProgramError& error) {
                throw ProgramError("the hint " + name + " at pc " + std::to_string(pc) + ": " +
                                   error.what());
            }
        }
    }
}

void HintProcessor::attach(Vm& vm, const std::vector<std::unique_ptr<BuiltinRunner>>& builtins) {
    m_builtins = &builtins;
    std::vector<bool> sites;
    for (const auto& [pc, hints] : m_hints) {
        if (sites.size() <= pc) {
            sites.resize(pc + 1, false);
        }
        sites[pc] = true;
    }
    vm.setHintSites(std::move(sites),
                    [this](Vm& running, const Relocatable& pc) { run(running, pc); });
}

void HintProcessor::run(Vm& vm, const Relocatable& pc) {
    const auto it = m_hints.find(pc.offset);
    if (pc.segment != 0 || it == m_hints.end()) {
        return;
    }
    HintContext context(vm, *m_builtins, m_state);
    for (const HintFn& hint : it->second) {
        try {
            hint(context);
        } catch (const VmError& error) {
            throw VmError("Cairo 1 hint at pc " + std::to_string(pc.offset) + ": " + error.what());
        } catch (const std::invalid_argument& error) {
            throw VmError("Cairo 1 hint at pc " + std::to_string(pc.offset) + ": " + error.what());
        }
    }
}

std::optional<std::string> shortString(const Felt& value) {
    std::string text;
    bool ended = false;
    for (const std::uint8_t c : bigEndianBytes(value)) {
        if (c == 0) {
            ended = true;
        } else if (ended || !graphicOrSpace(c)) {
            return std::nullopt;
        } else {
            text += static_cast<char>(c);
        }
    }
    return text;
}

std::string panicMessage(const std::vector<Felt>& data) {
    std::vector<std::string> items;
    for (std::size_t i = 0; i < data.size();) {
        if (data[i] == byteArrayMagic() && i + 1 < data.size() && data[i + 1].fitsU64()) {
            // [MAGIC, n, word_0 .. word_{n-1}, pending, pending_len]
            const std::uint64_t words = data[i + 1].low64();
            const std::size_t end = i + 2 + words + 2;
            if (words < data.size() && end <= data.size() && data[end - 1].fitsU64()) {
                std::string text;
                bool ok = true;
                for (std::uint64_t w = 0; w < words && ok; ++w) {
                    const auto word = wordText(data[i + 2 + w], 31);
                    ok = word.has_value();
                    text += word.value_or("");
                }
                const auto pending = ok ? wordText(data[end - 2], data[end - 1].low64())
                                        : std::optional<std::string>();
                if (pending) {
                    items.push_back("\"" + text + *pending + "\"");
                    i = end;
                    continue;
                }
            }
        }
        items.push_back(shortStringItem(data[i]));
        ++i;
    }
    if (items.size() == 1) {
        return "Panicked with " + items.front() + ".";
    }
    std::string joined;
    for (const std::string& item : items) {
        joined += (joined.empty() ? "" : ", ") + item;
    }
    return "Panicked with (" + joined + ").";
}

} // namespace proofdesk::cairo::cairo1
