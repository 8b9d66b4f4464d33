#pragma once

#include <QString>

namespace proofdesk::models {

// How a proven value reads to a person, beside its raw hex: a balance in ETH (from wei), a
// timestamp as a UTC date, counts (number, nonce, gas) in decimal. Empty for values that are
// hashes or data (roots, hashes, blooms, slots).
QString readableValue(const QString& kind, const QString& name, const QString& value);

// A 0x-hex quantity of any size (up to 256 bits) in decimal; empty if `hex` is not one.
QString hexToDecimal(const QString& hex);

// A Cairo field element (0x-hex, below the STARK prime P = 2^251 + 17·2^192 + 1) in decimal as
// cairo-run prints program output: above P/2 as the negative number it stands for (P - 1 is -1).
// Empty if `hex` is not one.
QString feltToDecimal(const QString& hex);

// Wei as ETH: "1.5 ETH", "0 ETH", "0.000000000000000001 ETH".
QString weiToEth(const QString& decimalWei);

} // namespace proofdesk::models
