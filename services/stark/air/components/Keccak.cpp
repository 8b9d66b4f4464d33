#include "air/AirBuilder.h"
#include "crypto/KeccakF.h"

#include <stdexcept>

// The Keccak builtin: Keccak-f[1600] on the 25 64-bit lanes of each instance's input. A component
// of 16 instances is computed at once, bit-sliced in diluted form (spacing 4): one trace cell holds
// the same bit of the same lane for all 16 instances, one 4-bit nibble each. Within a component's
// rows (65536 units of the state column's step u):
//   • bit plane h (bit h of every lane) takes 1024 units: row 1024u·h;
//   • in a plane, lane L = 5y + x before round t sits at state[32L + t] (t = 0…23, 24 the output);
//   • so each lane has a block of 32 round slots (32u rows) in every plane.
// The input words are read from memory, reshaped, and spread into diluted bits through the
// cumulative sums of parse_to_diluted. θ sums each column's parities (three diluted bits added, so
// the sum's low bit is the parity), ρ rotates a lane by r bits by moving it r planes on (the part
// that wraps past bit 63 is a second constraint), π moves lanes, and χ with ι combines three
// lanes and the round constant's bit (on the 7 planes where Keccak's round constants have bits).

namespace proofdesk::stark::air {
namespace {

// "1" in all 16 nibbles of a diluted word: Σ 2^(4i), i < 16.
constexpr std::uint64_t kDilutedOnes = 0x1111111111111111ULL;

// Bit t of Keccak's round-constant generator: the LFSR x^8 + x^6 + x^5 + x^4 + 1 from 1.
bool roundConstantBit(int t) {
    std::uint32_t r = 1;
    for (int i = 0; i < t % 255; ++i) {
        r <<= 1;
        if (r & 0x100) {
            r ^= 0x171;
        }
    }
    return (r & 1) != 0;
}

// Bit b (b = 2^j − 1) of round constant RC[round]; rounds past 23 continue the generator.
bool roundConstantHasBit(int round, int j) {
    return roundConstantBit(j + 7 * round);
}

class KeccakAir {
public:
    explicit KeccakAir(AirBuilder& b)
        : m_b(b), m_unit(b.step(kColumns + "state")), m_plane(1024 * m_unit),
          m_component(64 * m_plane), m_roundSlots(32 * m_unit) {
        const std::uint64_t instance = b.layout().builtin("keccak")->parameter("row_ratio");
        if (16 * instance != m_component) {
            throw std::runtime_error("layout " + b.layout().name +
                                     ": the keccak state column does not fit 16 instances");
        }
        if (b.traceLength() < m_component) {
            throw std::runtime_error("layout " + b.layout().name +
                                     ": the keccak builtin needs a trace of at least " +
                                     std::to_string(m_component) + " rows; this one has " +
                                     std::to_string(b.traceLength()));
        }
    }

    void add();

private:
    inline static const std::string kColumns = "keccak/keccak/";
    inline static const std::string kParse = "keccak/keccak/parse_to_diluted/";

    Expr cell(const std::string& column, std::int64_t index) {
        return m_b.at(kColumns + column, index);
    }
    Expr state(std::int64_t index) { return cell("state", index); }
    Expr after(std::int64_t index) { return cell("after_theta_rho_pi", index); }
    Expr cumulative(std::int64_t index) { return m_b.at(kParse + "cumulative_sum", index); }
    // U − after[s]: the complement of a diluted word's bits.
    Expr afterNegated(std::int64_t index) {
        return m_b.constant(std::int64_t(kDilutedOnes)) - after(index);
    }
    // θ's parity of column (x + 4) mod 5 plus the rotated parity of column (x + 1) mod 5.
    Expr sumParities(int x, std::int64_t index) {
        return cell("parity0_" + std::to_string((x + 4) % 5), index) +
               cell("rotated_parity" + std::to_string((x + 1) % 5), index);
    }

