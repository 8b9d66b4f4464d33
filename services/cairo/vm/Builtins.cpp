#include "cairo/vm/Builtins.h"

#include "cairo/vm/ModBuiltin.h"

#include "crypto/KeccakF.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"
#include "crypto/StarkCurve.h"
#include "crypto/StarkEcdsa.h"

#include <map>

namespace proofdesk::cairo {
namespace {

Felt::Limbs shiftRight(const Felt::Limbs& value, int bits) {
    Felt::Limbs out{};
    const int words = bits / 64;
    const int rest = bits % 64;
    for (int i = 0; i < 4; ++i) {
        const int from = i + words;
        if (from < 4) {
            out[i] = value[from] >> rest;
            if (rest && from + 1 < 4) {
                out[i] |= value[from + 1] << (64 - rest);
            }
        }
    }
    return out;
}

class PedersenBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;

protected:
    Value compute(const Memory& memory, const Relocatable& instance, int) const override {
        std::vector<Felt> in;
        inputsOf(memory, instance, &in);
        return crypto::pedersenHash(in[0], in[1]);
    }
    std::vector<std::string> privateInputNames() const override { return {"x", "y"}; }
};

class RangeCheckBuiltin : public BuiltinRunner {
public:
    RangeCheckBuiltin(std::string name, LayoutBuiltin spec, bool included, int parts)
        : BuiltinRunner(std::move(name), 1, 1, std::move(spec), included), m_parts(parts) {}
    std::optional<Value> deduce(const Memory&, const Relocatable&) const override {
        return std::nullopt;
    }
    std::uint64_t rangeCheckUnitsPerCell() const override {
        return static_cast<std::uint64_t>(m_parts);
    }
    void rangeCheckBounds(const Memory& memory, std::uint64_t* min,
                          std::uint64_t* max) const override {
        for (const auto& cell : memory.segmentCells(m_base.segment)) {
            if (!cell.isSet() || cell.isAddress()) {
                continue;
            }
            const Felt value = cell.value().felt();
            for (int part = 0; part < m_parts; ++part) {
                const std::uint64_t piece =
                    shiftRight(value.limbs(), 16 * (m_parts - 1 - part))[0] & 0xffff;
                *min = std::min(*min, piece);
                *max = std::max(*max, piece);
            }
        }
    }
    nlohmann::json airPrivateInput(const Memory& memory, const Relocation&) const override {
        nlohmann::json out = nlohmann::json::array();
        const auto& cells = memory.segmentCells(m_base.segment);
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (cells[i].isSet()) {
                out.push_back({{"index", i}, {"value", cells[i].value().toString()}});
            }
        }
        return out;
    }

protected:
    void installValidators(Memory& memory) override {
        const int bits = 16 * m_parts;
        memory.addValidator(
            m_base.segment, [bits, name = m_name](const Relocatable& address, const Value& value) {
                if (!value.isFelt() || value.felt().bitLength() > bits) {
                    throw VmError("value " + value.toString() + " at " + address.toString() +
                                  " is out of the " + name + " builtin's range [0, 2^" +
                                  std::to_string(bits) + ")");
                }
            });
    }

private:
    int m_parts;
};

class BitwiseBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;
    std::uint64_t dilutedUnitsPerInstance() const override { return 68; }

protected:
    Value compute(const Memory& memory, const Relocatable& instance,
                  int outputIndex) const override {
        std::vector<Felt> in;
        inputsOf(memory, instance, &in);
        for (const Felt& v : in) {
            if (v.bitLength() > 251) {
                throw VmError("bitwise builtin input " + v.toHex() + " exceeds 251 bits");
            }
        }
        Felt::Limbs out{};
        for (int i = 0; i < 4; ++i) {
            const auto x = in[0].limbs()[static_cast<std::size_t>(i)];
            const auto y = in[1].limbs()[static_cast<std::size_t>(i)];
            out[static_cast<std::size_t>(i)] = outputIndex == 2   ? (x & y)
                                               : outputIndex == 3 ? (x ^ y)
                                                                  : (x | y);
        }
        return *Felt::fromLimbs(out);
    }
    std::vector<std::string> privateInputNames() const override { return {"x", "y"}; }
};

class PoseidonBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;

