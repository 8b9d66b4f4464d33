#include "Poseidon.h"

#include "MontField.h"

#include <QByteArray>
#include <QCryptographicHash>

namespace proofdesk::crypto {
namespace {

using Limbs = Felt::Limbs;
constexpr int kFullRounds = 8;
constexpr int kPartialRounds = 83;
constexpr int kRounds = kFullRounds + kPartialRounds;

// Round constants as cairo-lang's poseidon_utils.generate_round_constant defines them:
// int(sha256(f"Hades{3*round + j}").hexdigest(), 16) mod p, in Montgomery form.
const std::array<std::array<Limbs, 3>, kRounds>& roundConstants() {
    static const auto value = [] {
        std::array<std::array<Limbs, 3>, kRounds> constants{};
        for (int round = 0; round < kRounds; ++round) {
            for (int j = 0; j < 3; ++j) {
                const QByteArray digest = QCryptographicHash::hash(
                    QByteArray("Hades").append(QByteArray::number(3 * round + j)),
                    QCryptographicHash::Sha256);
                const Felt c = Felt::fromBytesBE(
                    reinterpret_cast<const std::uint8_t*>(digest.constData()), 32);
                constants[static_cast<std::size_t>(round)][static_cast<std::size_t>(j)] =
                    mont::toMont(c.limbs());
            }
        }
        return constants;
    }();
    return value;
}

// The permutation keeps its state lazily reduced: values below 2p between rounds, plain
// (carry-only) additions inside a round, one cheap reduction per value per round. mont::mul takes
// inputs below 4p (its result a·b/R + p stays below 2p before its final subtraction).
using mont::u128;

// x86-64: the carry chains as add/adc (sub/sbb); GCC builds the 128-bit form below into
// flag-setting sequences that spill, and the mixing layer was half the permutation's time.
#if defined(__x86_64__) && !defined(PROOFDESK_NO_ASM)
inline Limbs addPlain(const Limbs& a, const Limbs& b) { // a + b < 2^256
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
    __asm__("addq %[b0], %[r0]\n\t"
            "adcq %[b1], %[r1]\n\t"
            "adcq %[b2], %[r2]\n\t"
            "adcq %[b3], %[r3]"
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3)
            : [b0] "rm"(b[0]), [b1] "rm"(b[1]), [b2] "rm"(b[2]), [b3] "rm"(b[3])
            : "cc");
    return {r0, r1, r2, r3};
}

inline Limbs subPlain(const Limbs& a, const Limbs& b) { // a >= b
    std::uint64_t r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
    __asm__("subq %[b0], %[r0]\n\t"
            "sbbq %[b1], %[r1]\n\t"
            "sbbq %[b2], %[r2]\n\t"
            "sbbq %[b3], %[r3]"
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3)
            : [b0] "rm"(b[0]), [b1] "rm"(b[1]), [b2] "rm"(b[2]), [b3] "rm"(b[3])
            : "cc");
    return {r0, r1, r2, r3};
}
#else
inline Limbs addPlain(const Limbs& a, const Limbs& b) { // a + b < 2^256
    Limbs r;
    u128 t = static_cast<u128>(a[0]) + b[0];
    r[0] = static_cast<std::uint64_t>(t);
    t = static_cast<u128>(a[1]) + b[1] + static_cast<std::uint64_t>(t >> 64);
    r[1] = static_cast<std::uint64_t>(t);
    t = static_cast<u128>(a[2]) + b[2] + static_cast<std::uint64_t>(t >> 64);
    r[2] = static_cast<std::uint64_t>(t);
    r[3] = a[3] + b[3] + static_cast<std::uint64_t>(t >> 64);
    return r;
}

inline Limbs subPlain(const Limbs& a, const Limbs& b) { // a >= b
    Limbs r;
    u128 t = static_cast<u128>(a[0]) - b[0];
    r[0] = static_cast<std::uint64_t>(t);
    std::uint64_t borrow = static_cast<std::uint64_t>(t >> 64) & 1;
    t = static_cast<u128>(a[1]) - b[1] - borrow;
    r[1] = static_cast<std::uint64_t>(t);
    borrow = static_cast<std::uint64_t>(t >> 64) & 1;
    t = static_cast<u128>(a[2]) - b[2] - borrow;
    r[2] = static_cast<std::uint64_t>(t);
    borrow = static_cast<std::uint64_t>(t >> 64) & 1;
    r[3] = a[3] - b[3] - borrow;
    return r;
}
#endif

// k·p for small k.
constexpr Limbs multipleOfP(std::uint64_t k) {
    return {k, 0, 0, k * mont::kP3};
}

