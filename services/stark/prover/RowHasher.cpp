#include "RowHasher.h"

#include "Parallel.h"

#include "crypto/Blake2s.h"
#include "crypto/KeccakF.h"
#include "crypto/Poseidon.h"

#include <array>
#include <cstring>
#include <stdexcept>

namespace proofdesk::stark {
namespace {

constexpr std::size_t kGrain = 256;

// The hash's mask as a byte mask (which bytes of a digest it keeps).
class Masker {
public:
    explicit Masker(const NamedHash& hash) {
        // A digest of all ones shows which bytes the mask keeps.
        Digest ones;
        ones.fill(0xff);
        m_keep = hash.masked(ones);
    }
    void apply(Digest& digest) const {
        for (std::size_t i = 0; i < 32; ++i) {
            digest[i] &= m_keep[i];
        }
    }

private:
    Digest m_keep{};
};

// Keccak-256 sponges, one per row (rate 136 bytes); all rows have absorbed the same length.
class KeccakRows final : public RowHasher {
public:
    KeccakRows(const NamedHash& hash, std::size_t rows) : m_masker(hash), m_states(rows) {}

    void absorb(std::span<const Fp> values, std::size_t width) override {
        const std::size_t rows = m_states.size();
        const std::size_t at = m_absorbed;
        Workers::shared().forRange(rows, kGrain, [&](std::size_t begin, std::size_t end) {
            for (std::size_t row = begin; row < end; ++row) {
                std::size_t position = at;
                for (std::size_t k = 0; k < width; ++k) {
                    std::uint8_t bytes[32];
                    toMontgomeryBytes(values[row * width + k], bytes);
                    absorbBytes(m_states[row], position, bytes);
                }
            }
        });
        m_absorbed = (m_absorbed + 32 * width) % kRate;
    }

    std::vector<Digest> finish() override {
        std::vector<Digest> digests(m_states.size());
        const std::size_t at = m_absorbed;
        Workers::shared().forRange(
            m_states.size(), kGrain, [&](std::size_t begin, std::size_t end) {
                for (std::size_t row = begin; row < end; ++row) {
                    auto& lanes = m_states[row];
                    xorByte(lanes, at, 0x01);
                    xorByte(lanes, kRate - 1, 0x80);
                    crypto::keccakF1600(lanes);
                    for (std::size_t i = 0; i < 32; ++i) {
                        digests[row][i] = std::uint8_t(lanes[i / 8] >> (8 * (i % 8)));
                    }
                    m_masker.apply(digests[row]);
                    lanes = {};
                }
            });
        m_absorbed = 0;
        return digests;
    }

private:
    static constexpr std::size_t kRate = 136;
    static void xorByte(std::array<std::uint64_t, 25>& lanes, std::size_t at, std::uint8_t byte) {
        lanes[at / 8] ^= std::uint64_t(byte) << (8 * (at % 8));
    }
    static void absorbBytes(std::array<std::uint64_t, 25>& lanes, std::size_t& position,
                            const std::uint8_t* bytes) {
        for (std::size_t i = 0; i < 32;) {
            if (position % 8 == 0 && i + 8 <= 32 && position + 8 <= kRate) {
                std::uint64_t lane = 0;
                std::memcpy(&lane, bytes + i, 8); // lanes are little-endian
                lanes[position / 8] ^= lane;
                position += 8;
                i += 8;
            } else {
                xorByte(lanes, position, bytes[i]);
                ++position;
                ++i;
            }
            if (position == kRate) {
                crypto::keccakF1600(lanes);
                position = 0;
            }
        }
    }

    Masker m_masker;
    std::vector<std::array<std::uint64_t, 25>> m_states;
    std::size_t m_absorbed = 0;
};

// BLAKE2s-256 per row: chaining value and the pending (not yet compressed) block, since the
// last block is compressed with the finalisation flag.
class BlakeRows final : public RowHasher {
public:
    BlakeRows(const NamedHash& hash, std::size_t rows) : m_masker(hash), m_states(rows) { reset(); }

    void absorb(std::span<const Fp> values, std::size_t width) override {
        const std::size_t fill = m_fill;
        const std::uint64_t counter = m_counter;
        Workers::shared().forRange(
            m_states.size(), kGrain, [&](std::size_t begin, std::size_t end) {
                for (std::size_t row = begin; row < end; ++row) {
                    State& state = m_states[row];
                    std::size_t f = fill;
                    std::uint64_t t = counter;
                    for (std::size_t k = 0; k < width; ++k) {
                        if (f == 64) {
                            t += 64;
                            compress(state, t, false);
                            f = 0;
                        }
                        toMontgomeryBytes(values[row * width + k], state.block + f);
                        f += 32;
                    }
                }
            });
        // Every row moved the same way; replay it on the shared counters.
        for (std::size_t k = 0; k < width; ++k) {
            if (m_fill == 64) {
                m_counter += 64;
                m_fill = 0;
            }
            m_fill += 32;
        }
    }

