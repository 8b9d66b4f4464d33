#include "TraceComponents.h"

#include "crypto/KeccakF.h"

#include <stdexcept>

// The trace writer of the Keccak builtin, mirroring air/components/Keccak.cpp. A component holds
// 16 invocations of Keccak-f[1600] bit-sliced in diluted form: one cell holds the same bit of the
// same lane for all 16, invocation v in the nibble at bit 4·(15 − v). Its parts:
//   • parse_to_diluted: each invocation's 8 input and 8 output words (200 bits each) copied into
//     reshaped_intermediate and final_reshaped_input, and the running sums (cumulative_sum) that
//     take them apart bit by bit into the diluted state before round 0 (state_begin) and after
//     round 23 (state_end);
//   • per round t: the column parities P (a sum of five bits, so three bit planes, and the same
//     sum rotated by one bit), θρπ's sum (its low bit in after_theta_rho_pi, its carry bit in a
//     theta_aux column) and χι's sum (bits 0 and 2 in chi_iota_aux0/2, bit 1 the next state).
// Cells are named by instance: units of the state column's step, 65536 per component; bit plane k
// of the state takes 1024 units and lane L before round t sits at unit 32L + t of its plane.

namespace proofdesk::stark {
namespace {

constexpr std::uint64_t kInvocations = 16; // per component
constexpr std::uint64_t kWords = 8;        // 200-bit words of a state
constexpr std::uint64_t kWordBits = 200;
constexpr std::uint64_t kStateBits = kWords * kWordBits;
constexpr int kRounds = 24;
constexpr std::uint64_t kPlane = 1024;            // units per bit plane
constexpr std::uint64_t kComponent = 64 * kPlane; // units per component
// A component's rows hold 2048 parse_to_diluted positions: 64 bit planes of 32 lane slots.
constexpr std::uint64_t kPositions = 2048;

using Lanes = std::array<std::uint64_t, 25>;
// A component's state in diluted form: word [L][k] holds bit k of lane L of each invocation.
using DilutedState = std::array<std::array<std::uint64_t, 64>, 25>;
using Words = std::array<Fp, 2 * kWords>; // an invocation's input words, then its output words

const std::string kColumns = "keccak/keccak/";
const std::string kParse = "keccak/keccak/parse_to_diluted/";
// The columns written for every bit of every lane, named once rather than per cell.
const std::string kState = kColumns + "state";
const std::string kStateBegin = kColumns + "state_begin";
const std::string kStateEnd = kColumns + "state_end";
const std::string kAfterThetaRhoPi = kColumns + "after_theta_rho_pi";
const std::string kChiIotaAux0 = kColumns + "chi_iota_aux0";
const std::string kChiIotaAux2 = kColumns + "chi_iota_aux2";

// All 16 nibbles' low bit: the diluted word of sixteen ones.
constexpr std::uint64_t kOnes = 0x1111111111111111ULL;

std::uint64_t nibbleShift(std::uint64_t invocation) {
    return 4 * (kInvocations - 1 - invocation);
}

bool stateBit(const Lanes& lanes, std::uint64_t bit) {
    return ((lanes[bit / 64] >> (bit % 64)) & 1) != 0;
}

// Word w of a state is its bits 200w … 200w + 199 (lanes little-endian, lane x + 5y at 64·(x+5y)).
std::array<Fp, kWords> wordsOf(const Lanes& lanes) {
    std::array<Fp, kWords> words;
    for (std::uint64_t w = 0; w < kWords; ++w) {
        crypto::Felt::Limbs limbs{};
        for (std::uint64_t j = 0; j < kWordBits; ++j) {
            if (stateBit(lanes, kWordBits * w + j)) {
                limbs[j / 64] |= std::uint64_t(1) << (j % 64);
            }
        }
        words[w] = Fp::fromFelt(*crypto::Felt::fromLimbs(limbs));
    }
    return words;
}

// The state whose words these are, or TraceError if one is not below 2^200.
Lanes lanesOf(const Fp* words, std::uint64_t address) {
    Lanes lanes{};
    for (std::uint64_t w = 0; w < kWords; ++w) {
        const crypto::Felt::Limbs limbs = words[w].toFelt().limbs();
        if ((limbs[3] >> (kWordBits - 192)) != 0) {
            throw TraceError("the keccak builtin's input at address " +
                             std::to_string(address + w) + " is not below 2^200");
        }
        for (std::uint64_t j = 0; j < kWordBits; ++j) {
            if ((limbs[j / 64] >> (j % 64)) & 1) {
                const std::uint64_t bit = kWordBits * w + j;
                lanes[bit / 64] |= std::uint64_t(1) << (bit % 64);
            }
        }
    }
    return lanes;
}

class KeccakTraceWriter {
public:
    KeccakTraceWriter(TraceTable& trace, const CairoRun& run)
        : m_trace(trace), m_run(run), m_begin(builtinSegment(run, "keccak").begin) {
        const air::LayoutSpec& layout = trace.layout();
        const std::uint64_t unit = layout.column(kState).step;
        m_componentRows = kComponent * unit;
        if (layout.column("keccak/input_output/addr").step * kInvocations * 2 * kWords !=
                m_componentRows ||
            layout.column(kStateBegin).step != 32 * unit ||
            layout.column(kParse + "cumulative_sum").step != unit ||
            layout.column(kParse + "reshaped_intermediate").step != 1 ||
            layout.column(kParse + "final_reshaped_input").step != 1) {
            throw std::logic_error("layout " + layout.name +
                                   ": the keccak columns are not in the shape the writer knows");
        }
        m_components = trace.length() / m_componentRows;
        for (int b = 0; b < 3; ++b) {
            for (int x = 0; x < 5; ++x) {
                m_parity[b][x] = kColumns + "parity" + std::to_string(b) + "_" + std::to_string(x);
            }
        }
        for (int x = 0; x < 5; ++x) {
            m_rotatedParity[x] = trace.column(kColumns + "rotated_parity" + std::to_string(x));
        }
        // The carry columns of the lanes θρπ writes, by destination lane; the last four lanes'
        // columns were split in three, one per 8 rounds.
        for (int y = 0; y < 5; ++y) {
            for (int x = 0; x < 5; ++x) {
                const std::string name =
                    kColumns + "theta_aux_i" + std::to_string(y) + "_j" + std::to_string(x);
                m_thetaAuxSplit[5 * y + x] = !layout.columns.contains(name);
                if (!m_thetaAuxSplit[5 * y + x]) {
                    m_thetaAux[5 * y + x] = {name, name, name};
                } else {
                    for (int n = 0; n < 3; ++n) {
                        m_thetaAux[5 * y + x][n] = name + "_start" + std::to_string(8 * n) +
                                                   "_stop" + std::to_string(8 * n + 8);
                    }
                }
            }
        }
    }