// p - q·(17·2^192 + 1) for q = 0..15, as limbs: (1 - q) borrows from the upper limbs when q > 1.
constexpr std::array<Limbs, 16> kReduceOffsets = [] {
    std::array<Limbs, 16> table{};
    for (std::uint64_t q = 0; q < 16; ++q) {
        const std::uint64_t top = mont::kP3 - 17 * q;
        table[q] = q <= 1 ? Limbs{1 - q, 0, 0, top}
                          : Limbs{1 - q, ~std::uint64_t{0}, ~std::uint64_t{0}, top - 1};
    }
    return table;
}();

// x < 2^255 to a congruent value below 2p: with q = x >> 251 (at most 15), x - q·p equals
// (x mod 2^251) - q·(17·2^192 + 1); adding p keeps it positive: the result is below 2^251 + p.
inline Limbs reduceBelow2p(const Limbs& x) {
    const std::uint64_t q = x[3] >> 59;
    const Limbs low = {x[0], x[1], x[2], x[3] & ((std::uint64_t{1} << 59) - 1)};
    return addPlain(low, kReduceOffsets[q]);
}

inline Limbs cube(const Limbs& x) { // x < 4p; result < 2p
    return mont::mulLazy(mont::mulLazy(x, x), x);
}

// MDS of Starknet's Hades: [[3, 1, 1], [1, -1, 1], [1, 1, -2]], for s0, s1 below 3p and s2
// below 2p (an S-box output); outputs below 2p. The parts without s2 are formed first, so after
// the S-box only one addition (or subtraction) and one reduction remain on each output's path.
// Subtractions borrow 3p >= s1 and 4p >= 2·s2; every intermediate stays below 15p < 2^255.
inline void mix(Limbs& s0, Limbs& s1, Limbs& s2) {
    static constexpr Limbs k3p = multipleOfP(3);
    static constexpr Limbs k4p = multipleOfP(4);
    const Limbs s01 = addPlain(s0, s1);                   // < 6p
    const Limbs pre0 = addPlain(s01, addPlain(s0, s0));   // 3·s0 + s1 < 12p
    const Limbs pre1 = subPlain(addPlain(s0, k3p), s1);   // s0 - s1 + 3p < 6p
    const Limbs pre2 = addPlain(s01, k4p);                // s0 + s1 + 4p < 10p
    s0 = reduceBelow2p(addPlain(pre0, s2));               // < 14p
    s1 = reduceBelow2p(addPlain(pre1, s2));               // < 8p
    s2 = reduceBelow2p(subPlain(pre2, addPlain(s2, s2))); // < 10p
}

// N states permuted side by side, each step taken for all of them before the next: one state's
// chain of dependent products and reductions leaves the multiplier idle much of the time, which
// the others' work fills. States below 2p on entry and after every round; constants below p.
template <std::size_t N> void permuteSideBySide(std::array<Limbs, 3>* states) {
    const HadesSchedule& schedule = hadesSchedule();
    const auto fullRound = [&](const std::array<Limbs, 3>& c) {
        for (std::size_t j = 0; j < 3; ++j) {
            for (std::size_t i = 0; i < N; ++i) {
                states[i][j] = addPlain(states[i][j], c[j]);
            }
            for (std::size_t i = 0; i < N; ++i) {
                states[i][j] = cube(states[i][j]);
            }
        }
        for (std::size_t i = 0; i < N; ++i) {
            mix(states[i][0], states[i][1], states[i][2]);
        }
    };
    for (const auto& c : schedule.firstFullRounds) {
        fullRound(c);
    }
    for (const Limbs& c2 : schedule.partialRounds) {
        for (std::size_t i = 0; i < N; ++i) {
            states[i][2] = cube(addPlain(states[i][2], c2));
        }
        for (std::size_t i = 0; i < N; ++i) {
            mix(states[i][0], states[i][1], states[i][2]);
        }
    }
    for (const auto& c : schedule.lastFullRounds) {
        fullRound(c);
    }
}

void permute(Limbs& s0, Limbs& s1, Limbs& s2) {
    std::array<Limbs, 3> state = {s0, s1, s2};
    permuteSideBySide<1>(&state);
    s0 = state[0];
    s1 = state[1];
    s2 = state[2];
}

Felt canonical(const Limbs& m) { // m below 2p
    return *Felt::fromLimbs(mont::fromMont(mont::reduce(m)));
}

} // namespace