    std::vector<Digest> finish() override {
        std::vector<Digest> digests(m_states.size());
        const std::size_t fill = m_fill;
        const std::uint64_t total = m_counter + fill;
        Workers::shared().forRange(
            m_states.size(), kGrain, [&](std::size_t begin, std::size_t end) {
                for (std::size_t row = begin; row < end; ++row) {
                    State& state = m_states[row];
                    std::memset(state.block + fill, 0, 64 - fill);
                    compress(state, total, true);
                    for (std::size_t i = 0; i < 32; ++i) {
                        digests[row][i] = std::uint8_t(state.h[i / 4] >> (8 * (i % 4)));
                    }
                    m_masker.apply(digests[row]);
                }
            });
        reset();
        return digests;
    }

private:
    struct State {
        std::array<std::uint32_t, 8> h;
        std::uint8_t block[64];
    };
    static void compress(State& state, std::uint64_t counter, bool last) {
        std::array<std::uint32_t, 16> words;
        for (std::size_t i = 0; i < 16; ++i) {
            words[i] = std::uint32_t(state.block[4 * i]) |
                       (std::uint32_t(state.block[4 * i + 1]) << 8) |
                       (std::uint32_t(state.block[4 * i + 2]) << 16) |
                       (std::uint32_t(state.block[4 * i + 3]) << 24);
        }
        state.h = crypto::blake2sCompress(state.h, words, std::uint32_t(counter),
                                          std::uint32_t(counter >> 32), last ? 0xffffffffu : 0, 0);
    }
    void reset() {
        std::array<std::uint32_t, 8> h = crypto::blake2sIv();
        h[0] ^= 0x01010020; // digest length 32, no key, fanout 1, depth 1
        for (State& state : m_states) {
            state.h = h;
        }
        m_fill = 0;
        m_counter = 0;
    }

    Masker m_masker;
    std::vector<State> m_states;
    std::size_t m_fill = 0;
    std::uint64_t m_counter = 0;
};

// Poseidon's sponge (poseidon_hash_many) per row over the cells' Montgomery words read as
// numbers; a word waits until its pair arrives.
class PoseidonRows final : public RowHasher {
public:
    explicit PoseidonRows(std::size_t rows) : m_states(rows) {}

    void absorb(std::span<const Fp> values, std::size_t width) override {
        const bool pending = m_pending;
        // The element whose value is the Montgomery word w of v is v·R (R = 2^256 mod p).
        static const Fp r = Fp::fromMontgomery(crypto::mont::toMont(crypto::mont::one()));
        Workers::shared().forRange(m_states.size(), kGrain,
                                   [&](std::size_t begin, std::size_t end) {
                                       for (std::size_t row = begin; row < end; ++row) {
                                           State& state = m_states[row];
                                           bool waiting = pending;
                                           for (std::size_t k = 0; k < width; ++k) {
                                               const Fp word = values[row * width + k] * r;
                                               if (!waiting) {
                                                   state.s0 = state.s0 + word;
                                                   waiting = true;
                                               } else {
                                                   state.s1 = state.s1 + word;
                                                   permute(state);
                                                   waiting = false;
                                               }
                                           }
                                       }
                                   });
        m_pending = ((pending ? 1 : 0) + width) % 2 == 1;
    }

    std::vector<Digest> finish() override {
        std::vector<Digest> digests(m_states.size());
        const bool pending = m_pending;
        Workers::shared().forRange(m_states.size(), kGrain,
                                   [&](std::size_t begin, std::size_t end) {
                                       for (std::size_t row = begin; row < end; ++row) {
                                           State& state = m_states[row];
                                           if (pending) {
                                               state.s1 = state.s1 + Fp::one();
                                           } else {
                                               state.s0 = state.s0 + Fp::one();
                                           }
                                           permute(state);
                                           digests[row] = feltAsDigest(state.s0);
                                           state = State{};
                                       }
                                   });
        m_pending = false;
        return digests;
    }

private:
    struct State {
        Fp s0, s1, s2;
    };
    static void permute(State& state) {
        Fp::Limbs a = state.s0.montgomery(), b = state.s1.montgomery(), c = state.s2.montgomery();
        crypto::hadesPermutationMontgomery(a, b, c);
        state.s0 = Fp::fromMontgomery(a);
        state.s1 = Fp::fromMontgomery(b);
        state.s2 = Fp::fromMontgomery(c);
    }

    std::vector<State> m_states;
    bool m_pending = false;
};

} // namespace

std::unique_ptr<RowHasher> RowHasher::make(const NamedHash& hash, std::size_t rows) {
    switch (hash.base()) {
    case NamedHash::Base::Keccak256:
        return std::make_unique<KeccakRows>(hash, rows);
    case NamedHash::Base::Blake256:
        return std::make_unique<BlakeRows>(hash, rows);
    case NamedHash::Base::Poseidon3:
        return std::make_unique<PoseidonRows>(rows);
    case NamedHash::Base::Pedersen:
        break;
    }
    throw std::invalid_argument("the prover does not commit with " + hash.name() +
                                " (it commits with keccak256, blake256 and poseidon3 hashes)");
}

} // namespace proofdesk::stark
