#include "TraceComponents.h"

#include "crypto/Poseidon.h"

#include <array>

// The trace writers of the range-check, bitwise and Poseidon builtins, mirroring their
// components in air/components.

namespace proofdesk::stark {
namespace {

using Limbs = crypto::Felt::Limbs;

bool bitOf(const Limbs& value, std::uint64_t bit) {
    return bit < 256 && ((value[bit / 64] >> (bit % 64)) & 1) != 0;
}

// The first `bits` bits of the value below 2^bits, else TraceError.
// The value's limbs if it is below 2^bits, else TraceError naming it (what(), built only then).
template <typename What> Limbs boundedValue(const Fp& value, std::uint64_t bits, const What& what) {
    const Limbs limbs = value.toFelt().limbs();
    for (std::uint64_t bit = bits; bit < 256; ++bit) {
        if (bitOf(limbs, bit)) {
            throw TraceError(what() + " is not below 2^" + std::to_string(bits));
        }
    }
    return limbs;
}

// A range-check builtin's cells: each instance's value at begin + i is `parts` 16-bit parts, the
// most significant first. The 128-bit builtin keeps its parts in one virtual column (instance
// parts·i + k), the 96-bit one in a column per part.
struct RangeCheckCells {
    std::uint64_t parts = 0;
    bool columnPerPart = false;
    std::uint64_t begin = 0;
    std::uint64_t instances = 0;
    std::vector<TraceTable::PoolColumn> partCells; // by part
    TraceTable::MemoryColumns memoryCells;

    RangeCheckCells(TraceTable& trace, const CairoRun& run, const std::string& name)
        : parts(trace.layout().builtin(name)->parameter("n_parts")),
          columnPerPart(!trace.layout().columns.contains(name + "_builtin/inner_range_check")),
          begin(builtinSegment(run, name).begin),
          instances(trace.instances(name + "_builtin/mem/addr")),
          memoryCells(
              trace.memoryColumns(name + "_builtin/mem/addr", name + "_builtin/mem/value")) {
        for (std::uint64_t k = 0; k < parts; ++k) {
            const std::string column =
                name + "_builtin/inner_range_check" + (columnPerPart ? std::to_string(k) : "");
            partCells.push_back(trace.rangeChecked(column));
        }
    }

