#include "KeccakF.h"

#include <cstring>
#include <utility>

namespace proofdesk::crypto {
namespace {

constexpr std::uint64_t kRoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

// ρ's rotation of lane x + 5y, by y (rows) then x.
constexpr int kRotation[5][5] = {{0, 1, 62, 28, 27},
                                 {36, 44, 6, 55, 20},
                                 {3, 10, 43, 25, 39},
                                 {41, 45, 15, 21, 8},
                                 {18, 2, 61, 56, 14}};

// The permutation on W states at once, one state per vector element (GCC vector extensions):
// compiled below for AVX-512 (8 states) and AVX2 (4), chosen at run time, and for one state.
template <int W> struct Lanes { typedef std::uint64_t Type __attribute__((vector_size(8 * W))); };
template <> struct Lanes<1> { using Type = std::uint64_t; };

// One state's 25 lanes (W states' when V is a vector), named as the round reads them: lane
// x + 5y is a{x+5y}. Members, not an array, so that once inlined they live in registers.
template <typename V> struct State {
    V a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20,
        a21, a22, a23, a24;
};

template <std::size_t Size> struct ByteLanes {
    typedef unsigned char Type __attribute__((vector_size(Size)));
};

// Each 64-bit lane of `bytes` rotated left by K bytes (byte i of a lane from byte i − K).
template <int K, typename Bytes, std::size_t... I>
__attribute__((always_inline)) inline void rotateLaneBytes(Bytes& bytes,
                                                           std::index_sequence<I...>) {
    bytes = __builtin_shufflevector(bytes, bytes,
                                    static_cast<int>((I & ~std::size_t(7)) | ((I - K) & 7))...);
}

// x rotated left by N (0 < N < 64), in place: a vector is never passed or returned by value,
// which would tie these helpers to one vector ABI. AVX2 has no rotation, so a rotation there is
// two shifts and an or; with AVX2 a rotation by up to 3 shifts left by additions instead, and one
// by whole bytes is a byte shuffle (10% off the 4-way permutation on Zen 1, where vector shifts
// have few ports). A scalar or AVX-512 rotation is one instruction already.
template <int N, typename V> __attribute__((always_inline)) inline void rotateLeft(V& x) {
    constexpr bool avx2 = sizeof(V) == 32;
    if constexpr (avx2 && N <= 3) {
        V shifted = x + x;
        for (int i = 1; i < N; ++i) {
            shifted += shifted;
        }
        x = shifted | x >> (64 - N);
    } else if constexpr (avx2 && N % 8 == 0) {
        auto bytes = reinterpret_cast<typename ByteLanes<sizeof(V)>::Type>(x);
        rotateLaneBytes<N / 8>(bytes, std::make_index_sequence<sizeof(V)>());
        x = reinterpret_cast<V>(bytes);
    } else {
        x = x << N | x >> (64 - N);
    }
}

// lane ^= d, then rotated left by N.
template <int N, typename V>
__attribute__((always_inline)) inline void xorRotate(V& lane, const V& d) {
    lane ^= d;
    rotateLeft<N>(lane);
}

// θ, ρ and π into `b`: the column parities folded into every lane, each lane rotated and moved.
template <typename V>
__attribute__((always_inline)) inline void thetaRhoPi(const State<V>& s, State<V>& b) {
    const V c0 = s.a0 ^ s.a5 ^ s.a10 ^ s.a15 ^ s.a20;
    const V c1 = s.a1 ^ s.a6 ^ s.a11 ^ s.a16 ^ s.a21;
    const V c2 = s.a2 ^ s.a7 ^ s.a12 ^ s.a17 ^ s.a22;
    const V c3 = s.a3 ^ s.a8 ^ s.a13 ^ s.a18 ^ s.a23;
    const V c4 = s.a4 ^ s.a9 ^ s.a14 ^ s.a19 ^ s.a24;
    V d0 = c1, d1 = c2, d2 = c3, d3 = c4, d4 = c0;
    rotateLeft<1>(d0);
    rotateLeft<1>(d1);
    rotateLeft<1>(d2);
    rotateLeft<1>(d3);
    rotateLeft<1>(d4);
    d0 ^= c4;
    d1 ^= c0;
    d2 ^= c1;
    d3 ^= c2;
    d4 ^= c3;
    b.a0 = s.a0 ^ d0;
    b.a1 = s.a6;
    b.a2 = s.a12;
    b.a3 = s.a18;
    b.a4 = s.a24;
    b.a5 = s.a3;
    b.a6 = s.a9;
    b.a7 = s.a10;
    b.a8 = s.a16;
    b.a9 = s.a22;
    b.a10 = s.a1;
    b.a11 = s.a7;
    b.a12 = s.a13;
    b.a13 = s.a19;
    b.a14 = s.a20;
    b.a15 = s.a4;
    b.a16 = s.a5;
    b.a17 = s.a11;
    b.a18 = s.a17;
    b.a19 = s.a23;
    b.a20 = s.a2;
    b.a21 = s.a8;
    b.a22 = s.a14;
    b.a23 = s.a15;
    b.a24 = s.a21;
    xorRotate<44>(b.a1, d1);
    xorRotate<43>(b.a2, d2);
    xorRotate<21>(b.a3, d3);
    xorRotate<14>(b.a4, d4);
    xorRotate<28>(b.a5, d3);
    xorRotate<20>(b.a6, d4);
    xorRotate<3>(b.a7, d0);
    xorRotate<45>(b.a8, d1);
    xorRotate<61>(b.a9, d2);
    xorRotate<1>(b.a10, d1);
    xorRotate<6>(b.a11, d2);
    xorRotate<25>(b.a12, d3);
    xorRotate<8>(b.a13, d4);
    xorRotate<18>(b.a14, d0);
    xorRotate<27>(b.a15, d4);
    xorRotate<36>(b.a16, d0);
    xorRotate<10>(b.a17, d1);
    xorRotate<15>(b.a18, d2);
    xorRotate<56>(b.a19, d3);
    xorRotate<62>(b.a20, d2);
    xorRotate<55>(b.a21, d3);
    xorRotate<39>(b.a22, d4);
    xorRotate<41>(b.a23, d0);
    xorRotate<2>(b.a24, d1);
}

// χ (each row mixed with its neighbours) into `s`, and ι (the round constant).
template <typename V>
__attribute__((always_inline)) inline void chiIota(const State<V>& b, std::uint64_t constant,
                                                   State<V>& s) {
    s.a0 = b.a0 ^ (~b.a1 & b.a2);
    s.a1 = b.a1 ^ (~b.a2 & b.a3);
    s.a2 = b.a2 ^ (~b.a3 & b.a4);
    s.a3 = b.a3 ^ (~b.a4 & b.a0);
    s.a4 = b.a4 ^ (~b.a0 & b.a1);
    s.a5 = b.a5 ^ (~b.a6 & b.a7);
    s.a6 = b.a6 ^ (~b.a7 & b.a8);
    s.a7 = b.a7 ^ (~b.a8 & b.a9);
    s.a8 = b.a8 ^ (~b.a9 & b.a5);
    s.a9 = b.a9 ^ (~b.a5 & b.a6);
    s.a10 = b.a10 ^ (~b.a11 & b.a12);
    s.a11 = b.a11 ^ (~b.a12 & b.a13);
    s.a12 = b.a12 ^ (~b.a13 & b.a14);
    s.a13 = b.a13 ^ (~b.a14 & b.a10);
    s.a14 = b.a14 ^ (~b.a10 & b.a11);
    s.a15 = b.a15 ^ (~b.a16 & b.a17);
    s.a16 = b.a16 ^ (~b.a17 & b.a18);
    s.a17 = b.a17 ^ (~b.a18 & b.a19);
    s.a18 = b.a18 ^ (~b.a19 & b.a15);
    s.a19 = b.a19 ^ (~b.a15 & b.a16);
    s.a20 = b.a20 ^ (~b.a21 & b.a22);
    s.a21 = b.a21 ^ (~b.a22 & b.a23);
    s.a22 = b.a22 ^ (~b.a23 & b.a24);
    s.a23 = b.a23 ^ (~b.a24 & b.a20);
    s.a24 = b.a24 ^ (~b.a20 & b.a21);
    s.a0 ^= constant;
}

// Lane i of the state at lanes[i·stride] (a vector of W states' lanes i from there on).
template <typename V>
__attribute__((always_inline)) inline State<V> loadState(const std::uint64_t* lanes,
                                                         std::size_t stride) {
    State<V> s;
    std::memcpy(&s.a0, lanes + 0 * stride, sizeof(V));
    std::memcpy(&s.a1, lanes + 1 * stride, sizeof(V));
    std::memcpy(&s.a2, lanes + 2 * stride, sizeof(V));
    std::memcpy(&s.a3, lanes + 3 * stride, sizeof(V));
    std::memcpy(&s.a4, lanes + 4 * stride, sizeof(V));
    std::memcpy(&s.a5, lanes + 5 * stride, sizeof(V));
    std::memcpy(&s.a6, lanes + 6 * stride, sizeof(V));
    std::memcpy(&s.a7, lanes + 7 * stride, sizeof(V));
    std::memcpy(&s.a8, lanes + 8 * stride, sizeof(V));
    std::memcpy(&s.a9, lanes + 9 * stride, sizeof(V));
    std::memcpy(&s.a10, lanes + 10 * stride, sizeof(V));
    std::memcpy(&s.a11, lanes + 11 * stride, sizeof(V));
    std::memcpy(&s.a12, lanes + 12 * stride, sizeof(V));
    std::memcpy(&s.a13, lanes + 13 * stride, sizeof(V));
    std::memcpy(&s.a14, lanes + 14 * stride, sizeof(V));
    std::memcpy(&s.a15, lanes + 15 * stride, sizeof(V));
    std::memcpy(&s.a16, lanes + 16 * stride, sizeof(V));
    std::memcpy(&s.a17, lanes + 17 * stride, sizeof(V));
    std::memcpy(&s.a18, lanes + 18 * stride, sizeof(V));
    std::memcpy(&s.a19, lanes + 19 * stride, sizeof(V));
    std::memcpy(&s.a20, lanes + 20 * stride, sizeof(V));
    std::memcpy(&s.a21, lanes + 21 * stride, sizeof(V));
    std::memcpy(&s.a22, lanes + 22 * stride, sizeof(V));
    std::memcpy(&s.a23, lanes + 23 * stride, sizeof(V));
    std::memcpy(&s.a24, lanes + 24 * stride, sizeof(V));
    return s;
}

template <typename V>
__attribute__((always_inline)) inline void storeState(const State<V>& s, std::uint64_t* lanes,
                                                      std::size_t stride) {
    std::memcpy(lanes + 0 * stride, &s.a0, sizeof(V));
    std::memcpy(lanes + 1 * stride, &s.a1, sizeof(V));
    std::memcpy(lanes + 2 * stride, &s.a2, sizeof(V));
    std::memcpy(lanes + 3 * stride, &s.a3, sizeof(V));
    std::memcpy(lanes + 4 * stride, &s.a4, sizeof(V));
    std::memcpy(lanes + 5 * stride, &s.a5, sizeof(V));
    std::memcpy(lanes + 6 * stride, &s.a6, sizeof(V));
    std::memcpy(lanes + 7 * stride, &s.a7, sizeof(V));
    std::memcpy(lanes + 8 * stride, &s.a8, sizeof(V));
    std::memcpy(lanes + 9 * stride, &s.a9, sizeof(V));
    std::memcpy(lanes + 10 * stride, &s.a10, sizeof(V));
    std::memcpy(lanes + 11 * stride, &s.a11, sizeof(V));
    std::memcpy(lanes + 12 * stride, &s.a12, sizeof(V));
    std::memcpy(lanes + 13 * stride, &s.a13, sizeof(V));
    std::memcpy(lanes + 14 * stride, &s.a14, sizeof(V));
    std::memcpy(lanes + 15 * stride, &s.a15, sizeof(V));
    std::memcpy(lanes + 16 * stride, &s.a16, sizeof(V));
    std::memcpy(lanes + 17 * stride, &s.a17, sizeof(V));
    std::memcpy(lanes + 18 * stride, &s.a18, sizeof(V));
    std::memcpy(lanes + 19 * stride, &s.a19, sizeof(V));
    std::memcpy(lanes + 20 * stride, &s.a20, sizeof(V));
    std::memcpy(lanes + 21 * stride, &s.a21, sizeof(V));
    std::memcpy(lanes + 22 * stride, &s.a22, sizeof(V));
    std::memcpy(lanes + 23 * stride, &s.a23, sizeof(V));
    std::memcpy(lanes + 24 * stride, &s.a24, sizeof(V));
}

// The permutation on W states laid out lane by lane: lane i of state j at lanes[i·stride + j].
template <int W>
__attribute__((always_inline)) inline void permuteLanes(std::uint64_t* lanes, std::size_t stride) {
    using V = typename Lanes<W>::Type;
    State<V> s = loadState<V>(lanes, stride);
    State<V> b;
    for (int round = 0; round < 24; ++round) {
        thetaRhoPi(s, b);
        chiIota(b, kRoundConstants[round], s);
    }
    storeState(s, lanes, stride);
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

int keccakRotation(int x, int y) {
    return kRotation[y][x];
}

std::uint64_t keccakRoundConstant(int round) {
    return kRoundConstants[round];
}

} // namespace proofdesk::crypto
