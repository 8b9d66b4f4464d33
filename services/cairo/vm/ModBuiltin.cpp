#include "cairo/vm/ModBuiltin.h"

#include <algorithm>

namespace proofdesk::cairo {
namespace {

using crypto::BigInt;

constexpr int kWordBits = 96;
constexpr int kWords = 4;

const BigInt& wordBound() {
    static const BigInt value = BigInt::powerOfTwo(kWordBits);
    return value;
}

// Four 96-bit words at `address` as one integer; nullopt if any word is unset.
std::optional<BigInt> readWords(const Memory& memory, const Relocatable& address,
                                const std::string& what) {
    BigInt value;
    for (int i = kWords - 1; i >= 0; --i) {
        Value word;
        if (!memory.tryGet(address + i, &word)) {
            return std::nullopt;
        }
        if (word.isAddress()) {
            throw VmError(what + ": word " + std::to_string(i) + " at " + (address + i).toString() +
                          " is an address");
        }
        const BigInt w = BigInt::fromFelt(word.felt());
        if (w >= wordBound()) {
            throw VmError(what + ": word " + std::to_string(i) + " at " + (address + i).toString() +
                          " exceeds 96 bits");
        }
        value = (value << kWordBits) + w;
    }
    return value;
}

void writeWords(Memory& memory, const Relocatable& address, BigInt value) {
    for (int i = 0; i < kWords; ++i) {
        auto [q, r] = BigInt::divmod(value, wordBound());
        memory.set(address + i, r.toFelt());
        value = q;
    }
    if (!value.isZero()) {
        throw VmError("mod builtin: a value does not fit 384 bits");
    }
}

struct Instance {
    BigInt p;
    Relocatable valuesPtr;
    Relocatable offsetsPtr;
    std::uint64_t n = 0;
};

Instance readInstance(const Memory& memory, const Relocatable& at, const std::string& name) {
    Instance instance;
    auto p = readWords(memory, at, name + " p");
    if (!p) {
        throw VmError(name + ": p of the instance at " + at.toString() + " is not set");
    }
    instance.p = *p;
    Value values, offsets, n;
    if (!memory.tryGet(at + 4, &values) || !values.isAddress() ||
        !memory.tryGet(at + 5, &offsets) || !offsets.isAddress() || !memory.tryGet(at + 6, &n) ||
        n.isAddress() || !n.felt().fitsU64()) {
        throw VmError(name + ": values_ptr, offsets_ptr and n of the instance at " + at.toString() +
                      " must be two pointers and a count");
    }
    instance.valuesPtr = values.address();
    instance.offsetsPtr = offsets.address();
    instance.n = n.felt().low64();
    return instance;
}

// The three value addresses of operation `index` of an instance.
std::array<Relocatable, 3> operandAddresses(const Memory& memory, const Instance& instance,
                                            std::uint64_t index, const std::string& name) {
    std::array<Relocatable, 3> out;
    for (int j = 0; j < 3; ++j) {
        const Relocatable at = instance.offsetsPtr + static_cast<std::int64_t>(3 * index + j);
        Value offset;
        if (!memory.tryGet(at, &offset) || offset.isAddress() || !offset.felt().fitsU64()) {
            throw VmError(name + ": offset " + std::to_string(j) + " of operation " +
                          std::to_string(index) + " at " + at.toString() + " is not set");
        }
        out[static_cast<std::size_t>(j)] =
            instance.valuesPtr + static_cast<std::int64_t>(offset.felt().low64());
    }
    return out;
}

// Completes operation `index` when two of a, b, c are known; false when it cannot yet.
bool fillOperation(Memory& memory, const Instance& instance, std::uint64_t index, bool mul,
                   const std::string& name) {
    const auto addresses = operandAddresses(memory, instance, index, name);
    auto a = readWords(memory, addresses[0], name + " a");
    auto b = readWords(memory, addresses[1], name + " b");
    auto c = readWords(memory, addresses[2], name + " c");
    const BigInt& p = instance.p;
    if (a && b && c) {
        return true;
    }
    if (a && b) {
        BigInt value = mul ? (*a * *b).mod(p) : *a + *b;
        if (!mul && value >= p) {
            value = value - p;
        }
        writeWords(memory, addresses[2], value);
        return true;
    }
    const auto solve = [&](const BigInt& known, const BigInt& result) -> std::optional<BigInt> {
        if (mul) {
            return BigInt::divMod(result, known, p); // nullopt when `known` has no inverse
        }
        BigInt value = result - known;
        if (value < BigInt(0)) {
            value = value + p;
        }
        return value;
    };
    if (a && c) {
        auto value = solve(*a, *c);
        if (!value) {
            return false;
        }
        writeWords(memory, addresses[1], *value);
        return true;
    }
    if (b && c) {
        auto value = solve(*b, *c);
        if (!value) {
            return false;
        }
        writeWords(memory, addresses[0], *value);
        return true;
    }
    return false;
}

// Instance i of a builtin and the values of its operation (nullopt where unset).
struct Operation {
    Instance instance;
    std::optional<BigInt> a, b, c;
};

Operation readOperation(const Memory& memory, const Relocatable& base, std::uint64_t i,
                        const std::string& name) {
    Operation op{readInstance(memory, base + static_cast<std::int64_t>(7 * i), name), {}, {}, {}};
    const auto addresses = operandAddresses(memory, op.instance, 0, name);
    op.a = readWords(memory, addresses[0], name + " a");
    op.b = readWords(memory, addresses[1], name + " b");
    op.c = readWords(memory, addresses[2], name + " c");
    return op;
}

} // namespace

ModBuiltin::ModBuiltin(std::string name, LayoutBuiltin spec, bool included, bool multiplication)
    : BuiltinRunner(std::move(name), 7, 7, std::move(spec), included),
      m_multiplication(multiplication) {}

void ModBuiltin::verifyAtEnd(const Memory& memory) const {
    const std::uint64_t instances = usedInstances(memory);
    for (std::uint64_t i = 0; i < instances; ++i) {
        const auto [instance, a, b, c] = readOperation(memory, m_base, i, m_name);
        if (!a || !b || !c) {
            throw VmError(m_name + ": instance " + std::to_string(i) +
                          " has an unset value (did the run_mod_p_circuit hint run?)");
        }
        const bool holds = m_multiplication ? ((*a * *b - *c).mod(instance.p)).isZero()
                                            : (*a + *b == *c || *a + *b == *c + instance.p);
        if (!holds) {
            throw VmError(m_name + ": instance " + std::to_string(i) +
                          " does not hold: " + a->toHex() + (m_multiplication ? " * " : " + ") +
                          b->toHex() + " != " + c->toHex() + " (mod " + instance.p.toHex() + ")");
        }
    }
}

void ModBuiltin::rangeCheckBounds(const Memory& memory, std::uint64_t* min,
                                  std::uint64_t* max) const {
    if (!m_multiplication || !m_spec.inTrace) {
        return;
    }
    const auto widen = [&](std::uint64_t value) {
        *min = std::min(*min, value);
        *max = std::max(*max, value);
    };
    // A padding instance, 0 · 0 = 0 (mod 0): k = 0 and every carry is 0, whose parts are 0 but
    // the top one of 2^98, 4.
    widen(0);
    widen(4);
    const std::uint64_t instances = usedInstances(memory);
    for (std::uint64_t i = 0; i < instances; ++i) {
        const auto [instance, a, b, c] = readOperation(memory, m_base, i, m_name);
        if (!a || !b || !c) {
            continue; // verifyAtEnd names the unset value
        }
        const MulModParts parts = mulModParts(instance.p, *a, *b, *c);
        for (const auto& word : parts.multiplier) {
            for (const std::uint16_t part : word) {
                widen(part);
            }
        }
        for (const auto& carry : parts.carries) {
            for (const std::uint16_t part : carry) {
                widen(part);
            }
        }
    }
}

nlohmann::json ModBuiltin::airPrivateInput(const Memory& memory, const Relocation& relocate) const {
    const auto hexWord = [&](const Relocatable& address) {
        Value word;
        if (!memory.tryGet(address, &word) || word.isAddress()) {
            throw VmError(m_name + ": the word at " + address.toString() + " is not a number");
        }
        return word.felt().toHex();
    };
    nlohmann::json instances = nlohmann::json::array();
    const std::uint64_t used = usedInstances(memory);
    for (std::uint64_t i = 0; i < used; ++i) {
        const Relocatable at = m_base + static_cast<std::int64_t>(7 * i);
        const Instance instance = readInstance(memory, at, m_name);
        nlohmann::json entry = {{"index", i}};
        for (int w = 0; w < kWords; ++w) {
            entry["p" + std::to_string(w)] = hexWord(at + w);
        }
        entry["values_ptr"] = relocate(instance.valuesPtr);
        entry["offsets_ptr"] = relocate(instance.offsetsPtr);
        entry["n"] = instance.n;
        const auto addresses = operandAddresses(memory, instance, 0, m_name);
        nlohmann::json operation = nlohmann::json::object();
        const char* names[] = {"a", "b", "c"};
        for (std::size_t j = 0; j < 3; ++j) {
            const std::string name = names[j];
            operation[name + "_offset"] =
                static_cast<std::uint64_t>(addresses[j].offset - instance.valuesPtr.offset);
            for (int w = 0; w < kWords; ++w) {
                operation[name + std::to_string(w)] = hexWord(addresses[j] + w);
            }
        }
        entry["batch"] = nlohmann::json::array({operation});
        instances.push_back(entry);
    }
    return {{"instances", instances},
            {"zero_value_address", m_zeros ? nlohmann::json(relocate(*m_zeros)) : nullptr}};
}

MulModParts mulModParts(const BigInt& p, const BigInt& a, const BigInt& b, const BigInt& c) {
    const BigInt limit = BigInt::powerOfTwo(kWords * kWordBits);
    for (const BigInt* value : {&p, &a, &b, &c}) {
        if (value->isNegative() || *value >= limit) {
            throw VmError("mul_mod: a value does not fit 384 bits");
        }
    }
    const BigInt product = a * b;
    BigInt multiplier;
    if (p.isZero()) {
        if (product != c) {
            throw VmError("mul_mod: a * b != c with p = 0");
        }
    } else {
        if (product < c) {
            throw VmError("mul_mod: c = " + c.toHex() +
                          " exceeds a * b, so (a * b - c) / p is "
                          "negative");
        }
        auto [quotient, remainder] = BigInt::divmod(product - c, p);
        if (!remainder.isZero()) {
            throw VmError("mul_mod: a * b != c (mod p)");
        }
        multiplier = quotient;
    }
    if (multiplier >= limit) {
        throw VmError("mul_mod: (a * b - c) / p = " + multiplier.toHex() +
                      " does not fit 384 bits");
    }
    const auto wordsOf = [](BigInt value) {
        std::array<BigInt, kWords> words;
        for (auto& word : words) {
            auto [q, r] = BigInt::divmod(value, wordBound());
            word = r;
            value = q;
        }
        return words;
    };
    const auto partsOf = [](BigInt value, auto& parts) {
        for (auto& part : parts) {
            auto [q, r] = BigInt::divmod(value, BigInt(1 << 16));
            part = static_cast<std::uint16_t>(r.low64());
            value = q;
        }
        return value.isZero();
    };
    const auto pw = wordsOf(p), aw = wordsOf(a), bw = wordsOf(b), cw = wordsOf(c),
               kw = wordsOf(multiplier);
    MulModParts out;
    for (int w = 0; w < kWords; ++w) {
        partsOf(kw[std::size_t(w)], out.multiplier[std::size_t(w)]);
    }
    // Word `w` of a·b − k·p − c plus the carry into it is 2^96 times the carry out of it.
    const BigInt shift = BigInt::powerOfTwo(98);
    BigInt carry;
    for (int w = 0; w < 2 * (kWords - 1); ++w) {
        for (int i = std::max(0, w - kWords + 1); i <= std::min(w, kWords - 1); ++i) {
            carry = carry + aw[std::size_t(i)] * bw[std::size_t(w - i)] -
                    kw[std::size_t(i)] * pw[std::size_t(w - i)];
        }
        if (w < kWords) {
            carry = carry - cw[std::size_t(w)];
        }
        auto [q, r] = BigInt::divmod(carry, wordBound());
        carry = q;
        if (!r.isZero() || !partsOf(carry + shift, out.carries[std::size_t(w)]) ||
            (carry + shift).isNegative()) {
            throw VmError("mul_mod: carry " + std::to_string(w) +
                          " of a * b - k * p - c is out "
                          "of range");
        }
    }
    if (!(aw[3] * bw[3] - kw[3] * pw[3] + carry).isZero()) {
        throw VmError("mul_mod: a * b - k * p - c leaves a carry past its top word");
    }
    return out;
}

void fillModMemory(Memory& memory, const std::optional<ModFill>& add,
                   const std::optional<ModFill>& mul) {
    struct Target {
        const ModFill* fill;
        std::vector<Instance> instances;
    };
    std::vector<Target> targets;
    for (const std::optional<ModFill>* fill : {&add, &mul}) {
        if (!*fill || (*fill)->n == 0) {
            targets.push_back({nullptr, {}});
            continue;
        }
        const ModFill& f = **fill;
        const std::string& name = f.runner->name();
        Instance first = readInstance(memory, f.instances, name);
        if (first.n < f.n) {
            throw VmError(name + ": the first instance's n (" + std::to_string(first.n) +
                          ") is below the operations to fill (" + std::to_string(f.n) + ")");
        }
        Target target{&f, {first}};
        for (std::uint64_t k = 1; k < f.n; ++k) {
            const Relocatable at = f.instances + static_cast<std::int64_t>(7 * k);
            writeWords(memory, at, first.p);
            memory.set(at + 4, first.valuesPtr);
            memory.set(at + 5, first.offsetsPtr + static_cast<std::int64_t>(3 * k));
            memory.set(at + 6, Felt::fromU64(first.n - k));
            target.instances.push_back(readInstance(memory, at, name));
        }
        targets.push_back(std::move(target));
    }
    std::uint64_t addIndex = 0;
    std::uint64_t mulIndex = 0;
    const std::uint64_t addN = targets[0].fill ? targets[0].fill->n : 0;
    const std::uint64_t mulN = targets[1].fill ? targets[1].fill->n : 0;
    while (addIndex < addN || mulIndex < mulN) {
        if (addIndex < addN &&
            fillOperation(memory, targets[0].instances[addIndex], 0, false, "add_mod")) {
            ++addIndex;
        } else if (mulIndex < mulN &&
                   fillOperation(memory, targets[1].instances[mulIndex], 0, true, "mul_mod")) {
            ++mulIndex;
        } else {
            throw VmError("Could not fill the values table, add_mod_index=" +
                          std::to_string(addIndex) + ", mul_mod_index=" + std::to_string(mulIndex));
        }
    }
}

} // namespace proofdesk::cairo