    // The rows r ≡ R (mod period) for each R of `rs`, appended to `domain`.
    Domain residues(std::uint64_t period, const std::vector<std::uint64_t>& rs,
                    Domain domain = {}) const {
        for (std::uint64_t r : rs) {
            domain.push_back(m_b.rows(period, r));
        }
        return domain;
    }
    // The rows base + m·(32 units) + t·unit: the first slotCount round slots of the blocks
    // m = blockFirst…blockLast (in a plane, block L holds lane L's state before each round).
    std::vector<std::uint64_t> roundSlots(std::uint64_t base, std::uint64_t blockFirst,
                                          std::uint64_t blockLast, std::uint64_t slotCount) const {
        std::vector<std::uint64_t> out;
        for (std::uint64_t m = blockFirst; m <= blockLast; ++m) {
            for (std::uint64_t t = 0; t < slotCount; ++t) {
                out.push_back(base + m * m_roundSlots + t * m_unit);
            }
        }
        return out;
    }
    // The rounds `rounds` (24, or 8 for the split lanes) of the given bit planes of a component.
    Domain planes(const std::vector<int>& hs, int rounds) const {
        std::vector<std::uint64_t> rs;
        for (int h : hs) {
            for (int t = 0; t < rounds; ++t) {
                rs.push_back(std::uint64_t(h) * m_plane + std::uint64_t(t) * m_unit);
            }
        }
        return residues(m_component, rs);
    }
    static std::vector<int> range(int first, int last) {
        std::vector<int> out;
        for (int h = first; h <= last; ++h) {
            out.push_back(h);
        }
        return out;
    }
    // The rounds of every plane, as one factor per round.
    Domain everyPlane(int rounds) const {
        return residues(m_plane, roundSlots(0, 0, 0, std::uint64_t(rounds)));
    }

    void addInputOutput();
    void addParseToDiluted();
    void addParity();
    void addThetaRhoPi();
    void addChiIota();

