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

inline Limbs cube(const Limbs& x) {
    return mont::mul(mont::square(x), x);
}

inline void mix(Limbs& s0, Limbs& s1, Limbs& s2) {
    const Limbs sum = mont::add(mont::add(s0, s1), s2);
    const Limbs n0 = mont::add(sum, mont::add(s0, s0));                // 3s0 + s1 + s2
    const Limbs n1 = mont::sub(sum, mont::add(s1, s1));                // s0 - s1 + s2
    const Limbs n2 = mont::sub(sum, mont::add(mont::add(s2, s2), s2)); // s0 + s1 - 2s2
    s0 = n0;
    s1 = n1;
    s2 = n2;
}

void permute(Limbs& s0, Limbs& s1, Limbs& s2) {
    const auto& rc = roundConstants();
    int round = 0;
    auto fullRound = [&] {
        s0 = cube(mont::add(s0, rc[static_cast<std::size_t>(round)][0]));
        s1 = cube(mont::add(s1, rc[static_cast<std::size_t>(round)][1]));
        s2 = cube(mont::add(s2, rc[static_cast<std::size_t>(round)][2]));
        mix(s0, s1, s2);
        ++round;
    };
    for (int i = 0; i < kFullRounds / 2; ++i) {
        fullRound();
    }
    for (int i = 0; i < kPartialRounds; ++i) {
        s0 = mont::add(s0, rc[static_cast<std::size_t>(round)][0]);
        s1 = mont::add(s1, rc[static_cast<std::size_t>(round)][1]);
        s2 = cube(mont::add(s2, rc[static_cast<std::size_t>(round)][2]));
        mix(s0, s1, s2);
        ++round;
    }
    for (int i = 0; i < kFullRounds / 2; ++i) {
        fullRound();
    }
}

Felt canonical(const Limbs& m) {
    return *Felt::fromLimbs(mont::fromMont(m));
}

} // namespace

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
