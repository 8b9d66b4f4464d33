#pragma once

#include "field/Fp.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace proofdesk::stark {

using Digest = std::array<std::uint8_t, 32>;

Digest keccak256(std::span<const std::uint8_t> data);
Digest blake2s256(std::span<const std::uint8_t> data);

// A hash of Stone's by-name table, as a commitment or proof-of-work hash:
//   keccak256, blake256 (BLAKE2s-256), poseidon3, pedersen,
//   keccak256_masked160_lsb/_msb, keccak256_masked248_lsb, blake256_masked160_lsb/_msb,
//   blake256_masked248_lsb.
// A masked hash keeps the given number of bits of the big-endian digest at its least (lsb) or
// most (msb) significant end and zeroes the rest.
class NamedHash {
public:
    enum class Base { Keccak256, Blake256, Poseidon3, Pedersen };

    static std::optional<NamedHash> named(const std::string& name);
    const std::string& name() const { return m_name; }
    Base base() const { return m_base; }
    // Whether digests are field elements (Poseidon, Pedersen) rather than byte strings.
    bool isAlgebraic() const { return m_base == Base::Poseidon3 || m_base == Base::Pedersen; }

    // Stone's HashBytesWithLength: a byte hash of the bytes; for the algebraic hashes the bytes
    // are 32-byte big-endian words (nullopt if one is not below p).
    std::optional<Digest> hashBytes(std::span<const std::uint8_t> bytes) const;
    // Stone's Hash(a, b) of two digests (a Merkle node): the byte hash of a ‖ b, or the
    // algebraic hash of the two digests read as field elements.
    std::optional<Digest> hashPair(const Digest& left, const Digest& right) const;

    // The digest with the bytes the mask drops zeroed.
    Digest masked(const Digest& digest) const;

private:
    std::string m_name;
    Base m_base = Base::Keccak256;
    int m_keptBytes = 32;
    bool m_keepMsb = false;
};

// A digest as a big-endian number, if below p (how Stone's felt channel carries a digest).
std::optional<Fp> digestAsFelt(const Digest& digest);
Digest feltAsDigest(const Fp& value);

} // namespace proofdesk::stark