    void write() {
        const std::uint64_t used = (builtinSegment(m_run, "keccak").stop - m_begin) / (2 * kWords);
        if (used > m_components * kInvocations) {
            throw TraceError("the keccak builtin was invoked " + std::to_string(used) +
                             " times but the trace holds " +
                             std::to_string(m_components * kInvocations) +
                             "; prove with more steps");
        }
        for (std::uint64_t c = 0; c < m_components; ++c) {
            writeComponent(c);
        }
    }

private:
    // The words of invocation v of component c: its input from memory (zeros where the run has
    // none), its output computed.
    Words invocationWords(std::uint64_t c, std::uint64_t v, Lanes& input, Lanes& output) const {
        const std::uint64_t address = m_begin + 2 * kWords * (kInvocations * c + v);
        Words words;
        for (std::uint64_t w = 0; w < kWords; ++w) {
            words[w] = m_run.at(address + w).value_or(Fp::zero());
        }
        input = lanesOf(words.data(), address);
        output = input;
        crypto::keccakF1600(output);
        const std::array<Fp, kWords> out = wordsOf(output);
        for (std::uint64_t w = 0; w < kWords; ++w) {
            const std::uint64_t at = address + kWords + w;
            if (const auto stored = m_run.at(at); stored && *stored != out[w]) {
                throw TraceError("the keccak builtin's output at address " + std::to_string(at) +
                                 " differs from what the builtin computes");
            }
            words[kWords + w] = out[w];
        }
        return words;
    }

