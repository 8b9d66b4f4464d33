#pragma once

#include "Rejection.h"
#include "Transcript.h"

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::stark {

// The verifier's side of the channel: proof_hex read front to back in the order the prover wrote
// it, each message absorbed into the transcript until the query phase begins (from then on
// decommitments are read without being absorbed). Running out of proof, or a word the channel
// cannot take, throws Rejection naming what was being read.
class ProofReader {
public:
    ProofReader(std::vector<std::uint8_t> proof, Transcript& transcript)
        : m_proof(std::move(proof)), m_transcript(transcript) {}

    Digest readCommitment(const std::string& what);
    Fp readFelt(const std::string& what);
    // `count` field elements sent as one message (oneMessage) or one message each.
    std::vector<Fp> readFelts(std::size_t count, bool oneMessage, const std::string& what);
    // The proof-of-work nonce, checked against `bits` with `powHash`; absorbed afterwards.
    void readProofOfWork(const NamedHash& powHash, int bits);

    void beginQueryPhase() { m_queryPhase = true; }
    // Decommitment data (query phase). Decommitted field elements are Montgomery words in both
    // channels (the felt channel carries the word as a number); Merkle nodes are 32-byte digests.
    Fp readDecommittedFelt(const std::string& what);
    Digest readNode(const std::string& what);

    Fp drawFelt() { return m_transcript.drawFelt(); }
    std::uint64_t drawNumber(std::uint64_t bound) { return m_transcript.drawNumber(bound); }

    std::size_t position() const { return m_at; }
    std::size_t remaining() const { return m_proof.size() - m_at; }

private:
    const std::uint8_t* take(std::size_t size, const std::string& what);
    void absorb(const std::uint8_t* bytes, std::size_t size, const std::string& what);

    std::vector<std::uint8_t> m_proof;
    Transcript& m_transcript;
    std::size_t m_at = 0;
    bool m_queryPhase = false;
};

} // namespace proofdesk::stark