protected:
    Value compute(const Memory& memory, const Relocatable& instance,
                  int outputIndex) const override {
        std::vector<Felt> in;
        inputsOf(memory, instance, &in);
        std::array<Felt, 3> state = {in[0], in[1], in[2]};
        crypto::hadesPermutation(state);
        return state[static_cast<std::size_t>(outputIndex - 3)];
    }
    std::vector<std::string> privateInputNames() const override {
        return {"input_s0", "input_s1", "input_s2"};
    }
};

class KeccakBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;
    std::uint64_t dilutedUnitsPerInstance() const override { return 16384; } // 2^18 / 16

protected:
    Value compute(const Memory& memory, const Relocatable& instance,
                  int outputIndex) const override {
        std::vector<Felt> in;
        inputsOf(memory, instance, &in);
        std::uint8_t bytes[200] = {};
        for (int i = 0; i < 8; ++i) {
            if (in[static_cast<std::size_t>(i)].bitLength() > 200) {
                throw VmError("keccak builtin input exceeds 200 bits");
            }
            std::uint8_t le[32];
            in[static_cast<std::size_t>(i)].toBytesLE(le);
            std::copy(le, le + 25, bytes + 25 * i);
        }
        std::array<std::uint64_t, 25> lanes{};
        for (int lane = 0; lane < 25; ++lane) {
            for (int b = 0; b < 8; ++b) {
                lanes[static_cast<std::size_t>(lane)] |=
                    static_cast<std::uint64_t>(bytes[lane * 8 + b]) << (8 * b);
            }
        }
        crypto::keccakF1600(lanes);
        for (int lane = 0; lane < 25; ++lane) {
            for (int b = 0; b < 8; ++b) {
                bytes[lane * 8 + b] =
                    static_cast<std::uint8_t>(lanes[static_cast<std::size_t>(lane)] >> (8 * b));
            }
        }
        const int k = outputIndex - 8;
        std::uint8_t be[25];
        for (int i = 0; i < 25; ++i) {
            be[i] = bytes[25 * k + 24 - i];
        }
        return Felt::fromBytesBE(be, 25);
    }
    std::vector<std::string> privateInputNames() const override {
        return {"input_s0", "input_s1", "input_s2", "input_s3",
                "input_s4", "input_s5", "input_s6", "input_s7"};
    }
};

class EcOpBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;

protected:
    Value compute(const Memory& memory, const Relocatable& instance,
                  int outputIndex) const override {
        std::vector<Felt> in;
        inputsOf(memory, instance, &in);
        const auto p = crypto::stark::Affine::fromFelts(in[0], in[1]);
        const auto q = crypto::stark::Affine::fromFelts(in[2], in[3]);
        if (!crypto::stark::isOnCurve(p) || !crypto::stark::isOnCurve(q)) {
            throw VmError("ec_op builtin: an input point is not on the curve");
        }
        const auto r = crypto::stark::toAffine(crypto::stark::add(
            crypto::stark::toJacobian(p), crypto::stark::multiply(q, in[4].limbs())));
        if (r.infinity) {
            throw VmError("ec_op builtin: the result is the point at infinity");
        }
        return outputIndex == 5 ? r.xFelt() : r.yFelt();
    }
    std::vector<std::string> privateInputNames() const override {
        return {"p_x", "p_y", "q_x", "q_y", "m"};
    }
};

// Two cells per instance (public key, message hash). Signatures are registered by the
// VERIFY_ECDSA_SIGNATURE hint; once both cells are written the signature must verify.
class EcdsaBuiltin : public BuiltinRunner {
public:
    using BuiltinRunner::BuiltinRunner;
    std::optional<Value> deduce(const Memory&, const Relocatable&) const override {
        return std::nullopt;
    }
    void addSignature(const Relocatable& address, const Felt& r, const Felt& s) override {
        if (address.segment != m_base.segment || address.offset % 2 != 0) {
            throw VmError("add_signature: " + address.toString() +
                          " is not an ecdsa builtin instance");
        }
        m_signatures[address.offset] = {r, s};
    }
    nlohmann::json airPrivateInput(const Memory& memory, const Relocation&) const override {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& [offset, signature] : m_signatures) {
            Value pubkey, message;
            if (memory.tryGet({m_base.segment, offset}, &pubkey) &&
                memory.tryGet({m_base.segment, offset + 1}, &message)) {
                const Felt w =
                    *Felt::fromLimbs(crypto::stark::inverseModOrder(signature.second.limbs()));
                out.push_back(
                    {{"index", offset / 2},
                     {"pubkey", pubkey.toString()},
                     {"msg", message.toString()},
                     {"signature_input", {{"r", signature.first.toHex()}, {"w", w.toHex()}}}});
            }
        }
        return out;
    }
    std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>>
    signaturesByAddress() const override {
        std::vector<std::pair<Relocatable, std::pair<Felt, Felt>>> out;
        for (const auto& [offset, signature] : m_signatures) {
            out.emplace_back(Relocatable{m_base.segment, offset}, signature);
        }
        return out;
    }

