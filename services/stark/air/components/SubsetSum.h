#pragma once

#include "air/AirBuilder.h"

// The elliptic-curve subset sum shared by the Pedersen, ECDSA and EC-op builtins: a selector
// column holds the scalar shifted right by the unit's index (bit k = s_k − 2·s_{k+1}), and the
// partial sum advances by the unit's point wherever the bit is set.

namespace proofdesk::stark::air {

struct SubsetSum {
    std::string name;       // e.g. "ec_op/ec_subset_sum"
    std::uint64_t unit = 1; // rows per bit
    std::uint64_t period = 0;
    std::uint64_t bits = 0; // the scalar's bits: s_bits must be 0
    std::uint64_t height = 256;
    bool xDiffInverse = false; // whether each addition proves distinct x
};

// booleanity_test, bit_extraction_end, zeros_tail, add_points/{slope,x,y[,x_diff_inv]},
// copy_point/{x,y}, in Stone's order.
void addSubsetSum(AirBuilder& b, const SubsetSum& sum, const Expr& pointX, const Expr& pointY);

// The bit-unpacking constraints that keep a 252-bit scalar below p: with ones196 = b251·b196 and
// ones192 = ones196·b192, the bits below the set top bits must be zero.
void addBitUnpacking(AirBuilder& b, const std::string& name, const std::string& selector,
                     const Domain& perScalar);

} // namespace proofdesk::stark::air
