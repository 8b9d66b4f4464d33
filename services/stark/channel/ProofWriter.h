#pragma once

#include "Transcript.h"

#include <cstdint>
#include <string>
#include <vector>

namespace proofdesk::stark {

// The prover's side of the channel, the mirror of ProofReader: every message is appended to the
// proof bytes and, until the query phase, absorbed into the transcript, so both sides draw the
// same randomness. Optionally it keeps Stone's annotations: one line per message or draw, under
// the current scope ("P->V[begin:end]: /cpu air/<scope>: <label>: Hash(…)"), which tools such
// as Integrity's proof serializer read.
class ProofWriter {
public:
    explicit ProofWriter(Transcript& transcript) : m_transcript(transcript) {}

    void enableAnnotations() { m_annotating = true; }
    bool annotating() const { return m_annotating; }
    void setScope(std::string scope) { m_scope = std::move(scope); }

    void writeCommitment(const Digest& digest, const std::string& label = "Commitment");
    // Field elements as one message (oneMessage) or one message each (annotated as one span).
    void writeFelts(const std::vector<Fp>& values, bool oneMessage, const std::string& label = "");
    // Grinds the proof-of-work nonce for `bits` with `powHash` on `threads` threads, writes it.
    void writeProofOfWork(const NamedHash& powHash, int bits, int threads);

    void beginQueryPhase() { m_queryPhase = true; }
    // Decommitments: field elements as Montgomery words, Merkle nodes as digests, the words that
    // complete a one-column table's pairs as data (not absorbed).
    void writeDecommittedFelt(const Fp& value, const std::string& label = "");
    void writeNode(const Digest& digest, const std::string& label = "");
    void writeData(const Digest& bytes, const std::string& label = "");

    Fp drawFelt(const std::string& label = "");
    std::uint64_t drawNumber(std::uint64_t bound, const std::string& label = "");

    const std::vector<std::uint8_t>& bytes() const { return m_proof; }
    std::vector<std::uint8_t> takeBytes() { return std::move(m_proof); }
    // The annotations so far with Stone's header and, at the end, its statistics.
    std::vector<std::string> annotations() const;

private:
    void append(const std::uint8_t* bytes, std::size_t size, bool absorbed);
    void annotateSent(std::size_t begin, const std::string& text);

    std::vector<std::uint8_t> m_proof;
    Transcript& m_transcript;
    bool m_queryPhase = false;
    bool m_annotating = false;
    std::string m_scope;
    std::vector<std::string> m_annotations;
    std::size_t m_hashes = 0, m_commitments = 0, m_felts = 0, m_data = 0;
};

} // namespace proofdesk::stark
