#include "ProofReader.h"

namespace proofdesk::stark {

const std::uint8_t* ProofReader::take(std::size_t size, const std::string& what) {
    if (remaining() < size) {
        throw Rejection(Stage::Transcript,
                        "proof ends early: " + withThousands(size - remaining()) +
                            " bytes missing for " + what);
    }
    const std::uint8_t* at = m_proof.data() + m_at;
    m_at += size;
    return at;
}

void ProofReader::absorb(const std::uint8_t* bytes, std::size_t size, const std::string& what) {
    if (!m_queryPhase && !m_transcript.absorb({bytes, size})) {
        throw Rejection(Stage::Transcript,
                        what + ": a word is not a field element (not below the prime)");
    }
}

Digest ProofReader::readCommitment(const std::string& what) {
    const std::uint8_t* bytes = take(32, what);
    absorb(bytes, 32, what);
    Digest digest{};
    std::copy(bytes, bytes + 32, digest.begin());
    return digest;
}

Fp ProofReader::readFelt(const std::string& what) {
    return readFelts(1, true, what).front();
}

std::vector<Fp> ProofReader::readFelts(std::size_t count, bool oneMessage,
                                       const std::string& what) {
    if (count > remaining() / 32) {
        throw Rejection(Stage::Transcript, "proof ends early: " + what + " needs " +
                                               withThousands(count) + " field elements, " +
                                               withThousands(remaining()) + " bytes are left");
    }
    std::vector<Fp> values;
    values.reserve(count);
    const std::uint8_t* first = take(count * 32, what);
    for (std::size_t i = 0; i < count; ++i) {
        const auto value = m_transcript.decodeFelt(first + 32 * i);
        if (!value) {
            throw Rejection(Stage::Transcript,
                            what + ": element " + std::to_string(i) + " is not below the prime");
        }
        values.push_back(*value);
        if (!oneMessage) {
            absorb(first + 32 * i, 32, what);
        }
    }
    if (oneMessage) {
        absorb(first, count * 32, what);
    }
    return values;
}

void ProofReader::readProofOfWork(const NamedHash& powHash, int bits) {
    if (bits <= 0) {
        return;
    }
    const Digest seed = m_transcript.powSeed();
    const std::size_t size = m_transcript.nonceBytes();
    const std::uint8_t* bytes = take(size, "the proof-of-work nonce");
    std::uint64_t nonce = 0;
    for (std::size_t i = size - 8; i < size; ++i) {
        nonce = (nonce << 8) | bytes[i];
    }
    for (std::size_t i = 0; i + 8 < size; ++i) {
        if (bytes[i] != 0) {
            throw Rejection(Stage::ProofOfWork, "proof of work: the nonce is wider than 64 bits");
        }
    }
    if (!proofOfWorkHolds(powHash, seed, bits, nonce)) {
        throw Rejection(Stage::ProofOfWork, "proof of work: nonce " + std::to_string(nonce) +
                                                " does not meet " + std::to_string(bits) + " bits");
    }
    absorb(bytes, size, "the proof-of-work nonce");
}

Fp ProofReader::readDecommittedFelt(const std::string& what) {
    const std::uint8_t* bytes = take(32, what);
    const auto value = fromMontgomeryBytes(bytes);
    if (!value) {
        throw Rejection(Stage::Transcript, what + ": not a field element");
    }
    return *value;
}

Digest ProofReader::readNode(const std::string& what) {
    const std::uint8_t* bytes = take(32, what);
    Digest digest{};
    std::copy(bytes, bytes + 32, digest.begin());
    return digest;
}

} // namespace proofdesk::stark
