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

// Rotation offsets r[x + 5y].
constexpr int kRotations[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

inline std::uint64_t rotl(std::uint64_t v, int n) {
    return n == 0 ? v : (v << n) | (v >> (64 - n));
}

} // namespace

void keccakF1600(std::array<std::uint64_t, 25>& a) {
    for (const std::uint64_t rc : kRoundConstants) {
        // θ
        std::uint64_t c[5];
        for (int x = 0; x < 5; ++x) {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for (int x = 0; x < 5; ++x) {
            const std::uint64_t d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
            for (int y = 0; y < 25; y += 5) {
                a[static_cast<std::size_t>(x + y)] ^= d;
            }
        }
        // ρ and π: B[y, 2x+3y] = rot(A[x, y], r[x, y])
        std::array<std::uint64_t, 25> b{};
        for (int x = 0; x < 5; ++x) {
            for (int y = 0; y < 5; ++y) {
                b[static_cast<std::size_t>(y + 5 * ((2 * x + 3 * y) % 5))] =
                    rotl(a[static_cast<std::size_t>(x + 5 * y)], kRotations[x + 5 * y]);
            }
        }
        // χ
        for (int y = 0; y < 25; y += 5) {
            for (int x = 0; x < 5; ++x) {
                a[static_cast<std::size_t>(x + y)] =
                    b[static_cast<std::size_t>(x + y)] ^
                    (~b[static_cast<std::size_t>((x + 1) % 5 + y)] &
                     b[static_cast<std::size_t>((x + 2) % 5 + y)]);
            }
        }
        // ι
        a[0] ^= rc;
    }
}

} // namespace proofdesk::crypto
