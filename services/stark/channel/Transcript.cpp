#include "Transcript.h"

#include "crypto/KeccakF.h"
#include "crypto/Poseidon.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace proofdesk::stark {
namespace {

// Poseidon state; a message's words w are absorbed as state = poseidon_many(state + 1, w…), a
// draw is poseidon(state, counter) with the counter reset by every message.
class FeltTranscript final : public Transcript {
public:
    explicit FeltTranscript(const Fp& state) : m_state(state) {}

    bool absorb(std::span<const std::uint8_t> message) override {
        if (message.size() % 32 != 0) {
            return false;
        }
        std::vector<crypto::Felt> words;
        words.reserve(message.size() / 32 + 1);
        words.push_back((m_state + Fp::one()).toFelt());
        for (std::size_t at = 0; at < message.size(); at += 32) {
            const auto word = fromStandardBytes(message.data() + at);
            if (!word) {
                return false;
            }
            words.push_back(word->toFelt());
        }
        m_state = Fp::fromFelt(crypto::poseidonHashMany(words));
        m_counter = 0;
        return true;
    }
    Fp drawFelt() override {
        const Fp value =
            Fp::fromFelt(crypto::poseidonHash(m_state.toFelt(), crypto::Felt::fromU64(m_counter)));
        ++m_counter;
        return value;
    }
    std::uint64_t drawNumber(std::uint64_t bound) override {
        return drawFelt().toFelt().low64() % bound;
    }
    Digest powSeed() const override { return feltAsDigest(m_state); }
    bool feltsAreMontgomery() const override { return false; }
    std::size_t nonceBytes() const override { return 32; }
    std::unique_ptr<Transcript> clone() const override {
        return std::make_unique<FeltTranscript>(*this);
    }

private:
    Fp m_state;
    std::uint64_t m_counter = 0;
};

// Stone's hash chain: a message m makes the digest H((digest + 1) ‖ m) (the digest read as a
// 256-bit big-endian integer); random bytes come from H(digest ‖ 0^24 ‖ counter) blocks, with
// the unused tail of a partly used block kept for the next short request.
class ByteTranscript final : public Transcript {
public:
    ByteTranscript(NamedHash hash, const Digest& seed) : m_hash(std::move(hash)), m_digest(seed) {}

    bool absorb(std::span<const std::uint8_t> message) override {
        std::vector<std::uint8_t> input(32 + message.size());
        std::memcpy(input.data(), m_digest.data(), 32);
        for (int i = 31; i >= 0; --i) {
            if (++input[std::size_t(i)] != 0) {
                break;
            }
        }
        std::memcpy(input.data() + 32, message.data(), message.size());
        m_digest = *m_hash.hashBytes(input);
        m_counter = 0;
        m_spare.clear();
        return true;
    }
    Fp drawFelt() override {
        // Uniform below 31·p (the largest multiple of p under 2^256), then reduced: the result is
        // the element whose Montgomery word that is, as Stone's PrimeFieldElement takes it.
        static const Fp::Limbs bound = [] {
            Fp::Limbs value{};
            for (int i = 0; i < 31; ++i) {
                crypto::u256::addTo(value, crypto::Felt::modulus());
            }
            return value;
        }();
        for (;;) {
            std::uint8_t word[32];
            randomBytes(word, 32);
            Fp::Limbs limbs = limbsFromBytes(word);
            if (!crypto::u256::lessThan(limbs, bound)) {
                continue;
            }
            while (!limbsBelowPrime(limbs)) {
                crypto::u256::subFrom(limbs, crypto::Felt::modulus());
            }
            return Fp::fromMontgomery(limbs);
        }
    }
    std::uint64_t drawNumber(std::uint64_t bound) override {
        std::uint8_t bytes[8];
        randomBytes(bytes, 8);
        std::uint64_t value = 0;
        for (const std::uint8_t byte : bytes) {
            value = (value << 8) | byte;
        }
        return value % bound;
    }
    Digest powSeed() const override { return m_digest; }
    bool feltsAreMontgomery() const override { return true; }
    std::size_t nonceBytes() const override { return 8; }
    std::unique_ptr<Transcript> clone() const override {
        return std::make_unique<ByteTranscript>(*this);
    }

private:
    Digest nextBlock() {
        std::uint8_t input[64] = {};
        std::memcpy(input, m_digest.data(), 32);
        for (int i = 0; i < 8; ++i) {
            input[56 + i] = std::uint8_t(m_counter >> (8 * (7 - i)));
        }
        ++m_counter;
        return *m_hash.hashBytes(input);
    }
    void randomBytes(std::uint8_t* out, std::size_t size) {
        std::size_t done = 0;
        for (; size - done >= 32; done += 32) {
            const Digest block = nextBlock();
            std::memcpy(out + done, block.data(), 32);
        }
        const std::size_t tail = size - done;
        if (tail == 0) {
            return;
        }
        if (tail <= m_spare.size()) {
            for (std::size_t i = 0; i < tail; ++i) {
                out[done + i] = m_spare.front();
                m_spare.pop_front();
            }
            return;
        }
        const Digest block = nextBlock();
        std::memcpy(out + done, block.data(), tail);
        m_spare.insert(m_spare.end(), block.begin() + std::ptrdiff_t(tail), block.end());
    }

    NamedHash m_hash;
    Digest m_digest;
    std::uint64_t m_counter = 0;
    std::deque<std::uint8_t> m_spare;
};

Digest powInit(const NamedHash& hash, const Digest& seed, int bits) {
    std::uint8_t first[41] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xed};
    std::memcpy(first + 8, seed.data(), 32);
    first[40] = std::uint8_t(bits);
    return *hash.hashBytes(first);
}

