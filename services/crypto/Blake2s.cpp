#include "Blake2s.h"

#include <algorithm>

namespace proofdesk::crypto {
namespace {

// RFC 7693 §2.7 message schedule.
constexpr std::uint8_t kSigma[10][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                         {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                         {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                         {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                         {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                         {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                         {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                         {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                         {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                         {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0}};

inline std::uint32_t rotr(std::uint32_t v, int n) {
    return (v >> n) | (v << (32 - n));
}

inline void mix(std::uint32_t* v, int a, int b, int c, int d, std::uint32_t x, std::uint32_t y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr(v[b] ^ v[c], 12);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr(v[d] ^ v[a], 8);
    v[c] = v[c] + v[d];
    v[b] = rotr(v[b] ^ v[c], 7);
}

} // namespace

const std::array<std::uint32_t, 8>& blake2sIv() {
    static const std::array<std::uint32_t, 8> iv = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                                    0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
    return iv;
}

std::array<std::uint32_t, 8> blake2sCompress(const std::array<std::uint32_t, 8>& h,
                                             const std::array<std::uint32_t, 16>& m,
                                             std::uint32_t t0, std::uint32_t t1, std::uint32_t f0,
                                             std::uint32_t f1) {
    const auto& iv = blake2sIv();
    std::uint32_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = h[static_cast<std::size_t>(i)];
        v[8 + i] = iv[static_cast<std::size_t>(i)];
    }
    v[12] ^= t0;
    v[13] ^= t1;
    v[14] ^= f0;
    v[15] ^= f1;
    for (const auto& s : kSigma) {
        mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    std::array<std::uint32_t, 8> out{};
    for (int i = 0; i < 8; ++i) {
        out[static_cast<std::size_t>(i)] = h[static_cast<std::size_t>(i)] ^ v[i] ^ v[8 + i];
    }
    return out;
}

std::array<std::uint8_t, 32> blake2s256(const std::uint8_t* data, std::size_t size) {
    std::array<std::uint32_t, 8> h = blake2sIv();
    h[0] ^= 0x01010000u ^ 32u; // digest length 32, no key, fanout and depth 1
    std::size_t done = 0;
    std::uint64_t counter = 0;
    do {
        const std::size_t take = std::min<std::size_t>(64, size - done);
        const bool last = done + take == size;
        std::array<std::uint32_t, 16> block{};
        for (std::size_t i = 0; i < take; ++i) {
            block[i / 4] |= std::uint32_t(data[done + i]) << (8 * (i % 4));
        }
        counter += take;
        h = blake2sCompress(h, block, std::uint32_t(counter), std::uint32_t(counter >> 32),
                            last ? 0xffffffffu : 0u, 0);
        done += take;
    } while (done < size);
    std::array<std::uint8_t, 32> out{};
    for (std::size_t i = 0; i < 32; ++i) {
        out[i] = std::uint8_t(h[i / 4] >> (8 * (i % 4)));
    }
    return out;
}

} // namespace proofdesk::crypto
