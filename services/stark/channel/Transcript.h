#pragma once

#include "Hashes.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace proofdesk::stark {

// The state Stone's non-interactive prover and verifier share: it absorbs every message of the
// prover (as the bytes it occupies in the proof) and draws the verifier's randomness from what
// was absorbed. Two kinds exist:
//  - the byte channel (channel_hash keccak256 or blake256, Stone's default): a hash chain,
//    field elements travel as their Montgomery words, the proof-of-work nonce as 8 bytes;
//  - the felt channel (channel_hash poseidon3, Integrity-style proofs): a Poseidon state,
//    every word of the proof is a field element in standard form, the nonce a 32-byte word.
class Transcript {
public:
    virtual ~Transcript() = default;

    // Absorbs one message; false when the felt channel meets a word that is not below p.
    virtual bool absorb(std::span<const std::uint8_t> message) = 0;
    virtual Fp drawFelt() = 0;
    // A number in [0, bound) for a query index (bound a power of two below 2^48).
    virtual std::uint64_t drawNumber(std::uint64_t bound) = 0;
    // The 32 bytes the proof of work starts from.
    virtual Digest powSeed() const = 0;
    // Field elements on the wire: Montgomery words (byte channel) or values (felt channel).
    virtual bool feltsAreMontgomery() const = 0;
    virtual std::size_t nonceBytes() const = 0;
    virtual std::unique_ptr<Transcript> clone() const = 0;

    void encodeFelt(const Fp& value, std::uint8_t out[32]) const;
    std::optional<Fp> decodeFelt(const std::uint8_t bytes[32]) const;
};

// `channelHash` is proof_parameters.channel_hash; `seed` the public input's digest the channel
// starts from. nullptr for an unknown hash, or a seed the felt channel cannot take.
std::unique_ptr<Transcript> makeTranscript(const std::string& channelHash, const Digest& seed);

// Stone's proof of work: with init = H(0x0123456789abcded ‖ seed ‖ bits), H(init ‖ nonce) must
// start with `bits` zero bits (nonce as 8 big-endian bytes, H the proof-of-work hash).
bool proofOfWorkHolds(const NamedHash& hash, const Digest& seed, int bits, std::uint64_t nonce);
// The smallest nonce meeting `bits`, searched on `threads` threads (the prover's grinding).
std::uint64_t grindProofOfWork(const NamedHash& hash, const Digest& seed, int bits, int threads);

} // namespace proofdesk::stark
