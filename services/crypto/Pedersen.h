#pragma once

#include "Felt.h"

#include <array>
#include <utility>
#include <vector>

namespace proofdesk::crypto {

// StarkWare's Pedersen hash on the STARK curve:
// H(x, y) = [shift + x_low·P0 + x_high·P1 + y_low·P2 + y_high·P3].x, with low = the 248 low bits
// and high = the top 4 bits. Fixed-base tables (8-bit windows) are built on first use.
Felt pedersenHash(const Felt& x, const Felt& y);

// h(d0, h(d1, … h(d_{n-2}, d_{n-1}))), cairo-lang's compute_hash_chain. Needs at least one item.
Felt pedersenHashChain(const std::vector<Felt>& data);

// The shift point and the four base points P1..P4 as (x, y).
std::array<std::pair<Felt, Felt>, 5> pedersenConstantPoints();

// Builds the large tables now and hashes with them from here on (otherwise a process's first
// hashes use small tables and the large ones are built once enough hashes pay for them): some
// 50 ms.
void warmUpPedersen();

} // namespace proofdesk::crypto
