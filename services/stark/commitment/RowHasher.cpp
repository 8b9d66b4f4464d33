#include "RowHasher.h"

#include "Parallel.h"
#include "PoseidonBatch.h"

#include "crypto/Blake2s.h"
#include "crypto/KeccakF.h"
#include "crypto/Poseidon.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace proofdesk::stark {
namespace {

static_assert(std::endian::native == std::endian::little, "lanes are read as little-endian words");

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

// Keccak-256 sponges, one per row (rate 136 bytes, 17 lanes); all rows have absorbed the same
// number of lanes (cells are 4 whole lanes), so every row reaches the end of a block together.
// The states are kept in groups of 8 rows laid out lane by lane, so a column's words are XORed
// into consecutive memory and a group is permuted as it lies (keccakF1600Lanes8).
class KeccakRows final : public RowHasher {
public:
    KeccakRows(const NamedHash& hash, std::size_t rows)
        : m_masker(hash), m_rows(rows), m_groups((rows + 7) / 8),
          m_lanes(filledInParallel<std::uint64_t>(m_groups * 200, 0)) {}

    void absorb(std::span<const Fp> values, std::size_t width) override {
        absorbColumns(std::span<const std::span<const Fp>>(&values, 1), width);
    }

    // A group's 1.6 KB of states takes every column's cells before the next group's: the states
    // of a block (tens of MB) are walked once per call, not once per column.
    void absorbColumns(std::span<const std::span<const Fp>> columns, std::size_t width) override {
        const std::size_t start = m_lane;
        Workers::shared().forRange(m_groups, kGrain / 8, [&](std::size_t begin, std::size_t end) {
            for (std::size_t g = begin; g < end; ++g) {
                std::uint64_t* group = m_lanes.data() + 200 * g;
                const std::size_t rows = std::min<std::size_t>(8, m_rows - 8 * g);
                std::size_t lane = start;
                for (const std::span<const Fp> values : columns) {
                    for (std::size_t k = 0; k < width; ++k) {
                        for (std::size_t j = 0; j < 4; ++j) {
                            // The cell's big-endian bytes, 8 at a time, as a little-endian lane.
                            std::uint64_t* target = group + 8 * lane;
                            for (std::size_t r = 0; r < rows; ++r) {
                                const Fp::Limbs& limbs =
                                    values[(8 * g + r) * width + k].montgomery();
                                target[r] ^= __builtin_bswap64(limbs[3 - j]);
                            }
                            if (++lane == kRateLanes) {
                                crypto::keccakF1600Lanes8(group);
                                lane = 0;
                            }
                        }
                    }
                }
            }
        });
        m_lane = (m_lane + 4 * width * columns.size()) % kRateLanes;
    }

    void finishInto(std::vector<Digest>& digests) override {
        digests.resize(m_rows);
        const std::size_t lane = m_lane;
        Workers::shared().forRange(m_groups, kGrain / 8, [&](std::size_t begin, std::size_t end) {
            for (std::size_t g = begin; g < end; ++g) {
                std::uint64_t* group = m_lanes.data() + 200 * g;
                for (std::size_t r = 0; r < 8; ++r) {
                    group[8 * lane + r] ^= 0x01;
                    group[8 * (kRateLanes - 1) + r] ^= std::uint64_t(0x80) << 56;
                }
                crypto::keccakF1600Lanes8(group);
                const std::size_t rows = std::min<std::size_t>(8, m_rows - 8 * g);
                for (std::size_t r = 0; r < rows; ++r) {
                    Digest& digest = digests[8 * g + r];
                    for (std::size_t i = 0; i < 4; ++i) {
                        const std::uint64_t word = group[8 * i + r];
                        std::memcpy(digest.data() + 8 * i, &word, 8); // little-endian lanes
                    }
                    m_masker.apply(digest);
                }
                std::fill(group, group + 200, 0);
            }
        });
        m_lane = 0;
    }

private:
    static constexpr std::size_t kRateLanes = 17;

