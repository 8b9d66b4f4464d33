#pragma once

#include "Felt.h"

namespace proofdesk::crypto::stark {

// StarkWare ECDSA verification (cairo-lang signature.py `verify`): the public key is an x
// coordinate (both y are tried); valid if x(w·(z·G + r·Q)) == r with w = s^-1 mod n, and
// 1 <= r < 2^251, 1 <= s < n, 0 <= z < 2^251, 1 <= w < 2^251.
bool verifyEcdsa(const Felt& messageHash, const Felt& r, const Felt& s, const Felt& publicKeyX);

// s^-1 mod n (the curve order), as the ecdsa builtin's private input records it.
Felt::Limbs inverseModOrder(const Felt::Limbs& s);

} // namespace proofdesk::crypto::stark
