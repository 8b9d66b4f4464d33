#include "ProofWriter.h"

#include <stdexcept>

namespace proofdesk::stark {
namespace {

// Big-endian bytes as Stone prints a number: 0x and hex digits without leading zeros.
std::string hexNumber(const std::uint8_t* bytes, std::size_t size) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < size; ++i) {
        for (const int nibble : {bytes[i] >> 4, bytes[i] & 15}) {
            if (!out.empty() || nibble != 0) {
                out += digits[nibble];
            }
        }
    }
    return "0x" + (out.empty() ? std::string("0") : out);
}

std::string hexValue(const Fp& value) {
    std::uint8_t bytes[32];
    toStandardBytes(value, bytes);
    return hexNumber(bytes, 32);
}

} // namespace

void ProofWriter::append(const std::uint8_t* bytes, std::size_t size, bool absorbed) {
    m_proof.insert(m_proof.end(), bytes, bytes + size);
    if (absorbed && !m_queryPhase && !m_transcript.absorb({bytes, size})) {
        // Only a digest that is not a field element can be refused (felt channel), and the
        // commitment hashes of a felt channel produce field elements.
        throw std::logic_error("the channel refused a message the prover wrote");
    }
}

void ProofWriter::annotateSent(std::size_t begin, const std::string& text) {
    m_annotations.push_back("P->V[" + std::to_string(begin) + ":" + std::to_string(m_proof.size()) +
                            "]: /cpu air/" + m_scope + ": " + text);
}

void ProofWriter::writeCommitment(const Digest& digest, const std::string& label) {
    const std::size_t begin = m_proof.size();
    append(digest.data(), digest.size(), true);
    ++m_hashes;
    ++m_commitments;
    if (m_annotating) {
        annotateSent(begin, label + ": Hash(" + hexNumber(digest.data(), 32) + ")");
    }
}

void ProofWriter::writeFelts(const std::vector<Fp>& values, bool oneMessage,
                             const std::string& label) {
    const std::size_t begin = m_proof.size();
    std::vector<std::uint8_t> bytes(values.size() * 32);
    for (std::size_t i = 0; i < values.size(); ++i) {
        m_transcript.encodeFelt(values[i], bytes.data() + 32 * i);
    }
    if (oneMessage) {
        append(bytes.data(), bytes.size(), true);
    } else {
        for (std::size_t i = 0; i < values.size(); ++i) {
            append(bytes.data() + 32 * i, 32, true);
        }
    }
    m_felts += values.size();
    if (m_annotating) {
        std::string list;
        for (const Fp& value : values) {
            list += (list.empty() ? "" : ", ") + hexValue(value);
        }
        annotateSent(begin, label + ": Field Elements(" + list + ")");
    }
}

void ProofWriter::writeProofOfWork(const NamedHash& powHash, int bits, int threads) {
    if (bits <= 0) {
        return;
    }
    const std::uint64_t nonce = grindProofOfWork(powHash, m_transcript.powSeed(), bits, threads);
    std::vector<std::uint8_t> bytes(m_transcript.nonceBytes(), 0);
    for (std::size_t i = 0; i < 8; ++i) {
        bytes[bytes.size() - 1 - i] = std::uint8_t(nonce >> (8 * i));
    }
    const std::size_t begin = m_proof.size();
    append(bytes.data(), bytes.size(), true);
    ++m_data;
    if (m_annotating) {
        annotateSent(begin, "POW: Data(" + hexNumber(bytes.data(), bytes.size()) + ")");
    }
}

void ProofWriter::writeDecommittedFelt(const Fp& value, const std::string& label) {
    const std::size_t begin = m_proof.size();
    std::uint8_t bytes[32];
    toMontgomeryBytes(value, bytes);
    append(bytes, 32, false);
    ++m_felts;
    if (m_annotating) {
        annotateSent(begin, label + ": Field Element(" + hexValue(value) + ")");
    }
}

void ProofWriter::writeNode(const Digest& digest, const std::string& label) {
    const std::size_t begin = m_proof.size();
    append(digest.data(), digest.size(), false);
    ++m_hashes;
    if (m_annotating) {
        annotateSent(begin, label + ": Hash(" + hexNumber(digest.data(), 32) + ")");
    }
}

void ProofWriter::writeData(const Digest& bytes, const std::string& label) {
    const std::size_t begin = m_proof.size();
    append(bytes.data(), bytes.size(), false);
    ++m_data;
    if (m_annotating) {
        annotateSent(begin, label + ": Data(" + hexNumber(bytes.data(), 32) + ")");
    }
}

Fp ProofWriter::drawFelt(const std::string& label) {
    const Fp value = m_transcript.drawFelt();
    if (m_annotating) {
        m_annotations.push_back("V->P: /cpu air/" + m_scope + ": " + label + ": Field Element(" +
                                hexValue(value) + ")");
    }
    return value;
}

std::uint64_t ProofWriter::drawNumber(std::uint64_t bound, const std::string& label) {
    const std::uint64_t value = m_transcript.drawNumber(bound);
    if (m_annotating) {
        m_annotations.push_back("V->P: /cpu air/" + m_scope + ": " + label + ": Number(" +
                                std::to_string(value) + ")");
    }
    return value;
}

std::vector<std::string> ProofWriter::annotations() const {
    std::vector<std::string> out = {"title cpu air Proof Protocol", ""};
    out.insert(out.end(), m_annotations.begin(), m_annotations.end());
    out.insert(out.end(),
               {"", "Proof Statistics:", "", "Byte count: " + std::to_string(m_proof.size()),
                "Hash count: " + std::to_string(m_hashes),
                "Commitment count: " + std::to_string(m_commitments),
                "Field element count: " + std::to_string(m_felts),
                "Data count: " + std::to_string(m_data)});
    return out;
}

} // namespace proofdesk::stark