    AirBuilder& m_b;
    std::uint64_t m_unit;       // the state column's step
    std::uint64_t m_plane;      // rows of one bit plane
    std::uint64_t m_component;  // rows of one component (16 instances)
    std::uint64_t m_roundSlots; // rows of one plane's round slots
};

void KeccakAir::addInputOutput() {
    const std::uint64_t io = m_b.step("keccak/input_output/addr");
    m_b.constraint("keccak/init_input_output_addr",
                   m_b.at("keccak/input_output/addr") - m_b.value("initial_keccak_addr"), {},
                   {m_b.row(0)});
    m_b.constraint("keccak/addr_input_output_step",
                   m_b.at("keccak/input_output/addr", 1) - (m_b.at("keccak/input_output/addr") + 1),
                   {m_b.row(-std::int64_t(io))}, {m_b.rows(io)});
}

void KeccakAir::addParseToDiluted() {
    const std::uint64_t instance = m_b.layout().builtin("keccak")->parameter("row_ratio");
    // The 16 memory words of an instance (25 lanes of 64 bits in 8 words of 200 bits, in and out).
    for (int a = 0; a < 2; ++a) {
        for (int w = 0; w < 8; ++w) {
            const int n = 8 * a + w;
            m_b.constraint(kParse + "reshape_intermediate" + std::to_string(a) + "_w" +
                               std::to_string(w),
                           m_b.at("keccak/input_output/value", n) -
                               m_b.at(kParse + "reshaped_intermediate", n),
                           {}, {m_b.rows(instance)});
        }
    }
    const Domain firstSixteenRows =
        residues(m_component, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    for (int t = 0; t < 16; ++t) {
        m_b.constraint(kParse + "reshape_final" + std::to_string(t),
                       m_b.at(kParse + "reshaped_intermediate", std::int64_t(instance) * t) -
                           m_b.at(kParse + "final_reshaped_input", 16 * t),
                       {}, firstSixteenRows);
    }
    m_b.constraint(kParse + "start_accumulation", cumulative(800), {},
                   residues(m_component, roundSlots(0, 0, 0, 32)));

    // Sum of the words over the instances: word i's cumulative sum minus the next word's, 2^200
    // apart (the last word's next is the second accumulation at 800).
    const auto sumWords = [&](int i, std::int64_t d) {
        const std::int64_t next = i < 7 ? 8288 * (i + 1) : 800;
        return cumulative(8288 * i + d) - m_b.powerOfTwo(200) * cumulative(next + d);
    };
    for (int i = 0; i < 8; ++i) {
        m_b.constraint(kParse + "init_first_invocation" + std::to_string(i),
                       m_b.at(kParse + "final_reshaped_input", i) - sumWords(i, 0), {},
                       residues(m_component, {0, m_unit}));
        m_b.constraint(kParse + "init_other_invocations" + std::to_string(i),
                       m_b.at(kParse + "final_reshaped_input", 16 + i) + sumWords(i, 0) * 16 -
                           sumWords(i, 2),
                       {}, residues(m_component, roundSlots(0, 0, 0, 30)));
    }

    // The diluted bits: a partial sum minus twice the next one is a bit.
    const auto partial1 = [&](std::int64_t d) {
        return cumulative(64512 + d) - (cumulative(32 + d) + cumulative(32 + d));
    };
    const auto partial0 = [&](std::int64_t d) {
        return cumulative(d) - (cumulative(1024 + d) + cumulative(1024 + d));
    };
    const Expr bitOther1 = partial1(2) - partial1(0) * 16;
    const Expr bitOther0 = partial0(2) - partial0(0) * 16;
    const std::uint64_t lastPlane = 63 * m_plane;
    m_b.constraint(kParse + "extract_bit_first_invocation1",
                   partial1(0) * partial1(0) - partial1(0), {},
                   residues(m_component, roundSlots(0, 0, 24, 2)));
    m_b.constraint(kParse + "extract_bit_other_invocations1", bitOther1 * bitOther1 - bitOther1, {},
                   residues(m_component, roundSlots(0, 0, 24, 30)));
    m_b.constraint(kParse + "to_diluted0_p1", partial1(30) - cell("state_begin", 2016), {},
                   residues(m_component, roundSlots(0, 0, 24, 1)));
    m_b.constraint(kParse + "to_diluted1_p1", partial1(31) - cell("state_end", 2016), {},
                   residues(m_component, roundSlots(0, 0, 24, 1)));

    const Domain firstExcluded = residues(m_component, roundSlots(lastPlane, 0, 25, 2),
                                          residues(m_plane, roundSlots(0, 26, 31, 2)));
    m_b.constraint(kParse + "extract_bit_first_invocation0",
                   partial0(0) * partial0(0) - partial0(0), firstExcluded,
                   residues(m_roundSlots, {0, m_unit}));
    const Domain otherExcluded =
        residues(m_component, roundSlots(lastPlane, 0, 25, 30),
                 residues(m_plane, roundSlots(0, 26, 31, 30),
                          residues(m_roundSlots, {30 * m_unit, 31 * m_unit})));
    m_b.constraint(kParse + "extract_bit_other_invocations0", bitOther0 * bitOther0 - bitOther0,
                   otherExcluded, {m_b.rows(m_unit)});
    const Domain dilutedExcluded = residues(m_component, roundSlots(lastPlane, 0, 24, 1),
                                            residues(m_plane, roundSlots(0, 25, 31, 1)));
    m_b.constraint(kParse + "to_diluted0_p0", partial0(30) - cell("state_begin", 0),
                   dilutedExcluded, {m_b.rows(m_roundSlots)});
    m_b.constraint(kParse + "to_diluted1_p0", partial0(31) - cell("state_end", 0), dilutedExcluded,
                   {m_b.rows(m_roundSlots)});
}

void KeccakAir::addParity() {
    // A column's three diluted parity bits: the sum of its five lanes' bits.
    for (int x = 0; x < 5; ++x) {
        const std::string c = std::to_string(x);
        Expr sum = state(32 * x);
        for (int y = 1; y < 5; ++y) {
            sum = sum + state(32 * x + 160 * y);
        }
        m_b.constraint(kColumns + "parity" + c,
                       sum - (cell("parity0_" + c, 0) + cell("parity1_" + c, 0) * 2 +
                              cell("parity2_" + c, 0) * 4),
                       {}, everyPlane(24));
    }
    // The parity rotated by one bit (one plane on; plane 63's moves to plane 0).
    for (int x = 0; x < 5; ++x) {
        const std::string c = std::to_string(x);
        m_b.constraint(kColumns + "rotate_parity" + c + "/n0",
                       cell("rotated_parity" + c, 0) - cell("parity0_" + c, 64512), {},
                       planes({0}, 24));
        m_b.constraint(kColumns + "rotate_parity" + c + "/n1",
                       cell("rotated_parity" + c, 1024) - cell("parity0_" + c, 0), planes({63}, 24),
                       everyPlane(24));
    }
}

void KeccakAir::addThetaRhoPi() {
    // The planes a part holds on; over 32 of them it is written as "every plane but the others".
    const auto onPlanes = [&](const std::string& name, Expr expr, const std::vector<int>& valid,
                              int rounds) {
        if (valid.size() <= 32) {
            m_b.constraint(name, expr, {}, planes(valid, rounds));
            return;
        }
        std::vector<int> others;
        for (int h = int(valid.size()); h < 64; ++h) {
            others.push_back(h);
        }
        m_b.constraint(name, expr, planes(others, rounds), everyPlane(rounds));
    };
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            const int r = crypto::keccakRotation(j, i);
            const int lane = 5 * i + j;
            const int toRow = (2 * j + 3 * i) % 5, toColumn = i;
            const int toLane = 5 * toRow + toColumn;
            const std::string name =
                kColumns + "theta_rho_pi_i" + std::to_string(i) + "_j" + std::to_string(j);
            const std::string aux =
                "theta_aux_i" + std::to_string(toRow) + "_j" + std::to_string(toColumn);
            const auto part = [&](int x, std::int64_t s, std::int64_t a, std::int64_t bIndex,
                                  const std::string& auxColumn, std::int64_t c) {
                return sumParities(x, s) + state(a) -
                       (after(bIndex) + cell(auxColumn, c) + cell(auxColumn, c));
            };
            const std::int64_t wrap = 1024 * (64 - r);
            if (r == 0) {
                m_b.constraint(name, part(j, 0, 0, 0, aux, 0), {}, everyPlane(24));
            } else if (toRow != 4 || toColumn == 0) {
                onPlanes(name + "/n0", part(j, 0, 32 * lane, 1024 * r + 32 * toLane, aux, 1024 * r),
                         range(0, 63 - r), 24);
                onPlanes(name + "/n1", part(j, wrap, wrap + 32 * lane, 32 * toLane, aux, 0),
                         range(0, r - 1), 24);
            } else {
                // Lanes into row 4 take their round slots in three parts of 8, each with its own
                // auxiliary column.
                for (int n = 0; n < 6; ++n) {
                    const int q = n % 3;
                    const std::string auxPart = aux + "_start" + std::to_string(8 * q) + "_stop" +
                                                std::to_string(8 * q + 8);
                    const std::int64_t o = 8 * q;
                    if (n < 3) {
                        onPlanes(name + "/n" + std::to_string(n),
                                 part(j, o, 32 * lane + o, 1024 * r + 32 * toLane + o, auxPart,
                                      1024 * r),
                                 range(0, 63 - r), 8);
                    } else {
                        onPlanes(
                            name + "/n" + std::to_string(n),
                            part(j, wrap + o, wrap + 32 * lane + o, 32 * toLane + o, auxPart, 0),
                            range(0, r - 1), 8);
                    }
                }
            }
        }
    }
}

void KeccakAir::addChiIota() {
    // χ on lane x = 0 (+ ι's round-constant bit b, on the 7 planes where one can be set).
    // 2·after[c] + (U − after[negated]) + after[last] against aux0[c] + 2·state[c + 1] + 4·aux2[c].
    const auto chi = [&](std::int64_t c, std::int64_t negated, std::int64_t last) {
        return after(c) + after(c) + afterNegated(negated) + after(last) -
               (cell("chi_iota_aux0", c) + state(c + 1) + state(c + 1) +
                cell("chi_iota_aux2", c) * 4);
    };
    const int keyBits[] = {0, 1, 3, 7, 15, 31, 63};
    for (std::size_t j = 0; j < 7; ++j) {
        const int bit = keyBits[j];
        const std::string name = kColumns + "keccak_round_key" + std::to_string(bit);
        std::vector<Fp> values;
        for (int t = 0; t < 32; ++t) {
            values.push_back(roundConstantHasBit(t, int(j)) ? Fp::fromU64(2 * kDilutedOnes)
                                                            : Fp::zero());
        }
        const Expr key = m_b.periodic(
            m_b.addPeriodic({name, std::move(values), m_b.layout().periodic.at(name).step}));
        const std::int64_t c = 1024 * bit;
        m_b.constraint(kColumns + "chi_iota" + std::to_string(bit), key + chi(c, c + 32, c + 64),
                       {}, planes({0}, 24));
    }
    std::vector<std::uint64_t> threeLanes;
    std::vector<std::uint64_t> oneLane;
    for (std::uint64_t y = 0; y < 5; ++y) {
        for (std::uint64_t x = 0; x < 3; ++x) {
            for (std::uint64_t t = 0; t < 24; ++t) {
                threeLanes.push_back(y * 5 * m_roundSlots + x * m_roundSlots + t * m_unit);
            }
        }
        for (std::uint64_t t = 0; t < 24; ++t) {
            oneLane.push_back(y * 5 * m_roundSlots + t * m_unit);
        }
    }
    m_b.constraint(kColumns + "chi0", chi(0, 32, 64), planes({0, 1, 3, 7, 15, 31, 63}, 24),
                   residues(m_plane, threeLanes));
    m_b.constraint(kColumns + "chi1", chi(128, 0, 32), {}, residues(m_plane, oneLane));
    m_b.constraint(kColumns + "chi2", chi(96, 128, 0), {}, residues(m_plane, oneLane));
}

void KeccakAir::add() {
    addInputOutput();
    addParseToDiluted();
    addParity();
    addThetaRhoPi();
    addChiIota();
}

} // namespace

void addKeccak(AirBuilder& b) {
    KeccakAir(b).add();
}

} // namespace proofdesk::stark::air
