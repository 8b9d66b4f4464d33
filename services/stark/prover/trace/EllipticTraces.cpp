#include "TraceComponents.h"

#include "Parallel.h"
#include "air/CurvePoints.h"
#include "crypto/BigInt.h"
#include "crypto/StarkCurve.h"

#include <algorithm>
#include <array>
#include <span>

// The trace writers of the builtins built on elliptic-curve subset sums — Pedersen, ECDSA and
// EC-op — mirroring air/components/SubsetSum.cpp and the builtins' own constraints. Every chain
// of point additions needs an inverse per step; the instances of a builtin advance in lockstep so
// that each step's inverses are taken together (one inversion per step, not per instance).

namespace proofdesk::stark {
namespace {

using air::CurvePoint;
using Limbs = crypto::Felt::Limbs;

Limbs limbsOf(const Fp& value) {
    return value.toFelt().limbs();
}

Fp shiftedRight(const Limbs& value, std::uint64_t bits) {
    Limbs out{};
    const std::size_t words = bits / 64;
    const unsigned shift = unsigned(bits % 64);
    for (std::size_t i = 0; i + words < 4; ++i) {
        out[i] = value[i + words] >> shift;
        if (shift != 0 && i + words + 1 < 4) {
            out[i] |= value[i + words + 1] << (64 - shift);
        }
    }
    if ((out[0] | out[1] | out[2] | out[3]) == 0) {
        return Fp::zero(); // an unused instance's scalar, or one shifted past its top bit
    }
    return Fp::fromFelt(*crypto::Felt::fromLimbs(out));
}

bool bitOf(const Limbs& value, std::uint64_t bit) {
    return bit < 256 && ((value[bit / 64] >> (bit % 64)) & 1) != 0;
}

// Inverts every element in parallel chunks (all nonzero).
void invertInParallel(std::vector<Fp>& values) {
    Workers::shared().forRange(values.size(), 256, [&](std::size_t begin, std::size_t end) {
        invertAll(std::span(values).subspan(begin, end - begin));
    });
}

// One chain of a subset sum: its first unit (instance index of the sum's columns), the scalar,
// the point each unit may add, and the running sum.
struct SumChain {
    std::uint64_t firstUnit = 0;
    Limbs scalar{};
    const CurvePoint* points = nullptr;
    CurvePoint sum;
};

// Writes the chains' selector, partial-sum, slope (and x_diff_inv) cells over `height` units:
// sum_{k+1} = sum_k + bit_k·P_k. Leaves each chain's sum at its last unit.
void writeSubsetSums(TraceTable& trace, const std::string& name, std::vector<SumChain>& chains,
                     std::uint64_t height, bool xDiffInverse) {
    const TraceTable::Column selector = trace.column(name + "/selector");
    const TraceTable::Column sumX = trace.column(name + "/partial_sum/x");
    const TraceTable::Column sumY = trace.column(name + "/partial_sum/y");
    const TraceTable::Column slope = trace.column(name + "/slope");
    TraceTable::Column inverse;
    if (xDiffInverse) {
        inverse = trace.column(name + "/x_diff_inv");
    }
    // The chains are independent and write their own units: each thread takes a share of them
    // through every level (one dispatch, not one per level), inverting its share's differences
    // in one batch per level. Only the units where a chain adds its point (or x_diff_inv is
    // written) need an inverse, so a builtin's unused instances (zero scalars) cost none.
    const std::size_t grain = std::max<std::size_t>(
        64, chains.size() / std::size_t(std::max(1, Workers::shared().threads())));
    Workers::shared().forRange(chains.size(), grain, [&](std::size_t begin, std::size_t end) {
        const std::span<SumChain> share(chains.data() + begin, end - begin);
        std::vector<Fp> differences(share.size());
        std::vector<std::uint8_t> adds(share.size());
        for (std::uint64_t k = 0; k < height; ++k) {
            bool anyInverse = xDiffInverse;
            for (std::size_t c = 0; c < share.size(); ++c) {
                SumChain& chain = share[c];
                const std::uint64_t unit = chain.firstUnit + k;
                selector[unit] = shiftedRight(chain.scalar, k);
                sumX[unit] = chain.sum.first;
                sumY[unit] = chain.sum.second;
                adds[c] = bitOf(chain.scalar, k) ? 1 : 0;
                if (!adds[c] && !xDiffInverse) {
                    differences[c] = Fp::one();
                    continue;
                }
                anyInverse = true;
                differences[c] = chain.sum.first - chain.points[k].first;
                if (differences[c].isZero()) {
                    throw TraceError(name + ": a subset sum meets a point with the same x (the "
                                            "inputs make the builtin's addition undefined)");
                }
            }
            if (k + 1 == height) {
                break;
            }
            if (anyInverse) {
                invertAll(differences);
            }
            for (std::size_t c = 0; c < share.size(); ++c) {
                SumChain& chain = share[c];
                const std::uint64_t unit = chain.firstUnit + k;
                if (xDiffInverse) {
                    inverse[unit] = differences[c];
                }
                if (!adds[c]) {
                    slope[unit] = Fp::zero();
                    continue;
                }
                const CurvePoint& point = chain.points[k];
                const Fp s = (chain.sum.second - point.second) * differences[c];
                const Fp x = s.square() - chain.sum.first - point.first;
                chain.sum = {x, s * (chain.sum.first - x) - chain.sum.second};
                slope[unit] = s;
            }
        }
    });
}

// The doublings P, 2P, …, 2^(height−1)·P of every start point, with the doubling slopes (one
// per unit but the last), written at unit firstUnits[i] + k of the given columns.
std::vector<std::vector<CurvePoint>>
writeDoublings(TraceTable& trace, const std::string& xName, const std::string& yName,
               const std::string& slopeName, const std::vector<CurvePoint>& starts,
               const std::vector<std::uint64_t>& firstUnits, std::uint64_t height) {
    const TraceTable::Column xs = trace.column(xName);
    const TraceTable::Column ys = trace.column(yName);
    const TraceTable::Column slopes = trace.column(slopeName);
    std::vector<std::vector<CurvePoint>> points(starts.size());
    std::vector<CurvePoint> current = starts;
    std::vector<Fp> denominators(starts.size());
    for (std::uint64_t k = 0; k < height; ++k) {
        for (std::size_t i = 0; i < starts.size(); ++i) {
            points[i].push_back(current[i]);
            xs[firstUnits[i] + k] = current[i].first;
            ys[firstUnits[i] + k] = current[i].second;
            denominators[i] = current[i].second.doubled();
            if (denominators[i].isZero()) {
                throw TraceError(slopeName + ": a point of order two cannot be doubled");
            }
        }
        if (k + 1 == height) {
            break;
        }
        invertInParallel(denominators);
        for (std::size_t i = 0; i < starts.size(); ++i) {
            const auto& [x, y] = current[i];
            const Fp s = (x.square() * Fp::fromU64(3) + air::curveAlpha()) * denominators[i];
            const Fp x2 = s.square() - x.doubled();
            current[i] = {x2, s * (x - x2) - y};
            slopes[firstUnits[i] + k] = s;
        }
    }
    return points;
}

// The bit-unpacking cells of a 252-bit scalar (air/components/SubsetSum.cpp).
void writeBitUnpacking(TraceTable& trace, const std::string& name, std::uint64_t instance,
                       const Limbs& scalar) {
    const Fp b251 = Fp::fromU64(bitOf(scalar, 251));
    const Fp b196 = Fp::fromU64(bitOf(scalar, 196));
    const Fp b192 = Fp::fromU64(bitOf(scalar, 192));
    const Fp ones196 = b251 * b196;
    trace.set(name + "/bit_unpacking/prod_ones196", instance, ones196);
    trace.set(name + "/bit_unpacking/prod_ones192", instance, ones196 * b192);
}

Fp valueOr(const CairoRun& run, std::uint64_t address, const Fp& fallback) {
    return run.at(address).value_or(fallback);
}

// A builtin's output cell: the value the trace computes, which the run's memory must agree with.
void checkOutput(const CairoRun& run, std::uint64_t address, const Fp& computed,
                 const std::string& builtin) {
    if (const auto value = run.at(address); value && *value != computed) {
        throw TraceError("the " + builtin + " builtin's output at address " +
                         std::to_string(address) + " differs from what the builtin computes");
    }
}

// What the ECDSA builtin's trace proves for one instance.
struct EcdsaSignature {
    CurvePoint key;
    Fp message, r, w;
};

// Each instance's signature: the run's (from the private input, the key's y chosen so that it
// verifies), or a dummy one (private key 1, message 1) that verifies, for the instances the run
// left unused.
std::vector<EcdsaSignature> ecdsaSignatures(const CairoRun& run, std::uint64_t instances) {
    const CurvePoint generator = air::ecdsaGenerator();
    const auto dummy = [&] {
        const crypto::BigInt n = crypto::BigInt::fromU256(crypto::stark::order());
        const crypto::BigInt k = 0x5eed; // any nonce whose r and w fit in 251 bits
        const CurvePoint point = [&] {
            CurvePoint p = generator;
            CurvePoint acc;
            bool started = false;
            for (int i = 0; i < 16; ++i) {
                if ((0x5eed >> i) & 1) {
                    acc = started ? air::added(acc, p) : p;
                    started = true;
                }
                p = air::doubled(p);
            }
            return acc;
        }();
        const crypto::BigInt r = crypto::BigInt::fromFelt(point.first.toFelt());
        const crypto::BigInt kInverse = crypto::BigInt::powMod(k, n - 2, n);
        const crypto::BigInt s = (kInverse * (crypto::BigInt(1) + r)).mod(n);
        const crypto::BigInt w = crypto::BigInt::powMod(s, n - 2, n);
        if (r.bitLength() > 251 || w.bitLength() > 251) {
            throw std::logic_error("the dummy ECDSA nonce gives a signature out of range");
        }
        return EcdsaSignature{generator, Fp::one(), point.first, Fp::fromFelt(w.toFelt())};
    }();
    std::map<std::uint64_t, EcdsaSignature> given;
    if (const auto it = run.privateInput.find("ecdsa"); it != run.privateInput.end()) {
        for (const nlohmann::json& entry : *it) {
            const auto felt = [&](const nlohmann::json& value) {
                const auto parsed = value.is_string()
                                        ? crypto::Felt::parse(value.get<std::string>())
                                        : std::nullopt;
                if (!parsed) {
                    throw TraceError("the private input's ecdsa entry is malformed");
                }
                return Fp::fromFelt(*parsed);
            };
            const std::uint64_t index = entry.at("index").get<std::uint64_t>();
            const Fp x = felt(entry.at("pubkey"));
            const Fp message = felt(entry.at("msg"));
            const Fp r = felt(entry.at("signature_input").at("r"));
            const Fp w = felt(entry.at("signature_input").at("w"));
            const auto y = crypto::stark::recoverY(x.toFelt());
            if (!y) {
                throw TraceError("the ecdsa public key at instance " + std::to_string(index) +
                                 " is not on the curve");
            }
            // Of the two keys with this x, the one the signature verifies with.
            CurvePoint key{x, Fp::fromFelt(*y)};
            const auto multiply = [](CurvePoint p, const Limbs& scalar) {
                std::optional<CurvePoint> acc;
                for (int i = 0; i < 256; ++i) {
                    if (bitOf(scalar, std::uint64_t(i))) {
                        acc = acc ? air::added(*acc, p) : p;
                    }
                    p = air::doubled(p);
                }
                return acc;
            };
            const auto zG = multiply(generator, limbsOf(message));
            const auto rQ = multiply(key, limbsOf(r));
            if (zG && rQ && zG->first != rQ->first) {
                const auto check = multiply(air::added(*zG, *rQ), limbsOf(w));
                if (!check || check->first != r) {
                    key.second = -key.second;
                }
            }
            given[index] = {key, message, r, w};
        }
    }
    std::vector<EcdsaSignature> signatures(instances, dummy);
    for (const auto& [index, signature] : given) {
        if (index < instances) {
            signatures[index] = signature;
        }
    }

    return signatures;
}

// Units of one Pedersen instance in each repetition's subset-sum columns: two sums of 256.
constexpr std::uint64_t kPedersenUnits = 512;

// Pedersen's inputs, two per instance, read from the run as its writer reads them (an instance
// past the builtin's segment reads the cells there, 0 where the run has none).
std::vector<Fp> pedersenInputs(const CairoRun& run, std::uint64_t instances) {
    const std::uint64_t begin = builtinSegment(run, "pedersen").begin;
    std::vector<Fp> inputs(2 * instances);
    for (std::uint64_t h = 0; h < instances; ++h) {
        inputs[2 * h] = valueOr(run, begin + 3 * h, Fp::zero());
        inputs[2 * h + 1] = valueOr(run, begin + 3 * h + 1, Fp::zero());
    }
    return inputs;
}

// The builtins whose writers, when every instance computes the same (Pedersen's inputs all
// alike, ECDSA's signatures all the dummy one — a run that leaves them unused), compute the
// first instance of each repetition and repeat its cells: each with the virtual column that
// counts its instances.
constexpr std::array<std::pair<const char*, const char*>, 2> kRepeatingBuiltins = {{
    {"pedersen", "pedersen/input0/addr"},
    {"ecdsa", "ecdsa/pubkey/addr"},
}};

// Where every instance of `builtin` computes the same, the rows after which its cells repeat:
// one instance of each repetition. Otherwise (or where the layout lacks it, or the trace holds
// fewer instances than repetitions) 0.
std::uint64_t repeatingRows(const air::LayoutSpec& layout, const CairoRun& run,
                            std::uint64_t traceLength, const std::string& builtin) {
    const air::BuiltinSpec* spec = layout.builtin(builtin);
    if (!spec || !spec->used || !spec->constrained || !run.publicInput.segment(builtin)) {
        return 0;
    }
    std::string counted;
    for (const auto& [name, column] : kRepeatingBuiltins) {
        if (builtin == name) {
            counted = column;
        }
    }
    const std::uint64_t instances = traceLength / layout.column(counted).step;
    const auto repetitions = spec->parameters.find("repetitions");
    const std::uint64_t perRepetition =
        instances / (repetitions == spec->parameters.end() ? 1 : repetitions->second);
    if (perRepetition == 0) {
        return 0;
    }
    if (builtin == "pedersen") {
        const std::vector<Fp> inputs = pedersenInputs(run, instances);
        for (std::uint64_t h = 1; h < instances; ++h) {
            if (inputs[2 * h] != inputs[0] || inputs[2 * h + 1] != inputs[1]) {
                return 0;
            }
        }
    } else if (const auto given = run.privateInput.find("ecdsa");
               given != run.privateInput.end() && !given->empty()) {
        return 0; // a signature of the run's (ecdsaSignatures: the others are the dummy one)
    }
    return traceLength / perRepetition;
}

} // namespace

std::map<std::size_t, std::uint64_t>
periodicColumns(const air::LayoutSpec& layout, const CairoRun& run, std::uint64_t traceLength) {
    std::map<std::string, std::uint64_t> repeating; // "name/" -> rows of one instance
    for (const auto& [builtin, counted] : kRepeatingBuiltins) {
        if (const std::uint64_t rows = repeatingRows(layout, run, traceLength, builtin)) {
            repeating[std::string(builtin) + "/"] = rows;
        }
    }
    // Per column: the rows after which all its cells repeat, 0 once one of them does not.
    std::map<std::size_t, std::uint64_t> period;
    for (const auto& [name, vc] : layout.columns) {
        std::uint64_t rows = 0;
        for (const auto& [prefix, builtinRows] : repeating) {
            if (name.starts_with(prefix)) {
                rows = builtinRows;
            }
        }
        const auto [it, added] = period.try_emplace(vc.column, rows);
        it->second = rows == 0 || it->second == 0 ? 0 : std::max(it->second, rows);
    }
    std::map<std::size_t, std::uint64_t> periods;
    for (const auto& [column, rows] : period) {
        if (rows != 0 && rows < traceLength && column < layout.columnsFirst) {
            periods[column] = rows;
        }
    }
    return periods;
}

void writePedersen(TraceTable& trace, const CairoRun& run) {
    const air::BuiltinSpec& spec = *trace.layout().builtin("pedersen");
    const std::uint64_t repetitions = spec.parameter("repetitions");
    const std::uint64_t instances = trace.instances("pedersen/input0/addr");
    const std::uint64_t begin = builtinSegment(run, "pedersen").begin;
    const CurvePoint shift = air::pedersenPoints()[0];

    const std::vector<Fp> inputs = pedersenInputs(run, instances);
    // Every instance hashing the same pair (a run that hashes nothing: each instance reads 0s, or
    // the cells past the segment, alike): the first of each repetition is computed and its cells
    // repeated.
    const std::uint64_t rows = repeatingRows(trace.layout(), run, trace.length(), "pedersen");
    const std::uint64_t computed = rows == 0 ? instances : std::min(instances, repetitions);
    for (std::uint64_t r = 0; r < repetitions; ++r) {
        const std::string name = "pedersen/hash" + std::to_string(r) + "/ec_subset_sum";
        std::vector<SumChain> chains;
        for (std::uint64_t h = r; h < computed; h += repetitions) {
            chains.push_back({(h / repetitions) * kPedersenUnits, limbsOf(inputs[2 * h]),
                              air::pedersenUnitPoints(0).data(), shift});
        }
        writeSubsetSums(trace, name, chains, 256, false);
        for (std::size_t c = 0; c < chains.size(); ++c) {
            const std::uint64_t h = r + c * repetitions;
            writeBitUnpacking(trace, name, 2 * (h / repetitions), chains[c].scalar);
            chains[c].firstUnit += 256;
            chains[c].scalar = limbsOf(inputs[2 * h + 1]);
            chains[c].points = air::pedersenUnitPoints(1).data();
        }
        writeSubsetSums(trace, name, chains, 256, false);
        for (std::size_t c = 0; c < chains.size(); ++c) {
            const std::uint64_t h = r + c * repetitions;
            writeBitUnpacking(trace, name, 2 * (h / repetitions) + 1, chains[c].scalar);
        }
        if (rows != 0) {
            trace.repeatPeriod(name + "/", rows);
        }
        for (std::uint64_t h = r; h < instances; h += repetitions) {
            const SumChain& chain = chains[(h / repetitions) % chains.size()];
            const std::uint64_t address = begin + 3 * h;
            const Fp output = chain.sum.first;
            checkOutput(run, address + 2, output, "pedersen");
            trace.memory("pedersen/input0/addr", "pedersen/input0/value", h, address,
                         inputs[2 * h]);
            trace.memory("pedersen/input1/addr", "pedersen/input1/value", h, address + 1,
                         inputs[2 * h + 1]);
            trace.memory("pedersen/output/addr", "pedersen/output/value", h, address + 2, output);
        }
    }
}

void writeEcdsa(TraceTable& trace, const CairoRun& run) {
    const air::BuiltinSpec& spec = *trace.layout().builtin("ecdsa");
    const std::uint64_t height = spec.parameter("element_height");
    const std::uint64_t bits = spec.parameter("element_bits");
    const std::uint64_t instances = trace.instances("ecdsa/pubkey/addr");
    const std::uint64_t begin = builtinSegment(run, "ecdsa").begin;
    const std::string sig = "ecdsa/signature0";
    const CurvePoint shift = air::pedersenPoints()[0];

    const std::vector<EcdsaSignature> signatures = ecdsaSignatures(run, instances);
    // Every instance the dummy signature (a run that signs nothing): the first is computed and
    // its cells repeated.
    const std::uint64_t rows = repeatingRows(trace.layout(), run, trace.length(), "ecdsa");
    const std::uint64_t computed = rows == 0 ? instances : std::min<std::uint64_t>(instances, 1);

    const std::uint64_t keyUnitsPerInstance = 2 * height;
    // z·G from −shift, over the generator's doublings.
    const std::vector<CurvePoint> generatorPoints = air::generatorUnitPoints(bits, height);
    std::vector<SumChain> chains;
    for (std::uint64_t i = 0; i < computed; ++i) {
        chains.push_back({i * height,
                          limbsOf(signatures[i].message),
                          generatorPoints.data(),
                          {shift.first, -shift.second}});
    }
    writeSubsetSums(trace, sig + "/exponentiate_generator", chains, height, true);
    std::vector<CurvePoint> generatorSums;
    for (const SumChain& chain : chains) {
        generatorSums.push_back(chain.sum);
    }

    // r·Q from shift, over Q's doublings.
    std::vector<CurvePoint> keys;
    std::vector<std::uint64_t> firstUnits;
    for (std::uint64_t i = 0; i < computed; ++i) {
        keys.push_back(signatures[i].key);
        firstUnits.push_back(i * keyUnitsPerInstance);
    }
    const auto keyPoints = writeDoublings(trace, sig + "/key_points/x", sig + "/key_points/y",
                                          sig + "/doubling_slope", keys, firstUnits, height);
    chains.clear();
    for (std::uint64_t i = 0; i < computed; ++i) {
        chains.push_back({firstUnits[i], limbsOf(signatures[i].r), keyPoints[i].data(), shift});
    }
    writeSubsetSums(trace, sig + "/exponentiate_key", chains, height, true);

    // R = z·G + r·Q, then w·R from shift over R's doublings.
    std::vector<CurvePoint> results;
    for (std::uint64_t i = 0; i < computed; ++i) {
        const CurvePoint& g = generatorSums[i];
        const CurvePoint& k = chains[i].sum;
        const Fp difference = g.first - k.first;
        if (difference.isZero()) {
            throw TraceError("ecdsa: the signature at instance " + std::to_string(i) +
                             " does not verify");
        }
        const Fp inverse = difference.inverse();
        const Fp slope = (g.second - k.second) * inverse;
        const Fp x = slope.square() - g.first - k.first;
        results.push_back({x, slope * (g.first - x) - g.second});
        trace.set(sig + "/add_results_slope", i, slope);
        trace.set(sig + "/add_results_inv", i, inverse);
        firstUnits[i] = i * keyUnitsPerInstance + height;
    }
    const auto resultPoints = writeDoublings(trace, sig + "/key_points/x", sig + "/key_points/y",
                                             sig + "/doubling_slope", results, firstUnits, height);
    chains.clear();
    for (std::uint64_t i = 0; i < computed; ++i) {
        chains.push_back({firstUnits[i], limbsOf(signatures[i].w), resultPoints[i].data(), shift});
    }
    writeSubsetSums(trace, sig + "/exponentiate_key", chains, height, true);

    for (std::uint64_t i = 0; i < computed; ++i) {
        const EcdsaSignature& s = signatures[i];
        const CurvePoint& final = chains[i].sum;
        const Fp difference = final.first - shift.first;
        const Fp slope = (final.second + shift.second) * difference.inverse();
        if (slope.square() - final.first - shift.first != s.r || s.message.isZero() ||
            s.r.isZero() || s.w.isZero()) {
            throw TraceError("ecdsa: the signature at instance " + std::to_string(i) +
                             " does not verify");
        }
        trace.set(sig + "/extract_r_slope", i, slope);
        trace.set(sig + "/extract_r_inv", i, difference.inverse());
        trace.set(sig + "/z_inv", i, s.message.inverse());
        trace.set(sig + "/r_w_inv", 2 * i, s.r.inverse());
        trace.set(sig + "/r_w_inv", 2 * i + 1, s.w.inverse());
        trace.set(sig + "/q_x_squared", i, s.key.first.square());
    }
    if (rows != 0) {
        trace.repeatPeriod(sig + "/", rows);
    }
    for (std::uint64_t i = 0; i < instances; ++i) {
        const EcdsaSignature& s = signatures[i];
        trace.memory("ecdsa/pubkey/addr", "ecdsa/pubkey/value", i, begin + 2 * i, s.key.first);
        trace.memory("ecdsa/message/addr", "ecdsa/message/value", i, begin + 2 * i + 1, s.message);
    }
}

void writeEcOp(TraceTable& trace, const CairoRun& run) {
    const air::BuiltinSpec& spec = *trace.layout().builtin("ec_op");
    const std::uint64_t height = spec.parameter("scalar_height");
    const std::uint64_t instances = trace.instances("ec_op/p_x/addr");
    const std::uint64_t begin = builtinSegment(run, "ec_op").begin;
    // Unused instances compute shift + 0·P1 (Stone's dummy input).
    const CurvePoint dummyP = air::pedersenPoints()[0];
    const CurvePoint dummyQ = air::pedersenPoints()[1];

    std::vector<CurvePoint> ps, qs;
    std::vector<Fp> ms;
    std::vector<std::uint64_t> firstUnits;
    for (std::uint64_t i = 0; i < instances; ++i) {
        const std::uint64_t address = begin + 7 * i;
        if (run.at(address)) {
            ps.push_back(
                {memoryAt(run, address, "ec_op p.x"), memoryAt(run, address + 1, "ec_op p.y")});
            qs.push_back(
                {memoryAt(run, address + 2, "ec_op q.x"), memoryAt(run, address + 3, "ec_op q.y")});
            ms.push_back(memoryAt(run, address + 4, "ec_op m"));
        } else {
            ps.push_back(dummyP);
            qs.push_back(dummyQ);
            ms.push_back(Fp::zero());
        }
        firstUnits.push_back(i * height);
    }
    const auto doubled = writeDoublings(trace, "ec_op/doubled_points/x", "ec_op/doubled_points/y",
                                        "ec_op/doubling_slope", qs, firstUnits, height);
    std::vector<SumChain> chains;
    for (std::uint64_t i = 0; i < instances; ++i) {
        chains.push_back({firstUnits[i], limbsOf(ms[i]), doubled[i].data(), ps[i]});
    }
    const std::string name = "ec_op/ec_subset_sum";
    writeSubsetSums(trace, name, chains, height, true);
    for (std::uint64_t i = 0; i < instances; ++i) {
        writeBitUnpacking(trace, name, i, chains[i].scalar);
        const std::uint64_t address = begin + 7 * i;
        const CurvePoint& r = chains[i].sum;
        checkOutput(run, address + 5, r.first, "ec_op");
        checkOutput(run, address + 6, r.second, "ec_op");
        const std::pair<const char*, Fp> cells[] = {{"p_x", ps[i].first}, {"p_y", ps[i].second},
                                                    {"q_x", qs[i].first}, {"q_y", qs[i].second},
                                                    {"m", ms[i]},         {"r_x", r.first},
                                                    {"r_y", r.second}};
        for (std::uint64_t c = 0; c < 7; ++c) {
            const std::string column = std::string("ec_op/") + cells[c].first;
            trace.memory(column + "/addr", column + "/value", i, address + c, cells[c].second);
        }
    }
}

} // namespace proofdesk::stark