protected:
    void installValidators(Memory& memory) override {
        memory.addValidator(m_base.segment, [this, &memory](const Relocatable& address,
                                                            const Value&) {
            const std::uint64_t instance = address.offset - address.offset % 2;
            Value pubkey, message;
            if (!memory.tryGet({m_base.segment, instance}, &pubkey) ||
                !memory.tryGet({m_base.segment, instance + 1}, &message)) {
                return;
            }
            auto it = m_signatures.find(instance);
            if (it == m_signatures.end()) {
                throw VmError("Signature hint is missing for ECDSA builtin at address " +
                              Relocatable{m_base.segment, instance}.toString() +
                              ". Add it using 'ecdsa_builtin.add_signature'.");
            }
            if (!crypto::stark::verifyEcdsa(message.felt(), it->second.first, it->second.second,
                                            pubkey.felt())) {
                throw VmError("Signature (" + it->second.first.toHex() + ", " +
                              it->second.second.toHex() +
                              ") is invalid, with respect to the public key " + pubkey.toString() +
                              ", and the message hash " + message.toString() + ".");
            }
        });
    }

private:
    std::map<std::uint64_t, std::pair<Felt, Felt>> m_signatures;
};

} // namespace

BuiltinRunner::BuiltinRunner(std::string name, int cellsPerInstance, int inputCells,
                             LayoutBuiltin spec, bool included)
    : m_name(std::move(name)), m_cellsPerInstance(cellsPerInstance), m_inputCells(inputCells),
      m_spec(std::move(spec)), m_included(included) {}

void BuiltinRunner::initializeSegment(Memory& memory) {
    m_base = memory.addSegment();
    installValidators(memory);
}

bool BuiltinRunner::inputsOf(const Memory& memory, const Relocatable& instanceBase,
                             std::vector<Felt>* out) const {
    out->clear();
    for (int i = 0; i < m_inputCells; ++i) {
        Value value;
        if (!memory.tryGet(instanceBase + i, &value) || !value.isFelt()) {
            return false;
        }
        out->push_back(value.felt());
    }
    return true;
}

std::optional<Value> BuiltinRunner::deduce(const Memory& memory, const Relocatable& address) const {
    const auto index =
        static_cast<int>(address.offset % static_cast<std::uint64_t>(m_cellsPerInstance));
    if (index < m_inputCells) {
        return std::nullopt;
    }
    const Relocatable instance = {address.segment,
                                  address.offset - static_cast<std::uint64_t>(index)};
    std::vector<Felt> inputs;
    if (!inputsOf(memory, instance, &inputs)) {
        return std::nullopt;
    }
    return compute(memory, instance, index);
}

void BuiltinRunner::addSignature(const Relocatable&, const Felt&, const Felt&) {
    throw VmError("add_signature on the " + m_name + " builtin");
}

Value BuiltinRunner::compute(const Memory&, const Relocatable&, int) const {
    throw VmError("builtin " + m_name + " computes nothing");
}

nlohmann::json BuiltinRunner::airPrivateInput(const Memory& memory, const Relocation&) const {
    nlohmann::json out = nlohmann::json::array();
    const std::vector<std::string> names = privateInputNames();
    if (names.empty()) {
        return out;
    }
    const std::uint64_t instances = usedInstances(memory);
    for (std::uint64_t i = 0; i < instances; ++i) {
        std::vector<Felt> inputs;
        const auto base =
            static_cast<std::int64_t>(i * static_cast<std::uint64_t>(m_cellsPerInstance));
        if (!inputsOf(memory, m_base + base, &inputs)) {
            continue;
        }
        nlohmann::json entry = {{"index", i}};
        for (std::size_t k = 0; k < names.size() && k < inputs.size(); ++k) {
            entry[names[k]] = inputs[k].toHex();
        }
        out.push_back(entry);
    }
    return out;
}

