#include "Mmr.h"

#include "BlockHeader.h"
#include "api/RequestWire.h"
#include "crypto/Felt.h"
#include "crypto/Hex.h"
#include "crypto/Poseidon.h"

#include <QCryptographicHash>

#include <bit>
#include <cstring>

namespace proofdesk::chain {
namespace {

using crypto::Felt;

Felt toFelt(const MmrHash& hash) {
    return Felt::fromBytesBE(hash.data(), hash.size());
}

MmrHash fromFelt(const Felt& value) {
    MmrHash out{};
    value.toBytesBE(out.data());
    return out;
}

MmrHash keccakOf(const std::uint8_t* data, std::size_t size) {
    // One hasher per thread: QCryptographicHash::hash would allocate on every call.
    thread_local QCryptographicHash hasher(QCryptographicHash::Keccak_256);
    hasher.reset();
    hasher.addData(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    const QByteArrayView result = hasher.resultView();
    MmrHash out{};
    std::memcpy(out.data(), result.data(), out.size());
    return out;
}

MmrHash sizeHash(std::uint64_t value) {
    MmrHash out{};
    for (int i = 0; i < 8; ++i) {
        out[31 - std::size_t(i)] = std::uint8_t(value >> (8 * i));
    }
    return out;
}

} // namespace

QString hashingFunctionName(HashingFunction function) {
    return function == HashingFunction::Keccak ? QStringLiteral("KECCAK")
                                               : QStringLiteral("POSEIDON");
}

std::optional<HashingFunction> parseHashingFunction(const QString& text) {
    const std::optional<std::string> name = api::canonicalHashingFunction(text.toStdString());
    if (!name) {
        return std::nullopt;
    }
    return *name == "KECCAK" ? HashingFunction::Keccak : HashingFunction::Poseidon;
}

MmrHash toMmrHash(const QByteArray& bytes32) {
    MmrHash out{};
    const qsizetype size = std::min<qsizetype>(bytes32.size(), 32);
    std::memcpy(out.data() + (32 - size), bytes32.constData() + (bytes32.size() - size),
                std::size_t(size));
    return out;
}

QByteArray toBytes(const MmrHash& hash) {
    return QByteArray(reinterpret_cast<const char*>(hash.data()), qsizetype(hash.size()));
}

QString toHex(const MmrHash& hash) {
    return crypto::toHex0x(toBytes(hash));
}

std::optional<MmrHash> mmrHashFromHex(const QString& text) {
    QString digits = text.startsWith(QLatin1String("0x")) ? text.mid(2) : text;
    if (digits.size() > 64) {
        return std::nullopt;
    }
    digits = QString(64 - digits.size(), QLatin1Char('0')) + digits;
    auto bytes = crypto::fromHex(digits);
    if (!bytes) {
        return std::nullopt;
    }
    return toMmrHash(*bytes);
}

Mmr Mmr::withGenesis(HashingFunction function) {
    Mmr mmr(function);
    mmr.append(genesisLeaf(function));
    return mmr;
}

std::optional<Mmr> Mmr::fromState(HashingFunction function, std::uint64_t leaves,
                                  std::vector<MmrHash> peaks) {
    if (std::size_t(std::popcount(leaves)) != peaks.size()) {
        return std::nullopt;
    }
    Mmr mmr(function);
    mmr.m_leaves = leaves;
    mmr.m_peaks = std::move(peaks);
    return mmr;
}

std::uint64_t Mmr::elementIndexOfLeaf(std::uint64_t leafIndex) {
    return 2 * leafIndex + 1 - std::uint64_t(std::popcount(leafIndex));
}

std::uint64_t Mmr::size() const {
    return 2 * m_leaves - std::uint64_t(std::popcount(m_leaves));
}

std::uint64_t Mmr::append(const MmrHash& leaf) {
    const std::uint64_t index = elementIndexOfLeaf(m_leaves);
    m_peaks.push_back(leaf);
    // Appending leaf number n merges as many mountains as n has trailing one bits.
    for (int merges = std::countr_one(m_leaves); merges > 0; --merges) {
        const MmrHash right = m_peaks.back();
        m_peaks.pop_back();
        m_peaks.back() = hashPair(m_function, m_peaks.back(), right);
    }
    ++m_leaves;
    return index;
}

MmrHash Mmr::bag() const {
    if (m_peaks.empty()) {
        return MmrHash{};
    }
    MmrHash bag = m_peaks.back();
    for (std::size_t i = m_peaks.size() - 1; i-- > 0;) {
        bag = hashPair(m_function, m_peaks[i], bag);
    }
    return bag;
}

MmrHash Mmr::root() const {
    return hashPair(m_function, sizeHash(size()), bag());
}

MmrHash Mmr::hashPair(HashingFunction function, const MmrHash& left, const MmrHash& right) {
    if (function == HashingFunction::Keccak) {
        std::uint8_t buffer[64];
        std::memcpy(buffer, left.data(), 32);
        std::memcpy(buffer + 32, right.data(), 32);
        return keccakOf(buffer, sizeof buffer);
    }
    return fromFelt(crypto::poseidonHash(toFelt(left), toFelt(right)));
}

MmrHash Mmr::genesisLeaf(HashingFunction function) {
    static const QByteArray seed("brave new world");
    if (function == HashingFunction::Keccak) {
        return keccakOf(reinterpret_cast<const std::uint8_t*>(seed.constData()),
                        std::size_t(seed.size()));
    }
    return fromFelt(crypto::poseidonHashSingle(Felt::fromBytesBE(
        reinterpret_cast<const std::uint8_t*>(seed.constData()), std::size_t(seed.size()))));
}

MmrHash Mmr::blockLeaf(HashingFunction function, const QByteArray& headerRlp,
                       const QByteArray& blockHash) {
    if (function == HashingFunction::Keccak) {
        return toMmrHash(blockHash);
    }
    std::vector<Felt> words;
    for (std::uint64_t word : littleEndianWords(headerRlp)) {
        words.push_back(Felt::fromU64(word));
    }
    return fromFelt(crypto::poseidonHashMany(words));
}

} // namespace proofdesk::chain
