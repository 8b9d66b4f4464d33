#pragma once

#include "Felt.h"

#include <array>
#include <span>
#include <vector>

namespace proofdesk::crypto {

// Starknet's Poseidon ("Hades" permutation: width 3, rate 2, x³ S-box, 8 full and 83 partial
// rounds, MDS [[3,1,1],[1,-1,1],[1,1,-2]], round constants sha256("Hades" + i) mod p).
void hadesPermutation(std::array<Felt, 3>& state);
Felt poseidonHash(const Felt& x, const Felt& y);        // hades([x, y, 2])[0]
Felt poseidonHashSingle(const Felt& x);                 // hades([x, 0, 1])[0]
Felt poseidonHashMany(const std::vector<Felt>& values); // sponge: pad with 1 then 0s, absorb pairs
// The 91 rounds' constants (8 full rounds, 4 before and 4 after the 83 partial ones).
std::array<std::array<Felt, 3>, 91> poseidonRoundConstants();
// The permutation on Montgomery-form limbs (value·2^256 mod p, fully reduced in and out).
void hadesPermutationMontgomery(Felt::Limbs& s0, Felt::Limbs& s1, Felt::Limbs& s2);
// Many states at once ({s0, s1, s2} each, Montgomery form, fully reduced in and out), a few side
// by side: faster per state than one at a time.
void hadesPermutationMontgomery(std::span<std::array<Felt::Limbs, 3>> states);

// The constants as the permutation applies them, Montgomery words below p: each full round adds
// its three before the S-boxes; a partial round adds one to s2 only, the first two constants of
// the partial rounds being carried forward through the linear layer into the fifth full round's
// (the Poseidon paper's appendix B). Vectorised permutations follow the same schedule.
struct HadesSchedule {
    static constexpr int kFullRoundsEachSide = 4;
    static constexpr int kPartialRounds = 83;
    std::array<std::array<Felt::Limbs, 3>, kFullRoundsEachSide> firstFullRounds{};
    std::array<Felt::Limbs, kPartialRounds> partialRounds{};
    std::array<std::array<Felt::Limbs, 3>, kFullRoundsEachSide> lastFullRounds{};
};
const HadesSchedule& hadesSchedule();

} // namespace proofdesk::crypto
