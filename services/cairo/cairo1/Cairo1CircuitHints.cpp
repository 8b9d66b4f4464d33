// Cairo 1's EvalCircuit: a circuit's gates evaluated into its values buffer (384-bit values as
// four 96-bit words in the range_check96 segment) and the add_mod and mul_mod instances that
// prove them filled in. Subtractions and inverses are the add and mul gates run backwards.

#include "cairo/cairo1/Cairo1Hints.h"

namespace proofdesk::cairo::cairo1 {
namespace {

using crypto::BigInt;

constexpr int kInstanceCells = 7; // p0..p3, values_ptr, offsets_ptr, n

struct Circuit {
    HintContext* context;
    Relocatable values;
    BigInt modulus;

    // The value an offsets-table entry names, when its four words are all set.
    std::optional<BigInt> read(const Relocatable& entry) const {
        const Relocatable at = values + context->feltAt(entry);
        BigInt value = 0;
        for (int i = 3; i >= 0; --i) {
            Value word;
            if (!context->memory().tryGet(at + i, &word) || !word.isFelt()) {
                return std::nullopt;
            }
            value = (value << 96) + BigInt::fromFelt(word.felt());
        }
        return value;
    }
    void write(const Relocatable& entry, const BigInt& value) const {
        const Relocatable at = values + context->feltAt(entry);
        const BigInt word = BigInt::powerOfTwo(96);
        for (int i = 0; i < 4; ++i) {
            context->write(at + i, (value >> (96 * i)).mod(word).toFelt());
        }
    }
};

std::uint64_t smallCount(HintContext& c, const Felt& value, const char* what) {
    if (!value.fitsU64() || value.low64() > (std::uint64_t{1} << 32)) {
        c.fail(std::string(what) + " is not a small number");
    }
    return value.low64();
}

Relocatable addressAt(HintContext& c, const Relocatable& at) {
    const Value value = c.memory().get(at);
    if (!value.isAddress()) {
        c.fail("the cell " + at.toString() + " does not hold an address");
    }
    return value.address();
}

// Instances 0..n-1 of a mod builtin from `base`: the modulus, the values, each gate's offsets and
// the gates left.
void fillInstances(HintContext& c, const Relocatable& base, std::uint64_t n,
                   const std::vector<Felt>& modulusWords, const Relocatable& values,
                   const Relocatable& offsets) {
    for (std::uint64_t i = 0; i < n; ++i) {
        const Relocatable instance = base + static_cast<std::int64_t>(kInstanceCells * i);
        for (int w = 0; w < 4; ++w) {
            c.write(instance + w, modulusWords[std::size_t(w)]);
        }
        c.write(instance + 4, values);
        c.write(instance + 5, offsets + static_cast<std::int64_t>(3 * i));
        c.write(instance + 6, Felt::fromU64(n - i));
    }
}

HintFn evalCircuit(const nlohmann::json& f) {
    const ResOperand addCount = resOperandOf(f.at("n_add_mods"));
    const ResOperand addBuiltin = resOperandOf(f.at("add_mod_builtin"));
    const ResOperand mulCount = resOperandOf(f.at("n_mul_mods"));
    const ResOperand mulBuiltin = resOperandOf(f.at("mul_mod_builtin"));
    return [=](HintContext& c) {
        const Relocatable add = c.pointer(addBuiltin);
        const Relocatable mul = c.pointer(mulBuiltin);
        const std::uint64_t nAdd = smallCount(c, c.value(addCount), "n_add_mods");
        const std::uint64_t nMul = smallCount(c, c.value(mulCount), "n_mul_mods");
        const Relocatable values = addressAt(c, mul + 4);
        const Relocatable mulOffsets = addressAt(c, mul + 5);
        const Relocatable addOffsets = nAdd == 0 ? mulOffsets : addressAt(c, add + 5);
        std::vector<Felt> modulusWords;
        BigInt modulus = 0;
        for (int w = 3; w >= 0; --w) {
            modulusWords.insert(modulusWords.begin(), c.feltAt(mul + w));
            modulus = (modulus << 96) + BigInt::fromFelt(modulusWords.front());
        }
        if (modulus <= BigInt(1)) {
            c.fail("the circuit's modulus is below 2");
        }
        const Circuit circuit{&c, values, modulus};
        std::uint64_t addIndex = 0;
        std::uint64_t mulIndex = 0;
        std::uint64_t firstFailure = nMul;
        for (;;) {
            while (addIndex < nAdd) {
                const Relocatable gate = addOffsets + static_cast<std::int64_t>(3 * addIndex);
                const auto lhs = circuit.read(gate);
                const auto rhs = circuit.read(gate + 1);
                if (lhs && rhs) {
                    circuit.write(gate + 2, (*lhs + *rhs).mod(modulus));
                } else if (!lhs && rhs) {
                    const auto out = circuit.read(gate + 2);
                    if (!out) {
                        break;
                    }
                    circuit.write(gate, (*out + modulus - *rhs).mod(modulus));
                } else {
                    break;
                }
                ++addIndex;
            }
            if (mulIndex == nMul) {
                break;
            }
            const Relocatable gate = mulOffsets + static_cast<std::int64_t>(3 * mulIndex);
            const auto lhs = circuit.read(gate);
            const auto rhs = circuit.read(gate + 1);
            if (!rhs) {
                c.fail("a mul gate's right operand is unknown when it is reached");
            }
            bool failed = false;
            if (lhs) {
                circuit.write(gate + 2, (*lhs * *rhs).mod(modulus));
            } else if (const auto inverse = BigInt::inverseMod(rhs->mod(modulus), modulus)) {
                circuit.write(gate, *inverse); // an inverse gate: out · x = 1
            } else {
                // Not invertible: the nullifier modulus / gcd, with x · nullifier ≡ 0.
                BigInt a = modulus;
                BigInt b = rhs->mod(modulus);
                while (!b.isZero()) {
                    const BigInt r = a.mod(b);
                    a = b;
                    b = r;
                }
                circuit.write(gate, BigInt::divmod(modulus, a).first);
                failed = true;
            }
            if (failed && firstFailure == nMul) {
                firstFailure = mulIndex;
            }
            ++mulIndex;
        }
        fillInstances(c, add, nAdd, modulusWords, values, addOffsets);
        fillInstances(c, mul, firstFailure, modulusWords, values, mulOffsets);
    };
}

} // namespace

void addCircuitHints(HintTable& table) {
    table["EvalCircuit"] = evalCircuit;
}

} // namespace proofdesk::cairo::cairo1
