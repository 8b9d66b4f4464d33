#pragma once

#include "Felt.h"

#include <array>
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

} // namespace proofdesk::crypto