    void writeComponent(std::uint64_t c) {
        std::array<Words, kInvocations> words;
        DilutedState begin{}, end{};
        for (std::uint64_t v = 0; v < kInvocations; ++v) {
            Lanes input, output;
            words[v] = invocationWords(c, v, input, output);
            for (std::uint64_t bit = 0; bit < kStateBits; ++bit) {
                begin[bit / 64][bit % 64] |= std::uint64_t(stateBit(input, bit)) << nibbleShift(v);
                end[bit / 64][bit % 64] |= std::uint64_t(stateBit(output, bit)) << nibbleShift(v);
            }
        }
        writeInputOutput(c, words);
        writeCumulativeSums(c, words);
        for (std::uint64_t lane = 0; lane < 25; ++lane) {
            for (std::uint64_t k = 0; k < 64; ++k) {
                const std::uint64_t position = lane + 32 * k + kPositions * c;
                m_trace.diluted(kStateBegin, position, Fp::fromU64(begin[lane][k]));
                m_trace.diluted(kStateEnd, position, Fp::fromU64(end[lane][k]));
            }
        }
        DilutedState state = begin;
        for (int t = 0; t < kRounds; ++t) {
            round(c, t, state);
        }
        if (state != end) {
            throw std::logic_error(
                "the keccak trace's rounds do not reach the permutation's output");
        }
    }

    // The builtin's memory cells, and the words again in the two reshaped columns.
    void writeInputOutput(std::uint64_t c, const std::array<Words, kInvocations>& words) {
        for (std::uint64_t v = 0; v < kInvocations; ++v) {
            const std::uint64_t invocation = kInvocations * c + v;
            for (std::uint64_t n = 0; n < 2 * kWords; ++n) {
                const std::uint64_t cell = 2 * kWords * invocation + n;
                m_trace.memory("keccak/input_output/addr", "keccak/input_output/value", cell,
                               m_begin + cell, words[v][n]);
                m_trace.set(kParse + "reshaped_intermediate", n + 2048 * 2 * kWords * invocation,
                            words[v][n]);
                m_trace.set(kParse + "final_reshaped_input",
                            n + 2 * kWords * v + m_componentRows * c, words[v][n]);
            }
        }
    }

    // cumulative_sum at (words r, invocation v, position p): the bits of the state from the top
    // down to the position's bit, read as a number, plus 16 times the same for invocation v − 1;
    // position 32k + L is bit k of lane L. Positions past the state (lane slot 25) stay zero.
    void writeCumulativeSums(std::uint64_t c, const std::array<Words, kInvocations>& words) {
        const TraceTable::Column sums = m_trace.column(kParse + "cumulative_sum");
        const Fp sixteen = Fp::fromU64(16);
        for (std::uint64_t r = 0; r < 2; ++r) {
            for (std::uint64_t v = 0; v < kInvocations; ++v) {
                Fp running = Fp::zero();
                for (std::uint64_t w = kWords; w-- > 0;) {
                    const crypto::Felt::Limbs limbs = words[v][kWords * r + w].toFelt().limbs();
                    for (std::uint64_t j = kWordBits; j-- > 0;) {
                        running = running.doubled();
                        if ((limbs[j / 64] >> (j % 64)) & 1) {
                            running += Fp::one();
                        }
                        const std::uint64_t bit = kWordBits * w + j;
                        const std::uint64_t position = 32 * (bit % 64) + bit / 64 + kPositions * c;
                        const auto at = [&](std::uint64_t invocation) {
                            return r + 2 * (invocation + kInvocations * position);
                        };
                        sums[at(v)] = v == 0 ? running : running + sixteen * sums[at(v - 1)];
                    }
                }
            }
        }
    }

    void diluted(const std::string& column, std::uint64_t instance, std::uint64_t value) {
        m_trace.diluted(column, instance, Fp::fromU64(value));
    }