std::uint64_t BuiltinRunner::usedCells(const Memory& memory) const {
    return memory.segmentUsedSize(m_base.segment);
}

std::uint64_t BuiltinRunner::usedInstances(const Memory& memory) const {
    const auto cells = static_cast<std::uint64_t>(m_cellsPerInstance);
    return (usedCells(memory) + cells - 1) / cells;
}

std::uint64_t BuiltinRunner::allocatedInstances(std::uint64_t steps) const {
    if (m_spec.ratio == 0) {
        return 0;
    }
    // The ratio is steps per instance; instances come in components (keccak: 16), so a run
    // needs at least ratio · instances_per_component steps.
    const auto ratio = static_cast<std::uint64_t>(m_spec.ratio);
    if (steps < ratio * static_cast<std::uint64_t>(m_spec.instancesPerComponent)) {
        throw VmError("too few steps for the " + m_name + " builtin");
    }
    return steps / ratio;
}

std::unique_ptr<BuiltinRunner> makeBuiltinRunner(const std::string& name, const LayoutBuiltin& spec,
                                                 bool included) {
    if (name == "output") {
        return std::make_unique<OutputBuiltin>(name, 1, 1, spec, included);
    }
    if (name == "pedersen") {
        return std::make_unique<PedersenBuiltin>(name, 3, 2, spec, included);
    }
    if (name == "range_check") {
        return std::make_unique<RangeCheckBuiltin>(name, spec, included, 8);
    }
    if (name == "range_check96") {
        return std::make_unique<RangeCheckBuiltin>(name, spec, included, 6);
    }
    if (name == "bitwise") {
        return std::make_unique<BitwiseBuiltin>(name, 5, 2, spec, included);
    }
    if (name == "poseidon") {
        return std::make_unique<PoseidonBuiltin>(name, 6, 3, spec, included);
    }
    if (name == "keccak") {
        return std::make_unique<KeccakBuiltin>(name, 16, 8, spec, included);
    }
    if (name == "ec_op") {
        return std::make_unique<EcOpBuiltin>(name, 7, 5, spec, included);
    }
    if (name == "ecdsa") {
        return std::make_unique<EcdsaBuiltin>(name, 2, 2, spec, included);
    }
    if (name == "add_mod" || name == "mul_mod") {
        return std::make_unique<ModBuiltin>(name, spec, included, name == "mul_mod");
    }
    throw VmError("the " + name + " builtin is not supported yet");
}

void OutputBuiltin::newState(const Relocatable& base) {
    setState({base, {}, nlohmann::json::object()});
}

void OutputBuiltin::setState(const OutputBuiltinState& state) {
    m_base = state.base;
    m_pages = state.pages;
    m_attributes = state.attributes.is_object() ? state.attributes : nlohmann::json::object();
}

void OutputBuiltin::addPage(std::uint64_t id, const Relocatable& start, std::uint64_t size) {
    if (start.segment != m_base.segment || start.offset < m_base.offset) {
        throw VmError("output page " + std::to_string(id) + " starts at " + start.toString() +
                      ", outside the output that starts at " + m_base.toString());
    }
    if (!m_pages.emplace(id, OutputPage{start.offset - m_base.offset, size}).second) {
        throw VmError("output page " + std::to_string(id) + " was already added");
    }
}

void OutputBuiltin::addAttribute(const std::string& name, nlohmann::json value) {
    m_attributes[name] = std::move(value);
}

std::uint64_t OutputBuiltin::pageOf(std::uint64_t offset) const {
    if (offset < m_base.offset) {
        return 0;
    }
    offset -= m_base.offset;
    for (const auto& [id, page] : m_pages) {
        if (offset >= page.start && offset - page.start < page.size) {
            return id;
        }
    }
    return 0;
}

nlohmann::json OutputBuiltin::additionalData() const {
    nlohmann::json pages = nlohmann::json::object();
    for (const auto& [id, page] : m_pages) {
        pages[std::to_string(id)] = {page.start, page.size};
    }
    return {{"pages", pages}, {"attributes", m_attributes}};
}

} // namespace proofdesk::cairo
