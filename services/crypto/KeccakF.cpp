#include "KeccakF.h"

namespace proofdesk::crypto {
namespace {

constexpr std::uint64_t kRoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

// ρ's rotation of lane (x, y) is written into each step below.
inline std::uint64_t rotl(std::uint64_t v, int n) {
    return (v << n) | (v >> (64 - n));
}

} // namespace

// The lanes live in locals and every step is written out (θ, then ρ and π into b, then χ and ι),
// so the compiler keeps the state in registers instead of indexing arrays.
void keccakF1600(std::array<std::uint64_t, 25>& a) {
    std::uint64_t a0 = a[0];
    std::uint64_t a1 = a[1];
    std::uint64_t a2 = a[2];
    std::uint64_t a3 = a[3];
    std::uint64_t a4 = a[4];
    std::uint64_t a5 = a[5];
    std::uint64_t a6 = a[6];
    std::uint64_t a7 = a[7];
    std::uint64_t a8 = a[8];
    std::uint64_t a9 = a[9];
    std::uint64_t a10 = a[10];
    std::uint64_t a11 = a[11];
    std::uint64_t a12 = a[12];
    std::uint64_t a13 = a[13];
    std::uint64_t a14 = a[14];
    std::uint64_t a15 = a[15];
    std::uint64_t a16 = a[16];
    std::uint64_t a17 = a[17];
    std::uint64_t a18 = a[18];
    std::uint64_t a19 = a[19];
    std::uint64_t a20 = a[20];
    std::uint64_t a21 = a[21];
    std::uint64_t a22 = a[22];
    std::uint64_t a23 = a[23];
    std::uint64_t a24 = a[24];
    for (int round = 0; round < 24; ++round) {
        const std::uint64_t c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        const std::uint64_t c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        const std::uint64_t c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        const std::uint64_t c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        const std::uint64_t c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        const std::uint64_t d0 = c4 ^ rotl(c1, 1);
        const std::uint64_t d1 = c0 ^ rotl(c2, 1);
        const std::uint64_t d2 = c1 ^ rotl(c3, 1);
        const std::uint64_t d3 = c2 ^ rotl(c4, 1);
        const std::uint64_t d4 = c3 ^ rotl(c0, 1);
        const std::uint64_t b0 = (a0 ^ d0);
        const std::uint64_t b1 = rotl(a6 ^ d1, 44);
        const std::uint64_t b2 = rotl(a12 ^ d2, 43);
        const std::uint64_t b3 = rotl(a18 ^ d3, 21);
        const std::uint64_t b4 = rotl(a24 ^ d4, 14);
        const std::uint64_t b5 = rotl(a3 ^ d3, 28);
        const std::uint64_t b6 = rotl(a9 ^ d4, 20);
        const std::uint64_t b7 = rotl(a10 ^ d0, 3);
        const std::uint64_t b8 = rotl(a16 ^ d1, 45);
        const std::uint64_t b9 = rotl(a22 ^ d2, 61);
        const std::uint64_t b10 = rotl(a1 ^ d1, 1);
        const std::uint64_t b11 = rotl(a7 ^ d2, 6);
        const std::uint64_t b12 = rotl(a13 ^ d3, 25);
        const std::uint64_t b13 = rotl(a19 ^ d4, 8);
        const std::uint64_t b14 = rotl(a20 ^ d0, 18);
        const std::uint64_t b15 = rotl(a4 ^ d4, 27);
        const std::uint64_t b16 = rotl(a5 ^ d0, 36);
        const std::uint64_t b17 = rotl(a11 ^ d1, 10);
        const std::uint64_t b18 = rotl(a17 ^ d2, 15);
        const std::uint64_t b19 = rotl(a23 ^ d3, 56);
        const std::uint64_t b20 = rotl(a2 ^ d2, 62);
        const std::uint64_t b21 = rotl(a8 ^ d3, 55);
        const std::uint64_t b22 = rotl(a14 ^ d4, 39);
        const std::uint64_t b23 = rotl(a15 ^ d0, 41);
        const std::uint64_t b24 = rotl(a21 ^ d1, 2);
        a0 = b0 ^ (~b1 & b2);
        a1 = b1 ^ (~b2 & b3);
        a2 = b2 ^ (~b3 & b4);
        a3 = b3 ^ (~b4 & b0);
        a4 = b4 ^ (~b0 & b1);
        a5 = b5 ^ (~b6 & b7);
        a6 = b6 ^ (~b7 & b8);
        a7 = b7 ^ (~b8 & b9);
        a8 = b8 ^ (~b9 & b5);
        a9 = b9 ^ (~b5 & b6);
        a10 = b10 ^ (~b11 & b12);
        a11 = b11 ^ (~b12 & b13);
        a12 = b12 ^ (~b13 & b14);
        a13 = b13 ^ (~b14 & b10);
        a14 = b14 ^ (~b10 & b11);
        a15 = b15 ^ (~b16 & b17);
        a16 = b16 ^ (~b17 & b18);
        a17 = b17 ^ (~b18 & b19);
        a18 = b18 ^ (~b19 & b15);
        a19 = b19 ^ (~b15 & b16);
        a20 = b20 ^ (~b21 & b22);
        a21 = b21 ^ (~b22 & b23);
        a22 = b22 ^ (~b23 & b24);
        a23 = b23 ^ (~b24 & b20);
        a24 = b24 ^ (~b20 & b21);
        a0 ^= kRoundConstants[round];
    }
    a[0] = a0;
    a[1] = a1;
    a[2] = a2;
    a[3] = a3;
    a[4] = a4;
    a[5] = a5;
    a[6] = a6;
    a[7] = a7;
    a[8] = a8;
    a[9] = a9;
    a[10] = a10;
    a[11] = a11;
    a[12] = a12;
    a[13] = a13;
    a[14] = a14;
    a[15] = a15;
    a[16] = a16;
    a[17] = a17;
    a[18] = a18;
    a[19] = a19;
    a[20] = a20;
    a[21] = a21;
    a[22] = a22;
    a[23] = a23;
    a[24] = a24;
}

} // namespace proofdesk::crypto