    // Round t on the component's diluted state, writing its cells.
    void round(std::uint64_t c, int t, DilutedState& state) {
        const std::uint64_t base = kComponent * c + std::uint64_t(t);
        const auto unit = [&](std::uint64_t lane, std::uint64_t k) {
            return base + 32 * lane + kPlane * k;
        };
        // θ: the column parities, a sum of five bits per nibble (below 8, three bit planes).
        std::array<std::array<std::uint64_t, 64>, 5> sums{};
        for (std::uint64_t x = 0; x < 5; ++x) {
            for (std::uint64_t k = 0; k < 64; ++k) {
                std::uint64_t sum = 0;
                for (std::uint64_t y = 0; y < 5; ++y) {
                    sum += state[x + 5 * y][k];
                }
                sums[x][k] = sum;
                for (int b = 0; b < 3; ++b) {
                    diluted(m_parity[b][x], base + kPlane * k, (sum >> b) & kOnes);
                }
                m_rotatedParity[x][base + kPlane * ((k + 1) % 64)] = Fp::fromU64(sum & kOnes);
            }
        }
        // θ, ρ, π: lane (x, y) plus two column parities, rotated by ρ and moved to (y, 2x + 3y).
        DilutedState moved{};
        for (int y = 0; y < 5; ++y) {
            for (int x = 0; x < 5; ++x) {
                const std::uint64_t to = std::uint64_t(5 * ((2 * x + 3 * y) % 5) + y);
                // A split column holds 8 rounds, from its first.
                const std::string& carry = m_thetaAux[to][std::size_t(t / 8)];
                const std::uint64_t split = m_thetaAuxSplit[to] ? std::uint64_t(8 * (t / 8)) : 0;
                for (std::uint64_t k = 0; k < 64; ++k) {
                    const std::uint64_t value =
                        state[std::uint64_t(x + 5 * y)][k] +
                        (sums[std::uint64_t((x + 4) % 5)][k] & kOnes) +
                        (sums[std::uint64_t((x + 1) % 5)][(k + 63) % 64] & kOnes);
                    const std::uint64_t rotated =
                        (k + std::uint64_t(crypto::keccakRotation(x, y))) % 64;
                    moved[to][rotated] = value & kOnes;
                    diluted(kAfterThetaRhoPi, unit(to, rotated), value & kOnes);
                    diluted(carry, base - split + kPlane * rotated, (value >> 1) & kOnes);
                }
            }
        }
        // χ, ι: 2a + (1 − b) + c (+ 2 on the round constant's bits of lane 0) has bit 1
        // a ⊕ (¬b ∧ c) ⊕ rc, the next state.
        const std::uint64_t constant = crypto::keccakRoundConstant(t);
        for (std::uint64_t y = 0; y < 5; ++y) {
            for (std::uint64_t x = 0; x < 5; ++x) {
                const std::uint64_t lane = x + 5 * y;
                for (std::uint64_t k = 0; k < 64; ++k) {
                    std::uint64_t value = 2 * moved[lane][k] +
                                          (kOnes - moved[(x + 1) % 5 + 5 * y][k]) +
                                          moved[(x + 2) % 5 + 5 * y][k];
                    if (lane == 0 && ((constant >> k) & 1)) {
                        value += 2 * kOnes;
                    }
                    state[lane][k] = (value >> 1) & kOnes;
                    diluted(kChiIotaAux0, unit(lane, k), value & kOnes);
                    diluted(kChiIotaAux2, unit(lane, k), (value >> 2) & kOnes);
                    if (t + 1 < kRounds) {
                        diluted(kState, unit(lane, k) + 1, state[lane][k]);
                    }
                }
            }
        }
    }

    TraceTable& m_trace;
    const CairoRun& m_run;
    std::uint64_t m_begin;
    std::uint64_t m_componentRows = 0;
    std::uint64_t m_components = 0;
    std::string m_parity[3][5];
    TraceTable::Column m_rotatedParity[5];
    std::array<std::array<std::string, 3>, 25> m_thetaAux; // by round / 8
    std::array<bool, 25> m_thetaAuxSplit{};
};

} // namespace

void writeKeccak(TraceTable& trace, const CairoRun& run) {
    KeccakTraceWriter(trace, run).write();
}

} // namespace proofdesk::stark