// The partial rounds' constants folded: a partial round adds c0 and c1 only to carry them
// through the linear layer, so their effect is pushed forward instead. If the true state is the
// computed one plus (o0, o1, 0), round k adds nothing to s0 and s1, adds c2_k + d2_{k-1} to s2,
// and leaves the true state ahead by D = MDS·(o0 + c0_k, o1 + c1_k, 0); the last D joins the
// constants of the first full round after the partial ones.
const HadesSchedule& hadesSchedule() {
    static const HadesSchedule value = [] {
        const auto& rc = roundConstants();
        constexpr int kSide = HadesSchedule::kFullRoundsEachSide;
        static_assert(2 * kSide == kFullRounds && HadesSchedule::kPartialRounds == kPartialRounds);
        HadesSchedule schedule;
        for (int round = 0; round < kSide; ++round) {
            schedule.firstFullRounds[static_cast<std::size_t>(round)] =
                rc[static_cast<std::size_t>(round)];
            schedule.lastFullRounds[static_cast<std::size_t>(round)] =
                rc[static_cast<std::size_t>(kSide + kPartialRounds + round)];
        }
        Limbs o0{}, o1{}, d2{};
        for (int k = 0; k < kPartialRounds; ++k) {
            const auto& c = rc[static_cast<std::size_t>(kSide + k)];
            schedule.partialRounds[static_cast<std::size_t>(k)] = mont::add(c[2], d2);
            const Limbs a = mont::add(o0, c[0]);
            const Limbs b = mont::add(o1, c[1]);
            o0 = mont::add(mont::add(mont::add(a, a), a), b); // 3a + b
            o1 = mont::sub(a, b);                             // a - b
            d2 = mont::add(a, b);                             // a + b
        }
        auto& next = schedule.lastFullRounds.front();
        next = {mont::add(next[0], o0), mont::add(next[1], o1), mont::add(next[2], d2)};
        return schedule;
    }();
    return value;
}

std::array<std::array<Felt, 3>, 91> poseidonRoundConstants() {
    std::array<std::array<Felt, 3>, 91> out;
    for (std::size_t round = 0; round < 91; ++round) {
        for (std::size_t j = 0; j < 3; ++j) {
            out[round][j] = canonical(roundConstants()[round][j]);
        }
    }
    return out;
}

void hadesPermutationMontgomery(Felt::Limbs& s0, Felt::Limbs& s1, Felt::Limbs& s2) {
    permute(s0, s1, s2);
    s0 = mont::reduce(s0);
    s1 = mont::reduce(s1);
    s2 = mont::reduce(s2);
}

void hadesPermutationMontgomery(std::span<std::array<Felt::Limbs, 3>> states) {
    constexpr std::size_t kSideBySide = 4;
    std::size_t at = 0;
    for (; at + kSideBySide <= states.size(); at += kSideBySide) {
        permuteSideBySide<kSideBySide>(states.data() + at);
    }
    for (; at < states.size(); ++at) {
        permuteSideBySide<1>(states.data() + at);
    }
    for (std::array<Limbs, 3>& state : states) {
        for (Limbs& word : state) {
            word = mont::reduce(word);
        }
    }
}

void hadesPermutation(std::array<Felt, 3>& state) {
    Limbs s0 = mont::toMont(state[0].limbs());
    Limbs s1 = mont::toMont(state[1].limbs());
    Limbs s2 = mont::toMont(state[2].limbs());
    permute(s0, s1, s2);
    state = {canonical(s0), canonical(s1), canonical(s2)};
}

Felt poseidonHash(const Felt& x, const Felt& y) {
    std::array<Felt, 3> state = {x, y, Felt::fromU64(2)};
    hadesPermutation(state);
    return state[0];
}

Felt poseidonHashSingle(const Felt& x) {
    std::array<Felt, 3> state = {x, Felt::zero(), Felt::one()};
    hadesPermutation(state);
    return state[0];
}

Felt poseidonHashMany(const std::vector<Felt>& values) {
    Limbs s0{}, s1{}, s2{};
    std::size_t i = 0;
    for (; i + 1 < values.size(); i += 2) {
        s0 = mont::add(s0, mont::toMont(values[i].limbs()));
        s1 = mont::add(s1, mont::toMont(values[i + 1].limbs()));
        permute(s0, s1, s2);
    }
    // Pad: append 1, then 0 up to an even length.
    if (i < values.size()) {
        s0 = mont::add(s0, mont::toMont(values[i].limbs()));
        s1 = mont::add(s1, mont::one());
    } else {
        s0 = mont::add(s0, mont::one());
    }
    permute(s0, s1, s2);
    return canonical(s0);
}

} // namespace proofdesk::crypto
