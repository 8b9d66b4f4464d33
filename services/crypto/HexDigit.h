#pragma once

namespace proofdesk::crypto {

// The value of a hexadecimal digit in either case, or -1 for any other character. The one reader
// of hex digits: byte strings, field elements, big integers, EIP-712 values, chunk sizes, proofs.
constexpr int hexDigitValue(char32_t c) {
    return c >= U'0' && c <= U'9'   ? int(c - U'0')
           : c >= U'a' && c <= U'f' ? int(c - U'a') + 10
           : c >= U'A' && c <= U'F' ? int(c - U'A') + 10
                                    : -1;
}

} // namespace proofdesk::crypto
