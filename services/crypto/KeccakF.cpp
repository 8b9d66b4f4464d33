#include "KeccakF.h"

#include <cstring>

namespace proofdesk::crypto {
namespace {

constexpr std::uint64_t kRoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

// The permutation on W states at once, one state per vector element (GCC vector extensions):
// compiled below for AVX-512 (8 states) and AVX2 (4), chosen at run time, and for one state.
template <int W> struct Lanes { typedef std::uint64_t Type __attribute__((vector_size(8 * W))); };
template <> struct Lanes<1> { using Type = std::uint64_t; };

// The permutation on W states laid out lane by lane: lane i of state j at lanes[i·stride + j].
template <int W>
__attribute__((always_inline)) inline void permuteLanes(std::uint64_t* lanes, std::size_t stride) {
    using V = typename Lanes<W>::Type;
    V a0;
    V a1;
    V a2;
    V a3;
    V a4;
    V a5;
    V a6;
    V a7;
    V a8;
    V a9;
    V a10;
    V a11;
    V a12;
    V a13;
    V a14;
    V a15;
    V a16;
    V a17;
    V a18;
    V a19;
    V a20;
    V a21;
    V a22;
    V a23;
    V a24;
    std::memcpy(&a0, lanes + 0 * stride, sizeof(V));
    std::memcpy(&a1, lanes + 1 * stride, sizeof(V));
    std::memcpy(&a2, lanes + 2 * stride, sizeof(V));
    std::memcpy(&a3, lanes + 3 * stride, sizeof(V));
    std::memcpy(&a4, lanes + 4 * stride, sizeof(V));
    std::memcpy(&a5, lanes + 5 * stride, sizeof(V));
    std::memcpy(&a6, lanes + 6 * stride, sizeof(V));
    std::memcpy(&a7, lanes + 7 * stride, sizeof(V));
    std::memcpy(&a8, lanes + 8 * stride, sizeof(V));
    std::memcpy(&a9, lanes + 9 * stride, sizeof(V));
    std::memcpy(&a10, lanes + 10 * stride, sizeof(V));
    std::memcpy(&a11, lanes + 11 * stride, sizeof(V));
    std::memcpy(&a12, lanes + 12 * stride, sizeof(V));
    std::memcpy(&a13, lanes + 13 * stride, sizeof(V));
    std::memcpy(&a14, lanes + 14 * stride, sizeof(V));
    std::memcpy(&a15, lanes + 15 * stride, sizeof(V));
    std::memcpy(&a16, lanes + 16 * stride, sizeof(V));
    std::memcpy(&a17, lanes + 17 * stride, sizeof(V));
    std::memcpy(&a18, lanes + 18 * stride, sizeof(V));
    std::memcpy(&a19, lanes + 19 * stride, sizeof(V));
    std::memcpy(&a20, lanes + 20 * stride, sizeof(V));
    std::memcpy(&a21, lanes + 21 * stride, sizeof(V));
    std::memcpy(&a22, lanes + 22 * stride, sizeof(V));
    std::memcpy(&a23, lanes + 23 * stride, sizeof(V));
    std::memcpy(&a24, lanes + 24 * stride, sizeof(V));
    for (int round = 0; round < 24; ++round) {
        const V c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        const V c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        const V c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        const V c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        const V c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        const V d0 = c4 ^ ((c1) << 1 | (c1) >> 63);
        const V d1 = c0 ^ ((c2) << 1 | (c2) >> 63);
        const V d2 = c1 ^ ((c3) << 1 | (c3) >> 63);
        const V d3 = c2 ^ ((c4) << 1 | (c4) >> 63);
        const V d4 = c3 ^ ((c0) << 1 | (c0) >> 63);
        const V b0 = (a0 ^ d0);
        const V b1 = ((a6 ^ d1) << 44 | (a6 ^ d1) >> 20);
        const V b2 = ((a12 ^ d2) << 43 | (a12 ^ d2) >> 21);
        const V b3 = ((a18 ^ d3) << 21 | (a18 ^ d3) >> 43);
        const V b4 = ((a24 ^ d4) << 14 | (a24 ^ d4) >> 50);
        const V b5 = ((a3 ^ d3) << 28 | (a3 ^ d3) >> 36);
        const V b6 = ((a9 ^ d4) << 20 | (a9 ^ d4) >> 44);
        const V b7 = ((a10 ^ d0) << 3 | (a10 ^ d0) >> 61);
        const V b8 = ((a16 ^ d1) << 45 | (a16 ^ d1) >> 19);
        const V b9 = ((a22 ^ d2) << 61 | (a22 ^ d2) >> 3);
        const V b10 = ((a1 ^ d1) << 1 | (a1 ^ d1) >> 63);
        const V b11 = ((a7 ^ d2) << 6 | (a7 ^ d2) >> 58);
        const V b12 = ((a13 ^ d3) << 25 | (a13 ^ d3) >> 39);
        const V b13 = ((a19 ^ d4) << 8 | (a19 ^ d4) >> 56);
        const V b14 = ((a20 ^ d0) << 18 | (a20 ^ d0) >> 46);
        const V b15 = ((a4 ^ d4) << 27 | (a4 ^ d4) >> 37);
        const V b16 = ((a5 ^ d0) << 36 | (a5 ^ d0) >> 28);
        const V b17 = ((a11 ^ d1) << 10 | (a11 ^ d1) >> 54);
        const V b18 = ((a17 ^ d2) << 15 | (a17 ^ d2) >> 49);
        const V b19 = ((a23 ^ d3) << 56 | (a23 ^ d3) >> 8);
        const V b20 = ((a2 ^ d2) << 62 | (a2 ^ d2) >> 2);
        const V b21 = ((a8 ^ d3) << 55 | (a8 ^ d3) >> 9);
        const V b22 = ((a14 ^ d4) << 39 | (a14 ^ d4) >> 25);
        const V b23 = ((a15 ^ d0) << 41 | (a15 ^ d0) >> 23);
        const V b24 = ((a21 ^ d1) << 2 | (a21 ^ d1) >> 62);
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
    std::memcpy(lanes + 0 * stride, &a0, sizeof(V));
    std::memcpy(lanes + 1 * stride, &a1, sizeof(V));
    std::memcpy(lanes + 2 * stride, &a2, sizeof(V));
    std::memcpy(lanes + 3 * stride, &a3, sizeof(V));
    std::memcpy(lanes + 4 * stride, &a4, sizeof(V));
    std::memcpy(lanes + 5 * stride, &a5, sizeof(V));
    std::memcpy(lanes + 6 * stride, &a6, sizeof(V));
    std::memcpy(lanes + 7 * stride, &a7, sizeof(V));
    std::memcpy(lanes + 8 * stride, &a8, sizeof(V));
    std::memcpy(lanes + 9 * stride, &a9, sizeof(V));
    std::memcpy(lanes + 10 * stride, &a10, sizeof(V));
    std::memcpy(lanes + 11 * stride, &a11, sizeof(V));
    std::memcpy(lanes + 12 * stride, &a12, sizeof(V));
    std::memcpy(lanes + 13 * stride, &a13, sizeof(V));
    std::memcpy(lanes + 14 * stride, &a14, sizeof(V));
    std::memcpy(lanes + 15 * stride, &a15, sizeof(V));
    std::memcpy(lanes + 16 * stride, &a16, sizeof(V));
    std::memcpy(lanes + 17 * stride, &a17, sizeof(V));
    std::memcpy(lanes + 18 * stride, &a18, sizeof(V));
    std::memcpy(lanes + 19 * stride, &a19, sizeof(V));
    std::memcpy(lanes + 20 * stride, &a20, sizeof(V));
    std::memcpy(lanes + 21 * stride, &a21, sizeof(V));
    std::memcpy(lanes + 22 * stride, &a22, sizeof(V));
    std::memcpy(lanes + 23 * stride, &a23, sizeof(V));
    std::memcpy(lanes + 24 * stride, &a24, sizeof(V));
}

// W whole states (state-major): gathered lane by lane into a small buffer, permuted together,
// scattered back.
template <int W>
__attribute__((always_inline)) inline void permuteTogether(std::array<std::uint64_t, 25>* states) {
    alignas(64) std::uint64_t lanes[25 * W];
    for (std::size_t i = 0; i < 25; ++i) {
        for (int j = 0; j < W; ++j) {
            lanes[i * W + std::size_t(j)] = states[j][i];
        }
    }
    permuteLanes<W>(lanes, W);
    for (std::size_t i = 0; i < 25; ++i) {
        for (int j = 0; j < W; ++j) {
            states[j][i] = lanes[i * W + std::size_t(j)];
        }
    }
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void permute8(std::array<std::uint64_t, 25>* states) {
    permuteTogether<8>(states);
}
__attribute__((target("avx2"))) void permute4(std::array<std::uint64_t, 25>* states) {
    permuteTogether<4>(states);
}
__attribute__((target("avx512f"))) void permuteLanes8(std::uint64_t* lanes) {
    permuteLanes<8>(lanes, 8);
}
__attribute__((target("avx2"))) void permuteLanes4(std::uint64_t* lanes) {
    permuteLanes<4>(lanes, 8);
}

int simdWidth() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        return 8;
    }
    return __builtin_cpu_supports("avx2") ? 4 : 1;
}
#endif

} // namespace

// One state: the same permutation on plain 64-bit lanes (the lanes live in locals and every step
// is written out, so the compiler keeps the state in registers instead of indexing arrays).
void keccakF1600(std::array<std::uint64_t, 25>& a) {
    permuteLanes<1>(a.data(), 1);
}

void keccakF1600Many(std::array<std::uint64_t, 25>* states, std::size_t count) {
    std::size_t i = 0;
#if defined(__x86_64__)
    static const int width = simdWidth();
    if (width == 8) {
        for (; i + 8 <= count; i += 8) {
            permute8(states + i);
        }
    }
    if (width >= 4) {
        for (; i + 4 <= count; i += 4) {
            permute4(states + i);
        }
    }
#endif
    for (; i < count; ++i) {
        keccakF1600(states[i]);
    }
}

void keccakF1600Lanes8(std::uint64_t* lanes) {
#if defined(__x86_64__)
    static const int width = simdWidth();
    if (width == 8) {
        permuteLanes8(lanes);
        return;
    }
    if (width == 4) {
        permuteLanes4(lanes);
        permuteLanes4(lanes + 4);
        return;
    }
#endif
    for (std::size_t j = 0; j < 8; ++j) {
        std::array<std::uint64_t, 25> state;
        for (std::size_t i = 0; i < 25; ++i) {
            state[i] = lanes[8 * i + j];
        }
        keccakF1600(state);
        for (std::size_t i = 0; i < 25; ++i) {
            lanes[8 * i + j] = state[i];
        }
    }
}

} // namespace proofdesk::crypto