bool powAccepts(const NamedHash& hash, const Digest& init, int bits, std::uint64_t nonce) {
    std::uint8_t second[40];
    std::memcpy(second, init.data(), 32);
    for (int i = 0; i < 8; ++i) {
        second[32 + i] = std::uint8_t(nonce >> (8 * (7 - i)));
    }
    const Digest result = *hash.hashBytes(second);
    std::uint64_t head = 0;
    for (int i = 0; i < 8; ++i) {
        head = (head << 8) | result[std::size_t(i)];
    }
    return bits >= 64 ? head == 0 : head < (std::uint64_t{1} << (64 - bits));
}

} // namespace

void Transcript::encodeFelt(const Fp& value, std::uint8_t out[32]) const {
    if (feltsAreMontgomery()) {
        toMontgomeryBytes(value, out);
    } else {
        toStandardBytes(value, out);
    }
}

std::optional<Fp> Transcript::decodeFelt(const std::uint8_t bytes[32]) const {
    return feltsAreMontgomery() ? fromMontgomeryBytes(bytes) : fromStandardBytes(bytes);
}

std::unique_ptr<Transcript> makeTranscript(const std::string& channelHash, const Digest& seed) {
    if (channelHash == "poseidon3") {
        const auto state = digestAsFelt(seed);
        if (!state) {
            return nullptr;
        }
        return std::make_unique<FeltTranscript>(*state);
    }
    if (channelHash == "keccak256" || channelHash == "blake256") {
        return std::make_unique<ByteTranscript>(*NamedHash::named(channelHash), seed);
    }
    return nullptr;
}

bool proofOfWorkHolds(const NamedHash& hash, const Digest& seed, int bits, std::uint64_t nonce) {
    if (bits <= 0) {
        return true;
    }
    return powAccepts(hash, powInit(hash, seed, bits), bits, nonce);
}

std::uint64_t grindProofOfWork(const NamedHash& hash, const Digest& seed, int bits, int threads) {
    if (bits <= 0) {
        return 0;
    }
    const Digest init = powInit(hash, seed, bits);
    const std::uint64_t bound = bits >= 64 ? 1 : std::uint64_t{1} << (64 - bits);
    // keccak256(init ‖ nonce) of eight nonces at a time, one block each (40 bytes, then
    // padding), laid out lane by lane (lane i of nonce j at lanes[8i + j]) as the vector
    // permutation takes them: no state is transposed.
    constexpr std::uint64_t kBatch = 8;
    std::array<std::uint64_t, 4> initWords;
    std::memcpy(initWords.data(), init.data(), 32);
    const auto firstInBatch = [&](std::uint64_t start) {
        std::array<std::uint64_t, 25 * kBatch> lanes{};
        for (std::size_t i = 0; i < 4; ++i) {
            std::fill_n(lanes.begin() + std::ptrdiff_t(kBatch * i), kBatch, initWords[i]);
        }
        for (std::uint64_t j = 0; j < kBatch; ++j) {
            lanes[4 * kBatch + j] = __builtin_bswap64(start + j); // the nonce's big-endian bytes
            lanes[5 * kBatch + j] = 0x01;
            lanes[16 * kBatch + j] = std::uint64_t(0x80) << 56;
        }
        crypto::keccakF1600Lanes8(lanes.data());
        for (std::uint64_t j = 0; j < kBatch; ++j) {
            Digest digest;
            for (std::size_t i = 0; i < 4; ++i) {
                std::memcpy(digest.data() + 8 * i, &lanes[kBatch * i + j], 8);
            }
            digest = hash.masked(digest);
            std::uint64_t head = 0;
            for (int b = 0; b < 8; ++b) {
                head = (head << 8) | digest[std::size_t(b)];
            }
            if (bits >= 64 ? head == 0 : head < bound) {
                return std::optional<std::uint64_t>(start + j);
            }
        }
        return std::optional<std::uint64_t>();
    };
    const bool batched =
        hash.base() == NamedHash::Base::Keccak256 && std::endian::native == std::endian::little;
    constexpr std::uint64_t kChunk = 1 << 14;
    std::atomic<std::uint64_t> nextChunk{0};
    std::atomic<std::uint64_t> best{std::numeric_limits<std::uint64_t>::max()};
    const auto found = [&](std::uint64_t nonce) {
        std::uint64_t seen = best.load();
        while (nonce < seen && !best.compare_exchange_weak(seen, nonce)) {
        }
    };
    const auto search = [&] {
        for (;;) {
            const std::uint64_t start = nextChunk.fetch_add(kChunk);
            if (start >= best.load()) {
                return;
            }
            if (batched) {
                for (std::uint64_t nonce = start; nonce < start + kChunk; nonce += kBatch) {
                    if (const auto hit = firstInBatch(nonce)) {
                        found(*hit);
                        return;
                    }
                }
                continue;
            }
            for (std::uint64_t nonce = start; nonce < start + kChunk; ++nonce) {
                if (powAccepts(hash, init, bits, nonce)) {
                    found(nonce);
                    return;
                }
            }
        }
    };
    std::vector<std::thread> workers;
    for (int i = 1; i < threads; ++i) {
        try {
            workers.emplace_back(search);
        } catch (const std::system_error&) {
            break; // no room for another thread's stack: search with those started
        }
    }
    search();
    for (std::thread& worker : workers) {
        worker.join();
    }
    return best.load();
}

} // namespace proofdesk::stark