    std::uint64_t partInstance(std::uint64_t i, std::uint64_t k) const {
        return columnPerPart ? i : parts * i + k;
    }
    void memory(std::uint64_t i, const Fp& value) const { memoryCells.write(i, begin + i, value); }
};

} // namespace

void writeRangeCheckBuiltin(TraceTable& trace, const CairoRun& run, const std::string& name) {
    const RangeCheckCells cells(trace, run, name);
    for (std::uint64_t i = 0; i < cells.instances; ++i) {
        const auto value = run.at(cells.begin + i);
        if (!value) {
            continue; // left to the range-check pool's filling, see finishRangeCheckBuiltin
        }
        const Limbs limbs = boundedValue(*value, 16 * cells.parts, [&] {
            return "the range-checked value at address " + std::to_string(cells.begin + i);
        });
        for (std::uint64_t k = 0; k < cells.parts; ++k) {
            const std::uint64_t shift = 16 * (cells.parts - 1 - k);
            cells.partCells[k].write(cells.partInstance(i, k),
                                     Fp::fromU64((limbs[shift / 64] >> (shift % 64)) & 0xffff));
        }
        cells.memory(i, *value);
    }
}

void finishRangeCheckBuiltin(TraceTable& trace, const CairoRun& run, const std::string& name) {
    const RangeCheckCells cells(trace, run, name);
    const Fp base = Fp::fromU64(1 << 16);
    for (std::uint64_t i = 0; i < cells.instances; ++i) {
        if (run.at(cells.begin + i)) {
            continue;
        }
        // An unused instance holds whatever its parts were filled with.
        Fp value = Fp::zero();
        for (std::uint64_t k = 0; k < cells.parts; ++k) {
            value = value * base + cells.partCells[k].cells()[cells.partInstance(i, k)];
        }
        cells.memory(i, value);
    }
}

void writeBitwise(TraceTable& trace, const CairoRun& run) {
    const air::LayoutSpec& layout = trace.layout();
    const std::uint64_t bits = layout.builtin("bitwise")->parameter("total_n_bits");
    const std::uint64_t spacing = *layout.dilutedSpacing;
    const std::uint64_t instances = trace.instances("bitwise/x/addr");
    const std::uint64_t begin = builtinSegment(run, "bitwise").begin;
    // Diluted cell k of a value: the bits 64·(k/4) + k%4 + 4t, t < 16, spread `spacing` apart.
    const auto cell = [&](const Limbs& value, std::uint64_t k) {
        std::uint64_t out = 0;
        for (std::uint64_t t = 0; t < 16; ++t) {
            if (bitOf(value, 64 * (k / 4) + k % 4 + 4 * t)) {
                out |= std::uint64_t(1) << (spacing * t);
            }
        }
        return out;
    };
    // The columns, resolved once.
    std::array<TraceTable::MemoryColumns, 5> memoryCells;
    const char* names[] = {"x", "y", "x_and_y", "x_xor_y", "x_or_y"};
    for (std::size_t c = 0; c < 5; ++c) {
        const std::string column = std::string("bitwise/") + names[c];
        memoryCells[c] = trace.memoryColumns(column + "/addr", column + "/value");
    }
    const TraceTable::PoolColumn dilutedCells = trace.dilutedValues("bitwise/diluted_var_pool");
    std::array<TraceTable::PoolColumn, 4> trimCells;
    for (std::size_t k = 0; k < 4; ++k) {
        trimCells[k] = trace.dilutedValues("bitwise/trim_unpacking" + std::to_string(192 + k));
    }
    for (std::uint64_t i = 0; i < instances; ++i) {
        const std::uint64_t address = begin + 5 * i;
        const auto input = [&](std::uint64_t at) {
            return boundedValue(run.at(at).value_or(Fp::zero()), bits, [at] {
                return "the bitwise input at address " + std::to_string(at);
            });
        };
        const Limbs x = input(address);
        const Limbs y = input(address + 1);
        Limbs values[5];
        for (std::size_t w = 0; w < 4; ++w) {
            values[0][w] = x[w];
            values[1][w] = y[w];
            values[2][w] = x[w] & y[w];
            values[3][w] = x[w] ^ y[w];
            values[4][w] = x[w] | y[w];
        }
        for (std::uint64_t c = 0; c < 5; ++c) {
            const Fp value = Fp::fromFelt(*crypto::Felt::fromLimbs(values[c]));
            if (const auto stored = run.at(address + c); c >= 2 && stored && *stored != value) {
                throw TraceError("the bitwise builtin's output at address " +
                                 std::to_string(address + c) +
                                 " differs from what the builtin computes");
            }
            memoryCells[c].write(i, address + c, value);
        }
        for (std::uint64_t unit = 0; unit < 4; ++unit) {
            for (std::uint64_t k = 0; k < 16; ++k) {
                dilutedCells.write(16 * (4 * i + unit) + k, Fp::fromU64(cell(values[unit], k)));
            }
        }
        // The top cells of x|y shifted out once more (twice for the last), so no bit reaches 251.
        for (std::uint64_t k = 0; k < 4; ++k) {
            const Fp top =
                Fp::fromU64(cell(values[2], 12 + k)) + Fp::fromU64(cell(values[3], 12 + k));
            trimCells[k].write(i, top * Fp::fromU64(k < 3 ? 16 : 256));
        }
    }
}

void writePoseidon(TraceTable& trace, const CairoRun& run) {
    const air::BuiltinSpec& spec = *trace.layout().builtin("poseidon");
    const int fullRounds = int(spec.parameter("rounds_full"));
    const int partialRounds = int(spec.parameter("rounds_partial"));
    const std::string p = "poseidon/poseidon/";
    const std::uint64_t instances = trace.instances("poseidon/param_0/input_output/addr") / 2;
    const std::uint64_t begin = builtinSegment(run, "poseidon").begin;
    const std::uint64_t rows = trace.length() / instances;
    const std::uint64_t size0 = rows / trace.layout().column(p + "partial_rounds_state0").step;
    const std::uint64_t capacity1 = rows / trace.layout().column(p + "partial_rounds_state1").step;
    std::vector<std::array<Fp, 3>> keys;
    for (const auto& round : crypto::poseidonRoundConstants()) {
        keys.push_back({Fp::fromFelt(round[0]), Fp::fromFelt(round[1]), Fp::fromFelt(round[2])});
    }
    std::array<TraceTable::Column, 3> full, fullSquared;
    for (int j = 0; j < 3; ++j) {
        full[std::size_t(j)] = trace.column(p + "full_rounds_state" + std::to_string(j));
        fullSquared[std::size_t(j)] =
            trace.column(p + "full_rounds_state" + std::to_string(j) + "_squared");
    }
    const TraceTable::Column partial0 = trace.column(p + "partial_rounds_state0");
    const TraceTable::Column partial0Squared = trace.column(p + "partial_rounds_state0_squared");
    const TraceTable::Column partial1 = trace.column(p + "partial_rounds_state1");
    const TraceTable::Column partial1Squared = trace.column(p + "partial_rounds_state1_squared");

    const auto mds = [](std::array<Fp, 3>& s) {
        const Fp a = s[0], b = s[1], c = s[2];
        s = {a * Fp::fromU64(3) + b + c, a - b + c, a + b - c.doubled()};
    };
    for (std::uint64_t i = 0; i < instances; ++i) {
        std::array<Fp, 3> state;
        for (std::uint64_t j = 0; j < 3; ++j) {
            state[j] = run.at(begin + 6 * i + j).value_or(Fp::zero());
            trace.memory("poseidon/param_" + std::to_string(j) + "/input_output/addr",
                         "poseidon/param_" + std::to_string(j) + "/input_output/value", 2 * i,
                         begin + 6 * i + j, state[j]);
        }
        std::size_t round = 0;
        const auto fullRound = [&](std::uint64_t index) {
            for (std::size_t j = 0; j < 3; ++j) {
                state[j] += keys[round][j];
                full[j][std::uint64_t(fullRounds) * i + index] = state[j];
                const Fp square = state[j].square();
                fullSquared[j][std::uint64_t(fullRounds) * i + index] = square;
                state[j] = square * state[j];
            }
            mds(state);
            ++round;
        };
        for (int r = 0; r < fullRounds / 2; ++r) {
            fullRound(std::uint64_t(r));
        }
        for (std::uint64_t k = 0; k < std::uint64_t(partialRounds); ++k) {
            for (std::size_t j = 0; j < 3; ++j) {
                state[j] += keys[round][j];
            }
            const Fp x = state[2];
            const Fp square = x.square();
            if (k < size0) {
                partial0[size0 * i + k] = x;
                partial0Squared[size0 * i + k] = square;
            }
            if (k + 3 >= size0) {
                const std::uint64_t m = k + 3 - size0;
                partial1[capacity1 * i + m] = x;
                partial1Squared[capacity1 * i + m] = square;
            }
            state[2] = square * x;
            mds(state);
            ++round;
        }
        for (int r = fullRounds / 2; r < fullRounds; ++r) {
            fullRound(std::uint64_t(r));
        }
        for (std::uint64_t j = 0; j < 3; ++j) {
            const std::uint64_t address = begin + 6 * i + 3 + j;
            if (const auto stored = run.at(address); stored && *stored != state[j]) {
                throw TraceError("the poseidon builtin's output at address " +
                                 std::to_string(address) +
                                 " differs from what the builtin computes");
            }
            trace.memory("poseidon/param_" + std::to_string(j) + "/input_output/addr",
                         "poseidon/param_" + std::to_string(j) + "/input_output/value", 2 * i + 1,
                         address, state[j]);
        }
    }
}

} // namespace proofdesk::stark