    Masker m_masker;
    std::size_t m_rows;
    std::size_t m_groups;
    UninitializedBuffer<std::uint64_t> m_lanes; // 200 words per group of 8 rows
    std::size_t m_lane = 0;
};

// Keccak-256 of rows shorter than one block (at most 4 cells, 128 bytes): the rows' words are
// kept until finish() hashes each in one permutation — less memory than a sponge per row.
class KeccakShortRows final : public RowHasher {
public:
    KeccakShortRows(const NamedHash& hash, std::size_t rows, std::size_t cells)
        : m_masker(hash), m_rows(rows), m_lanesPerRow(4 * cells),
          m_lanes(filledInParallel<std::uint64_t>(rows * 4 * cells, 0)) {}

    void absorb(std::span<const Fp> values, std::size_t width) override {
        const std::size_t at = m_filled;
        Workers::shared().forRange(m_rows, kGrain, [&](std::size_t begin, std::size_t end) {
            for (std::size_t row = begin; row < end; ++row) {
                std::uint64_t* lanes = m_lanes.data() + row * m_lanesPerRow + at;
                for (std::size_t k = 0; k < width; ++k) {
                    const Fp::Limbs& limbs = values[row * width + k].montgomery();
                    for (std::size_t j = 0; j < 4; ++j) {
                        lanes[4 * k + j] = __builtin_bswap64(limbs[3 - j]);
                    }
                }
            }
        });
        m_filled += 4 * width;
    }

    void finishInto(std::vector<Digest>& digests) override {
        digests.resize(m_rows);
        const std::size_t used = m_filled;
        Workers::shared().forRange(m_rows, kGrain, [&](std::size_t begin, std::size_t end) {
            constexpr std::size_t kBatch = 64;
            std::array<std::array<std::uint64_t, 25>, kBatch> states;
            for (std::size_t first = begin; first < end; first += kBatch) {
                const std::size_t n = std::min(kBatch, end - first);
                for (std::size_t i = 0; i < n; ++i) {
                    std::array<std::uint64_t, 25>& state = states[i];
                    state = {};
                    std::memcpy(state.data(), m_lanes.data() + (first + i) * m_lanesPerRow,
                                8 * used);
                    state[used] ^= 0x01;
                    state[16] ^= std::uint64_t(0x80) << 56;
                }
                crypto::keccakF1600Many(states.data(), n);
                for (std::size_t i = 0; i < n; ++i) {
                    std::memcpy(digests[first + i].data(), states[i].data(), 32);
                    m_masker.apply(digests[first + i]);
                }
            }
        });
        m_filled = 0;
    }

private:
    Masker m_masker;
    std::size_t m_rows;
    std::size_t m_lanesPerRow;
    UninitializedBuffer<std::uint64_t> m_lanes;
    std::size_t m_filled = 0; // lanes written per row
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

