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

} // namespace proofdesk::crypto
