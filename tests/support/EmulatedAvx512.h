#pragma once

// A portable model of the AVX-512 intrinsics the prover's packed field code uses
// (services/stark/algebra/PackedField.h), one plain loop per vector. Built with
// PROOFDESK_EMULATED_AVX512, that code runs on any CPU, so machines without AVX-512 IFMA (CI's
// among them) test its arithmetic against the scalar field. Semantics as Intel documents them;
// the masks and permutations only as far as the packed code uses them.

#include <cstdint>
#include <cstring>

struct __m512i {
    std::uint64_t v[8];
};
struct __m256i {
    std::uint64_t v[4];
};
using __mmask8 = unsigned char;

namespace proofdesk::emulated {

template <typename Op> inline __m512i eachLane(const __m512i& a, const __m512i& b, Op op) {
    __m512i r;
    for (int i = 0; i < 8; ++i) {
        r.v[i] = op(a.v[i], b.v[i]);
    }
    return r;
}

__extension__ typedef unsigned __int128 Wide;
constexpr std::uint64_t kLow52 = (std::uint64_t(1) << 52) - 1;

// The 104-bit product of the low 52 bits of a and b.
inline Wide product52(std::uint64_t a, std::uint64_t b) {
    return static_cast<Wide>(a & kLow52) * (b & kLow52);
}

} // namespace proofdesk::emulated

inline __m512i _mm512_set1_epi64(long long x) {
    __m512i r;
    for (std::uint64_t& lane : r.v) {
        lane = static_cast<std::uint64_t>(x);
    }
    return r;
}
inline __m512i _mm512_setzero_si512() {
    return _mm512_set1_epi64(0);
}
inline __m512i _mm512_setr_epi64(long long e0, long long e1, long long e2, long long e3,
                                 long long e4, long long e5, long long e6, long long e7) {
    const long long lanes[8] = {e0, e1, e2, e3, e4, e5, e6, e7};
    __m512i r;
    for (int i = 0; i < 8; ++i) {
        r.v[i] = static_cast<std::uint64_t>(lanes[i]);
    }
    return r;
}
inline __m512i _mm512_add_epi64(__m512i a, __m512i b) {
    return proofdesk::emulated::eachLane(a, b,
                                         [](std::uint64_t x, std::uint64_t y) { return x + y; });
}
inline __m512i _mm512_sub_epi64(__m512i a, __m512i b) {
    return proofdesk::emulated::eachLane(a, b,
                                         [](std::uint64_t x, std::uint64_t y) { return x - y; });
}
inline __m512i _mm512_and_si512(__m512i a, __m512i b) {
    return proofdesk::emulated::eachLane(a, b,
                                         [](std::uint64_t x, std::uint64_t y) { return x & y; });
}
inline __m512i _mm512_or_si512(__m512i a, __m512i b) {
    return proofdesk::emulated::eachLane(a, b,
                                         [](std::uint64_t x, std::uint64_t y) { return x | y; });
}
// Shifts by 64 or more give 0 (arithmetic: the sign), as the instructions do.
inline __m512i _mm512_srli_epi64(__m512i a, unsigned int n) {
    for (std::uint64_t& lane : a.v) {
        lane = n > 63 ? 0 : lane >> n;
    }
    return a;
}
inline __m512i _mm512_slli_epi64(__m512i a, unsigned int n) {
    for (std::uint64_t& lane : a.v) {
        lane = n > 63 ? 0 : lane << n;
    }
    return a;
}
inline __m512i _mm512_srai_epi64(__m512i a, unsigned int n) {
    for (std::uint64_t& lane : a.v) {
        lane = static_cast<std::uint64_t>(static_cast<std::int64_t>(lane) >> (n > 63 ? 63 : n));
    }
    return a;
}
inline __mmask8 _mm512_cmplt_epi64_mask(__m512i a, __m512i b) {
    unsigned int mask = 0;
    for (int i = 0; i < 8; ++i) {
        if (static_cast<std::int64_t>(a.v[i]) < static_cast<std::int64_t>(b.v[i])) {
            mask |= 1u << i;
        }
    }
    return static_cast<__mmask8>(mask);
}
inline __m512i _mm512_mask_add_epi64(__m512i src, __mmask8 k, __m512i a, __m512i b) {
    for (int i = 0; i < 8; ++i) {
        if ((k >> i) & 1) {
            src.v[i] = a.v[i] + b.v[i];
        }
    }
    return src;
}
inline __m512i _mm512_mask_blend_epi64(__mmask8 k, __m512i a, __m512i b) {
    for (int i = 0; i < 8; ++i) {
        if ((k >> i) & 1) {
            a.v[i] = b.v[i];
        }
    }
    return a;
}
// a + the low (resp. high) 52 bits of the 104-bit product of b's and c's low 52 bits.
inline __m512i _mm512_madd52lo_epu64(__m512i a, __m512i b, __m512i c) {
    for (int i = 0; i < 8; ++i) {
        a.v[i] += static_cast<std::uint64_t>(proofdesk::emulated::product52(b.v[i], c.v[i])) &
                  proofdesk::emulated::kLow52;
    }
    return a;
}
inline __m512i _mm512_madd52hi_epu64(__m512i a, __m512i b, __m512i c) {
    for (int i = 0; i < 8; ++i) {
        a.v[i] += static_cast<std::uint64_t>(proofdesk::emulated::product52(b.v[i], c.v[i]) >> 52);
    }
    return a;
}
// Aligned 64-byte loads and stores (the alignment is the caller's promise, as for the hardware).
inline __m512i _mm512_load_si512(const void* from) {
    __m512i r;
    std::memcpy(r.v, from, sizeof r.v);
    return r;
}
inline void _mm512_store_si512(void* to, __m512i a) {
    std::memcpy(to, a.v, sizeof a.v);
}
inline __m256i _mm256_loadu_si256(const __m256i* from) {
    __m256i r;
    std::memcpy(r.v, from, sizeof r.v);
    return r;
}
inline void _mm256_storeu_si256(__m256i* to, __m256i a) {
    std::memcpy(to, a.v, sizeof a.v);
}
inline __m512i _mm512_castsi256_si512(__m256i a) {
    __m512i r{};
    for (int i = 0; i < 4; ++i) {
        r.v[i] = a.v[i];
    }
    return r;
}
inline __m256i _mm512_castsi512_si256(__m512i a) {
    __m256i r;
    for (int i = 0; i < 4; ++i) {
        r.v[i] = a.v[i];
    }
    return r;
}
inline __m512i _mm512_inserti64x4(__m512i a, __m256i b, int half) {
    for (int i = 0; i < 4; ++i) {
        a.v[4 * (half & 1) + i] = b.v[i];
    }
    return a;
}
inline __m256i _mm512_extracti64x4_epi64(__m512i a, int half) {
    __m256i r;
    for (int i = 0; i < 4; ++i) {
        r.v[i] = a.v[4 * (half & 1) + i];
    }
    return r;
}
// Lane i takes lane idx[i] mod 16 of a ‖ b.
inline __m512i _mm512_permutex2var_epi64(__m512i a, __m512i idx, __m512i b) {
    __m512i r;
    for (int i = 0; i < 8; ++i) {
        const unsigned int j = static_cast<unsigned int>(idx.v[i] & 15);
        r.v[i] = j < 8 ? a.v[j] : b.v[j - 8];
    }
    return r;
}
