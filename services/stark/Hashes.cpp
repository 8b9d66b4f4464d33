#include "Hashes.h"

#include "crypto/Blake2s.h"
#include "crypto/KeccakF.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

namespace proofdesk::stark {

static_assert(std::endian::native == std::endian::little, "Keccak lanes are little-endian words");

Digest keccak256(std::span<const std::uint8_t> data) {
    constexpr std::size_t kRate = 136;
    std::array<std::uint64_t, 25> lanes{};
    const auto absorbBlock = [&lanes](const std::uint8_t* block) {
        for (std::size_t i = 0; i < kRate / 8; ++i) {
            std::uint64_t lane = 0;
            for (int b = 7; b >= 0; --b) {
                lane = (lane << 8) | block[i * 8 + std::size_t(b)];
            }
            lanes[i] ^= lane;
        }
        crypto::keccakF1600(lanes);
    };
    std::size_t at = 0;
    for (; data.size() - at >= kRate; at += kRate) {
        absorbBlock(data.data() + at);
    }
    std::uint8_t last[kRate] = {};
    std::memcpy(last, data.data() + at, data.size() - at);
    last[data.size() - at] ^= 0x01;
    last[kRate - 1] ^= 0x80;
    absorbBlock(last);
    Digest out{};
    for (std::size_t i = 0; i < 32; ++i) {
        out[i] = std::uint8_t(lanes[i / 8] >> (8 * (i % 8)));
    }
    return out;
}

Digest blake2s256(std::span<const std::uint8_t> data) {
    return crypto::blake2s256(data.data(), data.size());
}

std::optional<NamedHash> NamedHash::named(const std::string& name) {
    NamedHash hash;
    hash.m_name = name;
    std::string base = name;
    const auto maskAt = name.find("_masked");
    if (maskAt != std::string::npos) {
        base = name.substr(0, maskAt);
        const std::string mask = name.substr(maskAt + 7);
        if (mask == "160_lsb" || mask == "160_msb") {
            hash.m_keptBytes = 20;
        } else if (mask == "248_lsb" || mask == "248_msb") {
            hash.m_keptBytes = 31;
        } else {
            return std::nullopt;
        }
        hash.m_keepMsb = mask.ends_with("_msb");
    }
    if (base == "keccak256") {
        hash.m_base = Base::Keccak256;
    } else if (base == "blake256") {
        hash.m_base = Base::Blake256;
    } else if (base == "poseidon3" && maskAt == std::string::npos) {
        hash.m_base = Base::Poseidon3;
    } else if (base == "pedersen" && maskAt == std::string::npos) {
        hash.m_base = Base::Pedersen;
    } else {
        return std::nullopt;
    }
    return hash;
}

Digest NamedHash::masked(const Digest& digest) const {
    if (m_keptBytes == 32) {
        return digest;
    }
    Digest out{};
    if (m_keepMsb) {
        std::memcpy(out.data(), digest.data(), std::size_t(m_keptBytes));
    } else {
        const std::size_t from = 32 - std::size_t(m_keptBytes);
        std::memcpy(out.data() + from, digest.data() + from, std::size_t(m_keptBytes));
    }
    return out;
}

std::optional<Digest> NamedHash::hashBytes(std::span<const std::uint8_t> bytes) const {
    switch (m_base) {
    case Base::Keccak256:
        return masked(keccak256(bytes));
    case Base::Blake256:
        return masked(blake2s256(bytes));
    case Base::Poseidon3: {
        if (bytes.size() % 32 != 0) {
            return std::nullopt;
        }
        std::vector<crypto::Felt> words;
        words.reserve(bytes.size() / 32);
        for (std::size_t at = 0; at < bytes.size(); at += 32) {
            const auto word = fromStandardBytes(bytes.data() + at);
            if (!word) {
                return std::nullopt;
            }
            words.push_back(word->toFelt());
        }
        return feltAsDigest(Fp::fromFelt(crypto::poseidonHashMany(words)));
    }
    case Base::Pedersen: {
        if (bytes.size() % 32 != 0) {
            return std::nullopt;
        }
        // Each word is reduced mod p and the quotient added after hashing, as Stone does.
        crypto::Felt state = crypto::Felt::zero();
        for (std::size_t at = 0; at < bytes.size(); at += 32) {
            crypto::Felt::Limbs word = limbsFromBytes(bytes.data() + at);
            const auto [quotient, remainder] = crypto::u256::divmod(word, crypto::Felt::modulus());
            state = crypto::pedersenHash(state, *crypto::Felt::fromLimbs(remainder)) +
                    *crypto::Felt::fromLimbs(quotient);
        }
        state = crypto::pedersenHash(state, crypto::Felt::fromU64(bytes.size() / 32));
        return feltAsDigest(Fp::fromFelt(state));
    }
    }
    return std::nullopt;
}

std::optional<Digest> NamedHash::hashPair(const Digest& left, const Digest& right) const {
    if (isAlgebraic()) {
        const auto a = digestAsFelt(left);
        const auto b = digestAsFelt(right);
        if (!a || !b) {
            return std::nullopt;
        }
        const crypto::Felt h = m_base == Base::Poseidon3
                                   ? crypto::poseidonHash(a->toFelt(), b->toFelt())
                                   : crypto::pedersenHash(a->toFelt(), b->toFelt());
        return feltAsDigest(Fp::fromFelt(h));
    }
    std::uint8_t both[64];
    std::memcpy(both, left.data(), 32);
    std::memcpy(both + 32, right.data(), 32);
    return hashBytes(both);
}

std::optional<Fp> digestAsFelt(const Digest& digest) {
    return fromStandardBytes(digest.data());
}

Digest feltAsDigest(const Fp& value) {
    Digest out{};
    toStandardBytes(value, out.data());
    return out;
}

} // namespace proofdesk::stark