    void finishInto(std::vector<Digest>& digests) override {
        digests.resize(m_states.size());
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
// numbers; a word waits until its pair arrives. Each worker's rows are permuted together
// (hadesPermuteAll), a column at a time.
class PoseidonRows final : public RowHasher {
public:
    explicit PoseidonRows(std::size_t rows) : m_states(rows) {}

    void absorb(std::span<const Fp> values, std::size_t width) override {
        const bool pending = m_pending;
        // The element whose value is the Montgomery word w of v is v·R (R = 2^256 mod p).
        static const Fp r = Fp::fromMontgomery(crypto::mont::toMont(crypto::mont::one()));
        Workers::shared().forRange(
            m_states.size(), kGrain, [&](std::size_t begin, std::size_t end) {
                const std::span<HadesState> states(m_states.data() + begin, end - begin);
                bool waiting = pending;
                for (std::size_t k = 0; k < width; ++k) {
                    for (std::size_t row = begin; row < end; ++row) {
                        Fp& into = waiting ? m_states[row].s1 : m_states[row].s0;
                        into += values[row * width + k] * r;
                    }
                    if (waiting) {
                        hadesPermuteAll(states);
                    }
                    waiting = !waiting;
                }
            });
        m_pending = ((pending ? 1 : 0) + width) % 2 == 1;
    }

    void finishInto(std::vector<Digest>& digests) override {
        digests.resize(m_states.size());
        const bool pending = m_pending;
        Workers::shared().forRange(
            m_states.size(), kGrain, [&](std::size_t begin, std::size_t end) {
                for (std::size_t row = begin; row < end; ++row) {
                    Fp& padded = pending ? m_states[row].s1 : m_states[row].s0;
                    padded += Fp::one();
                }
                hadesPermuteAll(std::span<HadesState>(m_states.data() + begin, end - begin));
                for (std::size_t row = begin; row < end; ++row) {
                    digests[row] = feltAsDigest(m_states[row].s0);
                    m_states[row] = HadesState{};
                }
            });
        m_pending = false;
    }

private:
    std::vector<HadesState> m_states;
    bool m_pending = false;
};

// poseidon(left, right) = hades(left, right, 2)[0] of each pair, batched.
void poseidonPairs(const Digest* children, std::size_t count, Digest* parents) {
    constexpr std::size_t kBatch = 64;
    static const Fp two = Fp::fromU64(2);
    std::array<HadesState, kBatch> states;
    for (std::size_t first = 0; first < count; first += kBatch) {
        const std::size_t n = std::min(kBatch, count - first);
        for (std::size_t i = 0; i < n; ++i) {
            const Digest* pair = children + 2 * (first + i);
            states[i] = {digestAsFelt(pair[0]).value(), digestAsFelt(pair[1]).value(), two};
        }
        hadesPermuteAll(std::span<HadesState>(states.data(), n));
        for (std::size_t i = 0; i < n; ++i) {
            parents[first + i] = feltAsDigest(states[i].s0);
        }
    }
}

// keccak256 of the 64 bytes left ‖ right: one block, 8 lanes of message then the padding.
void keccakPairs(const NamedHash& hash, const Digest* children, std::size_t count,
                 Digest* parents) {
    constexpr std::size_t kBatch = 64;
    std::array<std::array<std::uint64_t, 25>, kBatch> states;
    for (std::size_t first = 0; first < count; first += kBatch) {
        const std::size_t n = std::min(kBatch, count - first);
        for (std::size_t i = 0; i < n; ++i) {
            std::array<std::uint64_t, 25>& lanes = states[i];
            lanes = {};
            std::memcpy(lanes.data(), children[2 * (first + i)].data(), 32);
            std::memcpy(lanes.data() + 4, children[2 * (first + i) + 1].data(), 32);
            lanes[8] = 0x01;
            lanes[16] = std::uint64_t(0x80) << 56;
        }
        crypto::keccakF1600Many(states.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            Digest digest;
            std::memcpy(digest.data(), states[i].data(), 32);
            parents[first + i] = hash.masked(digest);
        }
    }
}

} // namespace

std::unique_ptr<RowHasher> RowHasher::make(const NamedHash& hash, std::size_t rows,
                                           std::size_t cells) {
    switch (hash.base()) {
    case NamedHash::Base::Keccak256:
        if (32 * cells < 136) {
            return std::make_unique<KeccakShortRows>(hash, rows, cells);
        }
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

void hashPairs(const NamedHash& hash, const Digest* children, std::size_t count, Digest* parents) {
    switch (hash.base()) {
    case NamedHash::Base::Keccak256:
        keccakPairs(hash, children, count, parents);
        return;
    case NamedHash::Base::Poseidon3:
        poseidonPairs(children, count, parents);
        return;
    case NamedHash::Base::Blake256:
    case NamedHash::Base::Pedersen:
        break;
    }
    for (std::size_t i = 0; i < count; ++i) {
        parents[i] = hash.hashPair(children[2 * i], children[2 * i + 1]).value();
    }
}

} // namespace proofdesk::stark
